import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '@lot/domain/money';
import { queryRows } from '../../db/client.ts';
import { backdate, configureWinners, listGames, playGame } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * Totals of a superagent's or everyone's games come from the daily rollup (whole UTC days) plus
 * the games of the partial days at either edge. Whatever the range, they must equal a plain count
 * over the games themselves, and pages must follow the same order from either end.
 */

let t: TestApp;
let h: Hierarchy;
const DAY = 86_400_000;
const BASE = Date.parse('2026-05-10T00:00:00.000Z');

/** A seeded pseudo-random sequence, so a failure can be replayed. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [{ percent: '40', position: 1 }]);
  const next = random(7);
  for (const player of [h.U1, h.U3, h.U4, h.U5]) {
    await fund(t, player.id, '1000.00');
    for (let i = 0; i < 6; i++) {
      const numbers = [1, 2, 3, 4, 5].slice(0, 2 + (i % 4));
      const game = await playGame(t, player, {
        numbers,
        bet: `${1 + i}.00`,
      });
      // Spread over 8 days at random times, some exactly at a day's first or last millisecond.
      const day = BASE + Math.floor(next() * 8) * DAY;
      const at = i === 0 ? day : i === 1 ? day + DAY - 1 : day + Math.floor(next() * DAY);
      await backdate(t, game.id, new Date(at).toISOString());
    }
  }
});
afterAll(() => t.close());

async function expected(superagentId: number | null, from?: number, to?: number) {
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  const [row] = await queryRows<{ n: string; c: string }>(
    t.database.db,
    sql`SELECT count(*)::text AS n, COALESCE(sum(commission), 0)::text AS c FROM games
        WHERE (${superagentId}::int IS NULL OR superagent_id = ${superagentId}::int)
          AND (${iso(from)}::timestamptz IS NULL OR created_at >= ${iso(from)}::timestamptz)
          AND (${iso(to)}::timestamptz IS NULL OR created_at < ${iso(to)}::timestamptz + interval '1 millisecond')`,
  );
  return { total: Number(row?.n), totalCommission: formatCents(BigInt(row?.c ?? 0)) };
}

function range(from?: number, to?: number) {
  return [
    from === undefined ? '' : `&from=${encodeURIComponent(new Date(from).toISOString())}`,
    to === undefined ? '' : `&to=${encodeURIComponent(new Date(to).toISOString())}`,
  ].join('');
}

describe('totals from the daily rollup', () => {
  it('equal a count over the games for 40 random ranges, whole days, partial days and none', async () => {
    const next = random(42);
    const cases: [number | undefined, number | undefined][] = [
      [undefined, undefined],
      [BASE, undefined],
      [undefined, BASE + 3 * DAY - 1],
      [BASE + DAY, BASE + 2 * DAY - 1], // exactly one whole day
      [BASE + DAY + 5, BASE + DAY + 9], // inside one day
    ];
    while (cases.length < 40) {
      const a = BASE - DAY + Math.floor(next() * 10 * DAY);
      const b = a + Math.floor(next() * 5 * DAY);
      cases.push([next() < 0.1 ? undefined : a, next() < 0.1 ? undefined : b]);
    }
    for (const [from, to] of cases) {
      const all = await listGames(t, h.admin.token, `/api/sales-history/filter?limit=1${range(from, to)}`);
      expect({ total: all.total, totalCommission: all.totalCommission }).toEqual(await expected(null, from, to));
      const s1 = await listGames(t, h.S1.token, `/api/sales-history/superagent/${h.S1.id}?limit=1${range(from, to)}`);
      expect({ total: s1.total, totalCommission: s1.totalCommission }).toEqual(await expected(h.S1.id, from, to));
    }
  });

  it('pages read from either end join up to the whole list, newest first', async () => {
    const whole = await listGames(t, h.admin.token, '/api/sales-history/filter?limit=1000');
    const paged: number[] = [];
    for (let offset = 0; offset < whole.total; offset += 7) {
      paged.push(...(await listGames(t, h.admin.token, `/api/sales-history/filter?limit=7&offset=${offset}`)).ids);
    }
    expect(paged).toEqual(whole.ids);
    const times = whole.items.map((item) => Date.parse(item.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });
});
