import { ENTRY_CODE_INVALID } from '@lot/domain/schemas/claims';

/**
 * What the shop scanned or typed to find a winner's claim (docs/product/money.md#prize-claims): an
 * entry slip's QR code (`<origin>/verify/<gameCode>#n=<entryCode>`) or its entry code typed, 16 hex
 * characters (case, spaces and dashes ignored, as the slip prints it in groups of four).
 */
export type ClaimKey = { code: string; entry: string } | { code: null; entry: string };

export type ReadResult = { ok: true; key: ClaimKey } | { ok: false; message: string };

const ENTRY_CODE = /^[0-9a-f]{16}$/;

export const NOT_AN_ENTRY_SLIP = 'This QR code is not a BOCH BOCH entry slip. Scan the entry slip or type its code.';
export const RESULT_SLIP = 'This is a result slip. Scan the winner’s entry slip or type its entry code.';
export const BAD_ENTRY_CODE = ENTRY_CODE_INVALID;

/** A typed entry code, normalised: lower case, without spaces and dashes; null when it is not one. */
export function normaliseEntryCode(typed: string): string | null {
  const code = typed.replace(/[\s-]+/g, '').toLowerCase();
  return ENTRY_CODE.test(code) ? code : null;
}

export function readTypedCode(typed: string): ReadResult {
  const entry = normaliseEntryCode(typed);
  return entry ? { ok: true, key: { code: null, entry } } : { ok: false, message: BAD_ENTRY_CODE };
}

/**
 * A scanned QR code's text. Any origin is accepted (a slip printed under another address of the
 * same server still names its game and entry); the path must be /verify/<code>.
 */
export function readScannedCode(text: string): ReadResult {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, message: NOT_AN_ENTRY_SLIP };
  }
  const match = /^\/verify\/([^/]+)\/?$/.exec(url.pathname);
  if (!match?.[1]) return { ok: false, message: NOT_AN_ENTRY_SLIP };
  const code = decodeURIComponent(match[1]);
  const nonce = new URLSearchParams(url.hash.slice(1)).get('n');
  if (nonce === null) return { ok: false, message: RESULT_SLIP };
  const entry = normaliseEntryCode(nonce);
  return entry ? { ok: true, key: { code, entry } } : { ok: false, message: NOT_AN_ENTRY_SLIP };
}
