import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import type { Db, Tx } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';

/**
 * Idempotency-Keys (decision 024), shared by every keyed call: a money call (balance) and a prize
 * payment (claims). Each claims its key in the statement that does the work (its repository's);
 * these are the checks around it and the read of what a claimed key holds.
 */

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export type Idempotent<T> = { result: T; replayed: boolean };

/** A keyed call's claim: the caller, its key and the hash of the request the key was sent with. */
export type Claim = { userId: number; key: string; requestHash: string };

/** A keyed call's claim (decision 024): the caller's key, checked, and the request's hash. */
export function claimOf(userId: number, key: string, request: unknown): Claim {
  checkKey(key);
  return { userId, key, requestHash: hashOf(request) };
}

/** The row a claimed Idempotency-Key holds: the request's hash and the stored response. */
export function idempotencyKeyQuery(db: Db | Tx, userId: number, key: string) {
  return db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}

/**
 * The response a claimed key holds, or nothing when the key is free; 422 when it was claimed for a
 * different request.
 */
export async function storedAnswer<T>(db: Db | Tx, claim: Claim): Promise<T | undefined> {
  const [stored] = await idempotencyKeyQuery(db, claim.userId, claim.key);
  if (!stored) return undefined;
  if (stored.requestHash !== claim.requestHash) throw keyReused();
  return stored.response as T;
}

function checkKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('BAD_REQUEST', SERVER_MESSAGES.idempotencyKeyInvalid);
  }
}

const hashOf = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex');

const keyReused = () => new AppError('UNPROCESSABLE', SERVER_MESSAGES.idempotencyKeyReused);
