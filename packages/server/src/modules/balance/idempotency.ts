import { createHash } from 'node:crypto';
import { AppError } from '@lot/domain/errors';
import { findIdempotencyKey, type Claim, type Queryable } from './balance.repository.ts';

/**
 * Idempotency-Keys (decision 024): a keyed money call (balance.service.ts) or prize payment
 * (claims) claims its key in the statement that does the work; these are the checks around it.
 */

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export type Idempotent<T> = { result: T; replayed: boolean };

export type { Claim };

/** A keyed money call's claim (decision 024): the caller's key, checked, and the request's hash. */
export function claimOf(userId: number, key: string, request: unknown): Claim {
  checkKey(key);
  return { userId, key, requestHash: hashOf(request) };
}

/**
 * The response a claimed key holds, or nothing when the key is free; 422 when it was claimed for a
 * different request.
 */
export async function storedAnswer<T>(db: Queryable, claim: Claim): Promise<T | undefined> {
  const stored = await findIdempotencyKey(db, claim.userId, claim.key);
  if (!stored) return undefined;
  if (stored.requestHash !== claim.requestHash) throw keyReused();
  return stored.response as T;
}

function checkKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1 to 200 visible ASCII characters');
  }
}

const hashOf = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex');

const keyReused = () => new AppError('UNPROCESSABLE', 'This Idempotency-Key was already used for a different request');
