import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import type { Db, Tx } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export type Idempotent<T> = { result: T; replayed: boolean };

/** A keyed call's claim: the caller, its key and the hash of the request the key was sent with. */
export type Claim = { userId: number; key: string; requestHash: string };

/**
 * Runs a money operation in one database transaction, remembering its answer under the caller's
 * Idempotency-Key. The key row is inserted first: a concurrent request with the same key waits
 * on it (unique index) and, once the first commits, answers the stored response. The stored
 * response commits or rolls back together with the money it describes, so a failed call leaves
 * no key behind and may be retried. The same key with a different request is a 422.
 */
export async function withIdempotency<T>(
  db: Db,
  userId: number,
  key: string | undefined,
  request: unknown,
  operation: (tx: Tx) => Promise<T>,
): Promise<Idempotent<T>> {
  if (key === undefined) return { result: await db.transaction(operation), replayed: false };
  const claim = claimOf(userId, key, request);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ ...claim, statusCode: 0, response: {} })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const stored = await storedAnswer<T>(tx, claim);
      if (stored === undefined) throw keyReused();
      return { result: stored, replayed: true };
    }
    const result = await operation(tx);
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: 200, response: result as object })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    return { result, replayed: false };
  });
}

/** A keyed money call's claim (decision 024): the caller's key, checked, and the request's hash. */
export function claimOf(userId: number, key: string, request: unknown): Claim {
  checkKey(key);
  return { userId, key, requestHash: hashOf(request) };
}

/**
 * The response a claimed key holds, or nothing when the key is free; 422 when it was claimed for a
 * different request.
 */
export async function storedAnswer<T>(db: Db | Tx, claim: Claim): Promise<T | undefined> {
  const [stored] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, claim.userId), eq(idempotencyKeys.key, claim.key)));
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
