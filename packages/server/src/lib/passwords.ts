import { hash } from '@node-rs/argon2';

/** Argon2id as docs/product/runtime-and-security.md#passwords sets it: 19 MiB, 2 iterations, 1 lane. */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}
