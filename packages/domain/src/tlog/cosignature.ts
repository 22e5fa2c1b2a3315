import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { TlogFormatError } from './encoding.ts';
import {
  type Ed25519Backend,
  nobleEd25519,
  type NoteSignature,
  type NoteVerifier,
  parseSignatureLine,
  parseVerifierKey,
  SIG_TYPE_COSIGNATURE_V1,
  type VerifierKey,
} from './note.ts';

/**
 * C2SP tlog-cosignature, the Ed25519 `cosignature/v1` kind (https://c2sp.org/tlog-cosignature): a
 * witness's note signature on a checkpoint, whose bytes are a big-endian u64 POSIX timestamp then
 * an Ed25519 signature over
 *
 *     cosignature/v1\n
 *     time <timestamp>\n
 *     <the checkpoint's note text>
 *
 * The witness's vkey carries signature type 0x04, and its key ID is computed with that byte.
 * Pure: the browser verifies cosignatures with this code, the witness signs with node:crypto.
 */

/** Timestamp (8 bytes) and Ed25519 signature (64 bytes). */
export const COSIGNATURE_SIZE = 8 + 64;

/** The message a witness signs: header, time line, checkpoint text (with its final newline). */
export function cosignatureMessage(checkpointText: string, timestamp: number): Uint8Array {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`not a timestamp: ${timestamp}`);
  if (!checkpointText.endsWith('\n')) throw new TlogFormatError('a checkpoint ends with a newline');
  return utf8ToBytes(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
}

/** The signature bytes of a note line: timestamp as u64 big-endian, then the 64-byte signature. */
export function timestampedSignature(timestamp: number, signature: Uint8Array): Uint8Array {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`not a timestamp: ${timestamp}`);
  if (signature.length !== 64) throw new RangeError('an Ed25519 signature is 64 bytes');
  const time = new Uint8Array(8);
  new DataView(time.buffer).setBigUint64(0, BigInt(timestamp));
  return concatBytes(time, signature);
}

/**
 * The timestamp (seconds) and signature inside a cosignature's bytes, or null when they are not
 * 72 bytes or the time exceeds what a safe integer holds (the spec caps it at 2^63 − 1; LOT at 2^53 − 1).
 */
export function splitCosignature(bytes: Uint8Array): { timestamp: number; signature: Uint8Array } | null {
  if (bytes.length !== COSIGNATURE_SIZE) return null;
  const time = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
  if (time > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { timestamp: Number(time), signature: bytes.slice(8) };
}

function cosignatureKey(vkey: string | VerifierKey): VerifierKey {
  const key = typeof vkey === 'string' ? parseVerifierKey(vkey) : vkey;
  if (key.type !== SIG_TYPE_COSIGNATURE_V1) {
    throw new TlogFormatError('not a cosignature/v1 witness key (signature type 0x04)');
  }
  return key;
}

/**
 * A note verifier for a witness's cosignature/v1 vkey: verifyNote with it accepts a checkpoint the
 * witness cosigned. The note text it is given must be the checkpoint text.
 */
export function cosignatureVerifier(vkey: string | VerifierKey, backend: Ed25519Backend = nobleEd25519): NoteVerifier {
  const key = cosignatureKey(vkey);
  const check = backend(key.publicKey);
  return {
    name: key.name,
    keyId: key.keyId,
    verify(text, bytes) {
      const parts = splitCosignature(bytes);
      if (!parts) return false;
      const message = concatBytes(utf8ToBytes(`cosignature/v1\ntime ${parts.timestamp}\n`), text);
      return check(parts.signature, message);
    },
  };
}

/**
 * Checks one cosignature (a note signature line, with or without its newline, or a parsed
 * signature) on a checkpoint text against a pinned witness vkey. Returns its timestamp in seconds,
 * or null when the line is another key's, malformed, or does not verify.
 */
export function verifyCosignature(
  signature: string | NoteSignature,
  checkpointText: string,
  vkey: string | VerifierKey,
  backend: Ed25519Backend = nobleEd25519,
): { timestamp: number } | null {
  const key = cosignatureKey(vkey);
  let parsed: NoteSignature;
  try {
    parsed = typeof signature === 'string' ? parseSignatureLine(signature.replace(/\n$/, '')) : signature;
  } catch {
    return null;
  }
  if (parsed.name !== key.name || parsed.keyId !== key.keyId) return null;
  const parts = splitCosignature(parsed.signature);
  if (!parts || !checkpointText.endsWith('\n')) return null;
  const ok = backend(key.publicKey)(parts.signature, cosignatureMessage(checkpointText, parts.timestamp));
  return ok ? { timestamp: parts.timestamp } : null;
}
