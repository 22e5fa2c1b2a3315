import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { base64Decode, base64Encode, hasControl, readUint32, TlogFormatError, uint32Bytes } from './encoding.ts';

/**
 * C2SP signed-note (https://c2sp.org/signed-note): a text ending in a newline, a blank line, then
 * one signature line per signer, `— <key name> base64(key ID ‖ signature)`. Verifier keys
 * ("vkeys") are `<name>+<hex key ID>+base64(signature type ‖ public key)`. Parsing is strict and
 * verification is pure (noble's Ed25519), so the browser checks a note as the server does; signing
 * happens in the server (lib/note-signer.ts).
 */

/** Signature type bytes (signed-note "Signature types"): the two LOT uses. */
export const SIG_TYPE_ED25519 = 0x01;
export const SIG_TYPE_COSIGNATURE_V1 = 0x04;

/** One signature line: the key's name and ID, and the signature bytes after the ID. */
export type NoteSignature = { name: string; keyId: number; signature: Uint8Array };

export type Note = { text: string; signatures: NoteSignature[] };

/** A verifier key, parsed: its name, ID, signature type and public key bytes. */
export type VerifierKey = { name: string; keyId: number; type: number; publicKey: Uint8Array };

/** Verifies one signature of a known key over a note's text (the bytes of the text, newline included). */
export type NoteVerifier = {
  name: string;
  keyId: number;
  verify(text: Uint8Array, signature: Uint8Array): boolean;
};

/**
 * At most this many signature lines in a note LOT reads (the spec asks for at least 16): a log
 * signature and a witness quorum fit many times over; a megabyte of lines is refused before any
 * signature check (decision 078).
 */
export const MAX_NOTE_SIGNATURES = 64;

const EM_DASH = '\u2014';
// Unicode spaces (White_Space minus the line breaks signed-note already forbids as controls).
const UNICODE_SPACE = /[\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** Key names: non-empty, no Unicode space, no plus. */
export function isKeyName(name: string): boolean {
  return name.length > 0 && !UNICODE_SPACE.test(name) && !name.includes('+');
}

/** key ID = SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4], as a big-endian uint32. */
export function keyIdOf(name: string, type: number, publicKey: Uint8Array): number {
  return readUint32(sha256(concatBytes(utf8ToBytes(name), new Uint8Array([0x0a, type]), publicKey)));
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0');

/** `<name>+<hex key ID>+base64(type ‖ public key)`, with the key ID computed as recommended. */
export function formatVerifierKey(name: string, type: number, publicKey: Uint8Array): string {
  if (!isKeyName(name)) throw new TlogFormatError('a key name must be non-empty, without spaces or "+"');
  const keyId = keyIdOf(name, type, publicKey);
  return `${name}+${hex8(keyId)}+${base64Encode(concatBytes(new Uint8Array([type]), publicKey))}`;
}

/**
 * A vkey of one of the types LOT uses (Ed25519 0x01, cosignature/v1 0x04), strictly: lowercase
 * 8-digit hex ID, a 32-byte Ed25519 key, and the ID the key's name, type and bytes give (a vkey
 * whose ID does not match is a typo or a forgery, not a key). Throws TlogFormatError.
 */
export function parseVerifierKey(vkey: string): VerifierKey {
  // The name holds no plus and the ID is hex; the base64 key may hold pluses of its own.
  const match = /^([^+]*)\+([^+]*)\+(.*)$/su.exec(vkey);
  if (!match) throw new TlogFormatError('a verifier key is <name>+<hex key ID>+<base64 key>');
  const [, name, idHex, keyBase64] = match as unknown as [string, string, string, string];
  if (!isKeyName(name)) throw new TlogFormatError('the verifier key name must be non-empty, without spaces');
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw new TlogFormatError('the verifier key ID must be 8 lowercase hex digits');
  const key = base64Decode(keyBase64, 'the verifier key');
  const type = key[0];
  if (type !== SIG_TYPE_ED25519 && type !== SIG_TYPE_COSIGNATURE_V1) {
    throw new TlogFormatError('the verifier key is not an Ed25519 (0x01) or cosignature/v1 (0x04) key');
  }
  const publicKey = key.slice(1);
  if (publicKey.length !== 32) throw new TlogFormatError('an Ed25519 public key is 32 bytes');
  const keyId = parseInt(idHex, 16);
  if (keyIdOf(name, type, publicKey) !== keyId) {
    throw new TlogFormatError('the verifier key ID does not match its name and key');
  }
  return { name, keyId, type, publicKey };
}

/** RFC 8032 verification, strict (no ZIP-215 leniency): what Node's OpenSSL signs, it accepts. */
export function ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/**
 * An Ed25519 implementation: given a 32-byte public key, its check of a signature over a message.
 * The default is noble's (browser and server alike); a server may pass Node's, which is faster
 * (lib/note-signer.ts `nodeEd25519`). Both verify as RFC 8032 says.
 */
export type Ed25519Backend = (publicKey: Uint8Array) => (signature: Uint8Array, message: Uint8Array) => boolean;

export const nobleEd25519: Ed25519Backend = (publicKey) => (signature, message) =>
  ed25519Verify(signature, message, publicKey);

/** The verifier of a plain Ed25519 (type 0x01) vkey, such as the log's key. */
export function ed25519NoteVerifier(vkey: string | VerifierKey, backend: Ed25519Backend = nobleEd25519): NoteVerifier {
  const key = typeof vkey === 'string' ? parseVerifierKey(vkey) : vkey;
  if (key.type !== SIG_TYPE_ED25519) throw new TlogFormatError('not an Ed25519 (type 0x01) verifier key');
  const check = backend(key.publicKey);
  return { name: key.name, keyId: key.keyId, verify: (text, signature) => check(signature, text) };
}

/** One signature line, newline included. */
export function formatSignatureLine({ name, keyId, signature }: NoteSignature): string {
  if (!isKeyName(name)) throw new TlogFormatError('a key name must be non-empty, without spaces or "+"');
  return `${EM_DASH} ${name} ${base64Encode(concatBytes(uint32Bytes(keyId), signature))}\n`;
}

/** The note: text (ending in a newline), a blank line, the signature lines. */
export function formatNote({ text, signatures }: Note): string {
  checkText(text);
  if (signatures.length === 0) throw new TlogFormatError('a signed note has at least one signature');
  return `${text}\n${signatures.map(formatSignatureLine).join('')}`;
}

function checkText(text: string) {
  if (!text.endsWith('\n')) throw new TlogFormatError('a note text ends with a newline');
  if (hasControl(text, true)) throw new TlogFormatError('a note may not hold control characters other than newline');
}

/**
 * One signature line without its newline, strictly: em dash, space, key name, space, base64 of at
 * least the 4-byte key ID and one signature byte. Throws TlogFormatError.
 */
export function parseSignatureLine(line: string): NoteSignature {
  const match = /^\u2014 ([^ ]+) ([^ ]+)$/u.exec(line);
  if (!match) throw new TlogFormatError('a signature line is "— <key name> <base64 signature>"');
  const [, name, encoded] = match as unknown as [string, string, string];
  if (!isKeyName(name)) throw new TlogFormatError('a signature key name must be non-empty, without spaces or "+"');
  const bytes = base64Decode(encoded, 'a signature');
  if (bytes.length < 5) throw new TlogFormatError('a signature is a 4-byte key ID and the signature bytes');
  return { name, keyId: readUint32(bytes), signature: bytes.slice(4) };
}

/**
 * Signature lines (each ending in a newline) as a witness answers them, or as they end a note.
 * Throws TlogFormatError.
 */
export function parseSignatureLines(block: string): NoteSignature[] {
  if (!block.endsWith('\n')) throw new TlogFormatError('every signature line ends with a newline');
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) throw new TlogFormatError(`more than ${MAX_NOTE_SIGNATURES} signatures`);
  return lines.map(parseSignatureLine);
}

/**
 * A signed note, strictly: no control characters but newline, the text separated from the
 * signatures by the last blank line, at least one well-formed signature line. Its signatures are
 * not checked here (verifyNote does). Throws TlogFormatError.
 */
export function parseNote(note: string): Note {
  if (hasControl(note, true)) throw new TlogFormatError('a note may not hold control characters other than newline');
  // A lone surrogate has no UTF-8 form: the bytes signed could not be the bytes shown.
  if (/\p{Cs}/u.test(note)) throw new TlogFormatError('a note must be valid UTF-8');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new TlogFormatError('a signed note is a text, a blank line, and signature lines');
  const text = note.slice(0, split + 1);
  const signatures = parseSignatureLines(note.slice(split + 2));
  if (signatures.length === 0) throw new TlogFormatError('a signed note has at least one signature');
  return { text, signatures };
}

export type VerifiedNote = Note & {
  /** The signatures that verified, each with the verifier that checked it, in note order. */
  verified: { verifier: NoteVerifier; signature: NoteSignature }[];
};

export type NoteCheck =
  | { ok: true; note: VerifiedNote }
  | { ok: false; reason: 'malformed' | 'unverified' | 'bad-signature'; message: string };

/**
 * Checks a note against pinned verifiers as signed-note says: a signature whose name and ID match
 * no verifier is ignored; one that matches must verify, or the whole note is refused
 * ('bad-signature'); with no verified signature the note is refused ('unverified').
 */
export function verifyNote(note: string | Note, verifiers: readonly NoteVerifier[]): NoteCheck {
  let parsed: Note;
  try {
    parsed = typeof note === 'string' ? parseNote(note) : note;
  } catch (error) {
    return { ok: false, reason: 'malformed', message: (error as Error).message };
  }
  const textBytes = utf8ToBytes(parsed.text);
  const verified: VerifiedNote['verified'] = [];
  for (const signature of parsed.signatures) {
    const verifier = verifiers.find((v) => v.name === signature.name && v.keyId === signature.keyId);
    if (!verifier) continue;
    if (!verifier.verify(textBytes, signature.signature)) {
      return { ok: false, reason: 'bad-signature', message: `the signature of ${signature.name} does not verify` };
    }
    verified.push({ verifier, signature });
  }
  if (verified.length === 0) {
    return { ok: false, reason: 'unverified', message: 'no signature from a trusted key' };
  }
  return { ok: true, note: { ...parsed, verified } };
}
