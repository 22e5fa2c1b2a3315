import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect } from 'vitest';
import { decimalToCents } from '@lot/domain/money';
import type { MoneyResult } from '@lot/domain/schemas/balance';
import { queryRows } from '../db/client.ts';
import { verifyAudit } from '../modules/audit/audit-chain.ts';
import { checkLedger } from '../modules/balance/ledger.ts';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.ts';

/** PostgreSQL "terminating connection due to administrator command". */
const ADMIN_SHUTDOWN = '57P01';

/**
 * createTestApp, made safe to close on PostgreSQL. Its close() drops the test database WITH
 * (FORCE) as soon as pool.end() returns, and pool.end() returns before the idle connections are
 * gone: the server then kills them, and the pool re-emits that as an 'error' event nobody
 * listens to, an uncaught exception that fails the run at random. Only that error is ignored.
 */
export async function createMoneyTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await createTestApp(options);
  const client: unknown = (t.database.db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    client.on('error', (error: Error & { code?: string }) => {
      if (error.code !== ADMIN_SHUTDOWN) throw error;
    });
  }
  return t;
}

export type MoneyCall = 'topup' | 'transfer' | 'decrease' | 'take-back';

/** POST /api/balance/{call} as the holder of `token`, with an optional Idempotency-Key. */
export function money(
  t: TestApp,
  token: string,
  call: MoneyCall,
  payload: Record<string, unknown> | string,
  key?: string,
): Promise<LightMyRequestResponse> {
  return t.request(token, {
    method: 'POST',
    url: `/api/balance/${call}`,
    payload,
    headers: {
      ...(typeof payload === 'string' && { 'content-type': 'application/json' }),
      ...(key !== undefined && { 'idempotency-key': key }),
    },
  });
}

export function expectStatus(response: LightMyRequestResponse, status: number): void {
  expect(response.statusCode, response.body).toBe(status);
}

/** The admin tops a user up and the call must succeed. */
export async function fund(t: TestApp, userId: number, amount: string): Promise<MoneyResult> {
  const response = await money(t, t.adminToken, 'topup', { userId, amount });
  expectStatus(response, 200);
  return response.json<MoneyResult>();
}

/** A user's balance in cents, read straight from the database. */
export async function balanceOf(t: TestApp, userId: number): Promise<number> {
  const [row] = await queryRows<{ amount: string }>(
    t.database.db,
    sql`SELECT amount::text AS amount FROM balances WHERE user_id = ${userId}`,
  );
  if (!row) throw new Error(`no balance row for user ${userId}`);
  return Number(row.amount);
}

/** Every balance (cents by user id) and the number of ledger rows and stored idempotency keys. */
export type Books = { balances: Record<number, number>; transactions: number; keys: number };

export async function books(t: TestApp): Promise<Books> {
  const rows = await queryRows<{ user_id: number; amount: string }>(
    t.database.db,
    sql`SELECT user_id, amount::text AS amount FROM balances ORDER BY user_id`,
  );
  const [counts] = await queryRows<{ transactions: number; keys: number }>(
    t.database.db,
    sql`SELECT (SELECT count(*) FROM transactions)::int AS transactions,
               (SELECT count(*) FROM idempotency_keys)::int AS keys`,
  );
  if (!counts) throw new Error('count query returned no row');
  return {
    balances: Object.fromEntries(rows.map((row) => [Number(row.user_id), Number(row.amount)])),
    transactions: Number(counts.transactions),
    keys: Number(counts.keys),
  };
}

/** Runs a call that must be refused and proves it changed nothing: no balance, no ledger row, no key. */
export async function expectRefused(
  t: TestApp,
  call: () => Promise<LightMyRequestResponse>,
  status: number,
  body?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const before = await books(t);
  const response = await call();
  expectStatus(response, status);
  if (body) expect(response.json()).toMatchObject(body);
  expect(await books(t)).toEqual(before);
  return response;
}

/** Cents of an API amount ("12.50" → 1250); the amount must be a 2-decimal string. */
export function cents(amount: string): number {
  expect(amount).toMatch(/^-?\d+\.\d{2}$/);
  return decimalToCents(amount);
}

/** A small seeded generator (mulberry32), so a failing random run can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** After a file's games: every balance equals its ledger rows, and every audit chain holds. */
export async function expectBooksAndAuditSound(t: TestApp): Promise<void> {
  const ledger = await checkLedger(t.database.db);
  expect(ledger.ok, JSON.stringify(ledger)).toBe(true);
  const audit = await verifyAudit(t.database.db);
  expect(audit.ok, JSON.stringify(audit.problems)).toBe(true);
}
