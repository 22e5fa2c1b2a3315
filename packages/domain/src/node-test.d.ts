/**
 * The part of Node's crypto the domain's test files use (they run in Node; draw-randomness.test.ts
 * draws millions of numbers through it). The domain's own code may not import Node: lint refuses
 * `node:*` outside its test files.
 */
declare module 'node:crypto' {
  type Hash = { update(data: Uint8Array | string): Hash; digest(): Uint8Array; digest(encoding: 'hex'): string };
  export function createHash(algorithm: 'sha256'): Hash;
  export function createHmac(algorithm: 'sha256', key: Uint8Array): Hash;
}
