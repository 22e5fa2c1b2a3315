import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import type { Db, Tx } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export type Idempotent<T> = { result: T; replayed: boolean };

/**
 * Runs a money operation in one database transaction, remembering its answer under the caller's
 * Idempotency-Key. The key row is inserted first: a concurrent request with the same key waits
 * on it (unique index) and, once the first commits, answers the stored response. The stored
 * response commits or rolls back together with the money it describes, so a failed call leaves
 * no key behind and may be retried. The same key with a different request is a 422.
 */
export function withIdempotency<T>(
  db: Db,
  userId: number,
  key: string | undefined,
  request: unknown,
  operation: (tx: Tx) => Promise<T>,
): Promise<Idempotent<T>> {
  return idempotent(db, userId, key, request, operation, () => db.transaction(operation));
}

/**
 * The same for an operation that is one SQL statement. A statement is atomic on its own, so
 * without a key it runs alone, with no BEGIN and COMMIT round trips; with a key it runs inside
 * the key's transaction like any other operation.
 */
export function withIdempotentStatement<T>(
  db: Db,
  userId: number,
  key: string | undefined,
  request: unknown,
  statement: (runner: Db | Tx) => Promise<T>,
): Promise<Idempotent<T>> {
  return idempotent(db, userId, key, request, statement, () => statement(db));
}

async function idempotent<T>(
  db: Db,
  userId: number,
  key: string | undefined,
  request: unknown,
  operation: (tx: Tx) => Promise<T>,
  withoutKey: () => Promise<T>,
): Promise<Idempotent<T>> {
  if (key === undefined) return { result: await withoutKey(), replayed: false };
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('BAD_REQUEST', 'Idempotency-Key must be 1 to 200 visible ASCII characters');
  }
  const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ userId, key, requestHash, statusCode: 0, response: {} })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const [stored] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
      if (!stored || stored.requestHash !== requestHash) {
        throw new AppError('UNPROCESSABLE', 'This Idempotency-Key was already used for a different request');
      }
      return { result: stored.response as T, replayed: true };
    }
    const result = await operation(tx);
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: 200, response: result as object })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    return { result, replayed: false };
  });
}
