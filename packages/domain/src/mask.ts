/**
 * Masking for everything public (the verify page, the customer display, slips): every word of a
 * name becomes its first character and exactly three asterisks (`John Doe` → `J*** D***`, `Li` →
 * `L***`), so a mask never tells a word's length; a phone keeps only its last four digits
 * (`****1234`; a phone of four digits or fewer shows none). The play screen, which faces customers,
 * masks them too until the operator shows them (docs/product/game.md#names-on-the-play-screen); the
 * operator's other screens show both in full. docs/lot-draw-1.md says why the proof may show this much.
 */
export function maskName(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `${Array.from(word)[0] ?? ''}***`)
    .join(' ');
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `****${digits.length > 4 ? digits.slice(-4) : ''}`;
}
