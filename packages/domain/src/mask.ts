/**
 * Masking for everything public (the verify page, the customer display, slips): a name keeps the
 * first letter of each word (`John Doe` → `J*** D**`), a phone only its last four digits
 * (`****1234`; a phone of four digits or fewer shows none). The operator's own screens show both
 * in full. docs/lot-draw-1.md says why the proof may show this much.
 */
export function maskName(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      const [first = '', ...rest] = Array.from(word);
      return first + '*'.repeat(rest.length);
    })
    .join(' ');
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `****${digits.length > 4 ? digits.slice(-4) : ''}`;
}
