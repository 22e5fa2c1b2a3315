import { createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign, verify } from 'node:crypto';
import { cosignatureMessage, timestampedSignature } from '@lot/domain/tlog/cosignature';
import {
  type Ed25519Backend,
  formatVerifierKey,
  keyIdOf,
  type NoteSignature,
  SIG_TYPE_COSIGNATURE_V1,
  SIG_TYPE_ED25519,
} from '@lot/domain/tlog/note';

/**
 * Server-side signing for C2SP signed notes: the log's Ed25519 signature on its checkpoints, and a
 * witness's cosignature/v1 on a log's. The key is a 32-byte Ed25519 seed (RFC 8032's private key);
 * Node's crypto signs, and @lot/domain/tlog verifies (the same code runs in the browser).
 */

/** The DER prefix of a PKCS #8 Ed25519 private key (RFC 8410): the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** The DER prefix of an SPKI Ed25519 public key (RFC 8410): the 32-byte key follows it. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Node's Ed25519 for the domain's verifiers (`ed25519NoteVerifier(vkey, nodeEd25519)`,
 * `cosignatureVerifier`, `verifyCosignature`): OpenSSL's check, many times faster than noble's
 * on a server. A key that is not a valid point verifies nothing.
 */
export const nodeEd25519: Ed25519Backend = (publicKey) => {
  let key: KeyObject | undefined;
  try {
    key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' });
  } catch {
    key = undefined;
  }
  return (signature, message) => {
    if (!key || signature.length !== 64) return false;
    try {
      return verify(null, message, key, signature);
    } catch {
      return false;
    }
  };
};

export const ED25519_SEED_SIZE = 32;

/** A new random Ed25519 seed. */
export const newEd25519Seed = (): Uint8Array => new Uint8Array(randomBytes(ED25519_SEED_SIZE));

/** The Node key of a 32-byte seed, and its raw 32-byte public key. */
export function ed25519KeyFromSeed(seed: Uint8Array): { privateKey: KeyObject; publicKey: Uint8Array } {
  if (seed.length !== ED25519_SEED_SIZE) throw new RangeError('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return { privateKey, publicKey: new Uint8Array(Buffer.from(jwk.x!, 'base64url')) };
}

export type NoteSigner = {
  name: string;
  keyId: number;
  /** The verifier key anyone pins to check this signer's notes. */
  vkey: string;
  /** The signature line's parts for a note text (final newline included). */
  sign(text: string): NoteSignature;
};

/** An Ed25519 (type 0x01) note signer: the log's key over its checkpoints. */
export function ed25519NoteSigner(name: string, seed: Uint8Array): NoteSigner {
  const { privateKey, publicKey } = ed25519KeyFromSeed(seed);
  const keyId = keyIdOf(name, SIG_TYPE_ED25519, publicKey);
  return {
    name,
    keyId,
    vkey: formatVerifierKey(name, SIG_TYPE_ED25519, publicKey),
    sign: (text) => ({ name, keyId, signature: new Uint8Array(sign(null, Buffer.from(text, 'utf8'), privateKey)) }),
  };
}

export type Cosigner = {
  name: string;
  keyId: number;
  /** The witness's cosignature/v1 verifier key (type 0x04). */
  vkey: string;
  /** A cosignature/v1 on a checkpoint's text at `timestamp` (POSIX seconds). */
  cosign(checkpointText: string, timestamp: number): NoteSignature;
};

/** An Ed25519 cosignature/v1 (type 0x04) signer: a witness's key. */
export function ed25519Cosigner(name: string, seed: Uint8Array): Cosigner {
  const { privateKey, publicKey } = ed25519KeyFromSeed(seed);
  const keyId = keyIdOf(name, SIG_TYPE_COSIGNATURE_V1, publicKey);
  return {
    name,
    keyId,
    vkey: formatVerifierKey(name, SIG_TYPE_COSIGNATURE_V1, publicKey),
    cosign(checkpointText, timestamp) {
      const message = cosignatureMessage(checkpointText, timestamp);
      const signature = new Uint8Array(sign(null, message, privateKey));
      return { name, keyId, signature: timestampedSignature(timestamp, signature) };
    },
  };
}
