import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { runCleanups, upgradeWith, type Cleanups } from '../test/migrations.ts';
import { TEST_DB } from '../test/test-app.ts';
import { queryRows, type Db } from './client.ts';

/**
 * Migration 0014's game numbers (decision 037) on games played before it: each shop's rounds are
 * numbered 1, 2, 3… in the order they opened, a sale takes its round's number (a sale without a
 * round keeps none), and the next round a shop opens gets the number after its last.
 */

const cleanups: Cleanups = [];
afterAll(() => runCleanups(cleanups));

/** A user by SQL (the migration needs rows, not a way in): its id. */
async function shop(db: Db, username: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO users (username, password_hash, full_name, role) VALUES (${username}, 'x', ${username}, 'user') RETURNING id`,
  );
  return row!.id;
}

/** A round of the shop opened at `at`; a settled one with its ledger row and its sale. */
async function round(db: Db, userId: number, at: string, status: 'discarded' | 'open' | 'settled'): Promise<number> {
  let transactionId: number | null = null;
  let saleId: number | null = null;
  if (status === 'settled') {
    [transactionId, saleId] = await sale(db, userId, at);
  }
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO game_rounds (code, user_id, status, start_range, end_range, bet_amount, prizes, seed, commitment,
          transaction_id, sale_id, created_at)
        VALUES (${`code-${userId}-${at}-${status}-${Math.random()}`}, ${userId}, ${status}, 1, 10, 100, '[]'::jsonb,
          '\\x00'::bytea, 'c', ${transactionId}, ${saleId}, ${at}::timestamptz)
        RETURNING id`,
  );
  return row!.id;
}

/** A sales record (and its ledger row) of the shop: [transaction id, sale id]. */
async function sale(db: Db, userId: number, at: string): Promise<[number, number]> {
  const [tx] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO transactions (type, user_id, actor_id, amount, status, created_at)
        VALUES ('game', ${userId}, ${userId}, 300, 'completed', ${at}::timestamptz) RETURNING id`,
  );
  const [game] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO games (user_id, start_range, end_range, bet_amount, pool, total_prize, commission, selected_count,
          winners_count, game_data, transaction_id, created_at)
        VALUES (${userId}, 1, 10, 100, 300, 0, 300, 3, 0, '{}'::jsonb, ${tx!.id}, ${at}::timestamptz) RETURNING id`,
  );
  return [tx!.id, game!.id];
}

describe(`migration 0014: one game number per shop (${TEST_DB})`, () => {
  it('numbers existing games per shop in opening order, copies them to their sales and goes on from there', async () => {
    const ids: Record<string, number> = {};
    const database = await upgradeWith('0014_shop_claims_shifts', cleanups, async (db) => {
      const a = (ids.a = await shop(db, 'shop_a'));
      const b = (ids.b = await shop(db, 'shop_b'));
      // Inserted out of order: the number follows when each opened (then the id, for a tie).
      ids.a3 = await round(db, a, '2026-11-03T10:00:00Z', 'discarded');
      ids.a1 = await round(db, a, '2026-11-01T10:00:00Z', 'discarded');
      ids.b1 = await round(db, b, '2026-11-02T10:00:00Z', 'settled');
      // The shop's second round is its first sale: the sale takes the round's number, 2, not a count of sales.
      ids.a2 = await round(db, a, '2026-11-02T10:00:00Z', 'settled');
      ids.a4 = await round(db, a, '2026-11-03T10:00:00Z', 'open');
      // A sale without a round (only the bench makes them).
      ids.lone = (await sale(db, a, '2026-11-04T10:00:00Z'))[1];
    });
    cleanups.push(() => database.close());
    const { db } = database;

    const numbers = await queryRows<{ id: number; number: number }>(db, sql`SELECT id, number FROM game_rounds`);
    expect(Object.fromEntries(numbers.map((row) => [row.id, row.number]))).toEqual({
      [ids.a1!]: 1,
      [ids.a2!]: 2,
      [ids.a3!]: 3,
      [ids.a4!]: 4,
      [ids.b1!]: 1,
    });
    const sales = await queryRows<{ id: number; number: number | null; round: number | null }>(
      db,
      sql`SELECT s.id, s.number, g.number AS round FROM games s LEFT JOIN game_rounds g ON g.sale_id = s.id ORDER BY s.id`,
    );
    expect(sales.filter((row) => row.round !== null).every((row) => row.number === row.round)).toBe(true);
    expect(sales.filter((row) => row.round !== null)).toHaveLength(2);
    expect(sales.find((row) => row.id === ids.lone)?.number).toBeNull();
    const saleNumbers = await queryRows<{ round: number; number: number | null }>(
      db,
      sql`SELECT g.id AS round, s.number FROM games s JOIN game_rounds g ON g.sale_id = s.id`,
    );
    expect(Object.fromEntries(saleNumbers.map((row) => [row.round, row.number]))).toEqual({
      [ids.a2!]: 2,
      [ids.b1!]: 1,
    });

    // The counters start after the numbers given: a shop's next round follows its last, a new shop starts at 1.
    const c = await shop(db, 'shop_c');
    await queryRows(db, sql`UPDATE game_rounds SET status = 'discarded' WHERE id = ${ids.a4}`);
    const next = async (userId: number) => {
      const id = await round(db, userId, '2026-11-05T10:00:00Z', 'discarded');
      const [row] = await queryRows<{ number: number }>(db, sql`SELECT number FROM game_rounds WHERE id = ${id}`);
      return row!.number;
    };
    expect([await next(ids.a!), await next(ids.b!), await next(c), await next(ids.a!)]).toEqual([5, 2, 1, 6]);
  });
});
