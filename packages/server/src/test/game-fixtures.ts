import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { formatCents } from '@lot/domain/money';
import type { Sale, SaleDetail } from '@lot/domain/schemas/sales-history';
import { queryRows } from '../db/client.ts';
import type { Member } from './hierarchy.ts';
import { books, expectStatus, type Books } from './money-fixtures.ts';
import type { TestApp } from './test-app.ts';

/** One prize position as the winner form sends it. */
export type Setting = { percent: string; position: number; isActive?: boolean; name?: string };

/** The admin creates winner configurations for a user (or global ones with userId null). */
export async function configureWinners(t: TestApp, userId: number | null, settings: Setting[]): Promise<number[]> {
  const ids: number[] = [];
  for (const setting of settings) {
    const response = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/winners',
      payload: {
        name: setting.name ?? `Prize ${setting.position}`,
        percent: setting.percent,
        position: setting.position,
        isActive: setting.isActive ?? true,
        userId,
      },
    });
    expectStatus(response, 201);
    ids.push(response.json<{ id: number }>().id);
  }
  return ids;
}

export type Participant = { number: number; name: string; phoneNumber: string };

/** Participants with a name and phone derived from their number. */
export function participants(numbers: number[]): Participant[] {
  return numbers.map((number) => ({ number, name: `Player ${number}`, phoneNumber: `555-${number}` }));
}

export type GameSpec = {
  /** The selected numbers, or the participants in full. */
  numbers: number[] | Participant[];
  /** Drawn numbers, in draw order (one per configured position). */
  drawn: number[];
  /** Percentages of the configured positions, in position order: they decide the prizes. */
  percents: string[];
  /** The positions of those percentages (default 1, 2, 3 …). */
  positions?: number[];
  bet?: string;
  start?: number;
  end?: number;
};

/** Cents of a 2-decimal string, written out here so the tests do not lean on the code under test. */
function toCents(decimal: string): number {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * A finished game as the client posts it, computed independently of the server: pool = selected ×
 * bet; the i-th drawn number wins floor(pool × percent_i / 100) when someone selected it.
 */
export function gamePayload(userId: number, spec: GameSpec) {
  const selected = typeof spec.numbers[0] === 'number' ? participants(spec.numbers as number[]) : spec.numbers;
  const people = selected as Participant[];
  const bet = spec.bet ?? '10.00';
  const start = spec.start ?? 1;
  const end = spec.end ?? 20;
  const pool = people.length * toCents(bet);
  const winners = spec.drawn.flatMap((number, index) => {
    const person = people.find((p) => p.number === number);
    const percent = spec.percents[index];
    if (!person || percent === undefined) return [];
    const prize = Number((BigInt(pool) * BigInt(toCents(percent))) / 10_000n);
    return [{ ...person, position: spec.positions?.[index] ?? index + 1, prizeAmount: formatCents(prize) }];
  });
  const totalPrize = winners.reduce((sum, w) => sum + toCents(w.prizeAmount), 0);
  return {
    userId,
    startRange: start,
    endRange: end,
    betAmount: bet,
    totalPrize: formatCents(totalPrize),
    commission: formatCents(pool - totalPrize),
    selectedNumbersCount: people.length,
    winningNumbersCount: winners.length,
    gameData: {
      selectedNumbers: people,
      winningNumbers: spec.drawn,
      drawCount: spec.drawn.length,
      totalPrizePool: formatCents(pool),
      startRange: start,
      endRange: end,
      betAmount: bet,
    },
    winners,
  };
}
export type GamePayload = ReturnType<typeof gamePayload>;

/** POST /api/sales-history as the member, with an optional Idempotency-Key. */
export function postGame(t: TestApp, token: string, payload: unknown, key?: string): Promise<LightMyRequestResponse> {
  return t.request(token, {
    method: 'POST',
    url: '/api/sales-history',
    payload: payload as Record<string, unknown>,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
}

/** The member plays a game that must be settled (201). */
export async function playGame(t: TestApp, member: Member, spec: GameSpec): Promise<SaleDetail> {
  const response = await postGame(t, member.token, gamePayload(member.id, spec));
  expectStatus(response, 201);
  return response.json<SaleDetail>();
}

/** The money books plus the game tables. */
export type Snapshot = Books & { games: number; gameWinners: number };

export async function snapshot(t: TestApp): Promise<Snapshot> {
  const [counts] = await queryRows<{ games: number; winners: number }>(
    t.database.db,
    sql`SELECT (SELECT count(*) FROM games)::int AS games, (SELECT count(*) FROM game_winners)::int AS winners`,
  );
  if (!counts) throw new Error('count query returned no row');
  return { ...(await books(t)), games: Number(counts.games), gameWinners: Number(counts.winners) };
}

/** A call that must be refused and must change nothing: balances, ledger, keys, games, winners. */
export async function expectNoEffect(
  t: TestApp,
  call: () => Promise<LightMyRequestResponse>,
  status: number,
  body?: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const before = await snapshot(t);
  const response = await call();
  expectStatus(response, status);
  if (body) expect(response.json()).toMatchObject(body);
  expect(await snapshot(t)).toEqual(before);
  return response;
}

/** Moves a game to an exact instant. */
export async function backdate(t: TestApp, gameId: number, iso: string): Promise<void> {
  await t.database.db.execute(sql`UPDATE games SET created_at = ${iso}::timestamptz WHERE id = ${gameId}`);
}

export type GameList = { ids: number[]; total: number; totalCommission: string; items: Sale[] };

/** A list call: ids in the order answered and the totals headers. */
export async function listGames(t: TestApp, token: string, url: string): Promise<GameList> {
  const response = await t.request(token, { method: 'GET', url });
  expectStatus(response, 200);
  const items = response.json<Sale[]>();
  return {
    ids: items.map((item) => item.id),
    total: Number(response.headers['x-total-count']),
    totalCommission: String(response.headers['x-total-commission']),
    items,
  };
}

/** Sorted ids, to compare a list with an expected set. */
export function sortedIds(ids: number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}
