import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** An AES-256-GCM sealing: the random 12-byte IV, the 16-byte tag and the ciphertext. */
export type Sealed = { iv: Buffer; tag: Buffer; body: Buffer };

/**
 * AES-256-GCM under the SHA-256 of a key text from the environment (TOTP_KEY, SEED_KEY: at least
 * 32 characters). `context` is authenticated but not stored: what a value belongs to, so a value
 * copied onto another row does not open there. The one implementation both boxes share.
 */
export class AesGcmKey {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret, 'utf8').digest();
  }

  seal(plain: Uint8Array, context: string): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return { iv, tag: cipher.getAuthTag(), body };
  }

  /** Throws when the value was not sealed with this key and context (or was altered). */
  open({ iv, tag, body }: Sealed, context: string): Buffer {
    if (iv.length !== 12 || tag.length !== 16) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  }
}

/**
 * Encrypts small secrets at rest (two-factor secrets, decision 028) with AES-256-GCM under a key
 * from the environment (TOTP_KEY), as text: `v1.<iv>.<tag>.<body>` in base64url. Each value names
 * what it belongs to (`context`, authenticated but not stored), so a value copied onto another row
 * does not decrypt there.
 */
export class SecretBox {
  private readonly key: AesGcmKey;

  constructor(secret: string) {
    this.key = new AesGcmKey(secret);
  }

  seal(plain: string, context: string): string {
    const { iv, tag, body } = this.key.seal(Buffer.from(plain, 'utf8'), context);
    return ['v1', iv, tag, body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the value was not sealed with this key and context (or was altered). */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const parts = { iv: Buffer.from(iv, 'base64url'), tag: Buffer.from(tag, 'base64url') };
    return this.key.open({ ...parts, body: Buffer.from(body, 'base64url') }, context).toString('utf8');
  }
}
