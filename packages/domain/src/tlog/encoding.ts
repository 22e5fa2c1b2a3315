/**
 * The byte encodings the tlog formats use (C2SP signed-note, tlog-checkpoint, tlog-witness):
 * standard padded base64 (RFC 4648 §4), decoded strictly, and big-endian integers. Pure, with no
 * Node or DOM API, so the browser verifies with the same code as the server.
 */

/** A text that breaks one of the formats' rules: the message names the rule. */
export class TlogFormatError extends Error {
  override name = 'TlogFormatError';
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Map([...ALPHABET].map((char, value) => [char, value]));
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const chunk = (a << 16) | (b << 8) | c;
    out += ALPHABET[(chunk >> 18) & 63]! + ALPHABET[(chunk >> 12) & 63]!;
    out += i + 1 < bytes.length ? ALPHABET[(chunk >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? ALPHABET[chunk & 63]! : '=';
  }
  return out;
}

/**
 * Standard padded base64, strictly: no whitespace, no URL alphabet, and the unused bits of the last
 * character zero, so every byte string has exactly one accepted text (a hash line cannot be
 * re-spelled into a different-looking but equal proof). Throws TlogFormatError otherwise.
 */
export function base64Decode(text: string, what = 'base64'): Uint8Array {
  if (!BASE64.test(text)) throw new TlogFormatError(`${what} is not standard padded base64`);
  const body = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((body.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of body) {
    value = (value << 6) | VALUE.get(char)!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  if ((value & ((1 << bits) - 1)) !== 0) throw new TlogFormatError(`${what} is not canonical base64`);
  return out;
}

/** Byte equality in time that depends on the length only. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** `n` as 4 big-endian bytes (a note key ID). */
export function uint32Bytes(n: number): Uint8Array {
  return new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
}

/** The big-endian uint32 at the start of `bytes`. */
export function readUint32(bytes: Uint8Array): number {
  return ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
}

/** A decimal with no leading zeroes ("0" for zero), as the tlog formats spell sizes and times. */
const DECIMAL = /^(?:0|[1-9][0-9]*)$/;

/**
 * A size or time line's decimal, strictly (no sign, no leading zero, no space). Values above
 * Number.MAX_SAFE_INTEGER are refused: no LOT log or clock reaches 2^53 (decision 078).
 */
export function parseDecimal(text: string, what: string): number {
  if (!DECIMAL.test(text)) throw new TlogFormatError(`${what} is not a decimal with no leading zeroes`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new TlogFormatError(`${what} is too large`);
  return n;
}

/** Whether `text` holds an ASCII control character (below U+0020, or DEL), newline aside when allowed. */
export function hasControl(text: string, newlineAllowed: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 || code === 0x7f) && !(newlineAllowed && code === 0x0a)) return true;
  }
  return false;
}
