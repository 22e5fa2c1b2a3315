import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawSequence, toHex, webDrawCrypto } from '@lot/domain/draw';
import { nodeDrawCrypto } from './draw-crypto.ts';

/** The server draws with Node's crypto; browsers verify with Web Crypto: they must agree on every byte. */
describe('Node’s draw crypto', () => {
  it('gives the bytes Web Crypto gives, for SHA-256 and HMAC-SHA256 of any length', async () => {
    for (let i = 0; i < 300; i++) {
      const key = randomBytes(1 + (i % 70));
      const data = randomBytes(i * 7);
      expect(toHex(await nodeDrawCrypto.sha256(data))).toBe(toHex(await webDrawCrypto.sha256(data)));
      expect(toHex(await nodeDrawCrypto.hmacSha256(key, data))).toBe(toHex(await webDrawCrypto.hmacSha256(key, data)));
    }
  });

  it('draws the same numbers as Web Crypto from the same seed and digest', async () => {
    for (let i = 0; i < 20; i++) {
      const seed = randomBytes(32).toString('hex');
      const digest = randomBytes(32).toString('hex');
      const range = { startRange: 1, endRange: 100 };
      const web = await drawSequence(seed, digest, range, 10, undefined, webDrawCrypto);
      expect(await drawSequence(seed, digest, range, 10, undefined, nodeDrawCrypto)).toEqual(web);
    }
  });
});
