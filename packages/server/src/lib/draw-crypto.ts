import { createHash, createHmac } from 'node:crypto';
import type { DrawCrypto } from '@lot/domain/draw';

/** LOT-DRAW-1's primitives from Node's crypto: the same bytes as Web Crypto's (draw.test.ts checks). */
export const nodeDrawCrypto: DrawCrypto = {
  sha256: (data) => Promise.resolve(new Uint8Array(createHash('sha256').update(data).digest())),
  hmacSha256: (key, data) => Promise.resolve(new Uint8Array(createHmac('sha256', key).update(data).digest())),
};
