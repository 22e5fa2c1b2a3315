import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { toHex } from '@lot/domain/draw';
import { formatCents } from '@lot/domain/money';
import type { DrawResult, DrawWaiting, Game, GameProof } from '@lot/domain/schemas/games';
import type { Sale, SaleDetail } from '@lot/domain/schemas/sales-history';
import { queryRows } from '../db/client.ts';
import type { Member } from './hierarchy.ts';
import { books, cents, expectStatus, type Books } from './money-fixtures.ts';
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

/** Participants with a name and phone derived from their number (7 digits: 7 → '555-0007'). */
export function participants(numbers: number[]): Participant[] {
  return numbers.map((number) => ({
    number,
    name: `Player ${number}`,
    phoneNumber: `555-${String(number).padStart(4, '0')}`,
  }));
}

export type GameSpec = {
  /** The selected numbers, or the participants in full. */
  numbers: number[] | Participant[];
  bet?: string;
  start?: number;
  end?: number;
};

function entriesOf(spec: GameSpec): Participant[] {
  return typeof spec.numbers[0] === 'number' ? participants(spec.numbers as number[]) : (spec.numbers as Participant[]);
}

/** POST /api/games as the holder of `token`. */
export function openGameCall(t: TestApp, token: string, body: Record<string, unknown>) {
  return t.request(token, { method: 'POST', url: '/api/games', payload: body });
}

export function putEntries(t: TestApp, token: string, gameId: number, entries: unknown) {
  return t.request(token, { method: 'PUT', url: `/api/games/${gameId}/entries`, payload: { entries } });
}

export function drawCall(t: TestApp, token: string, gameId: number, position: unknown) {
  return t.request(token, { method: 'POST', url: `/api/games/${gameId}/draws`, payload: { position } });
}

/**
 * POST /api/games/{id}/void. `afterWinner` is sent true unless told otherwise: the tests void
 * knowingly, after a winning draw or not (accepted either way); decision 094's refusal without it is
 * tested with `false` (games/void-after-winner.test.ts).
 */
export function voidCall(t: TestApp, token: string, gameId: number, reason: unknown, afterWinner: unknown = true) {
  const payload = afterWinner === false ? { reason } : { reason, afterWinner };
  return t.request(token, { method: 'POST', url: `/api/games/${gameId}/void`, payload });
}

/** Opens a game with its participants (both calls must succeed). */
export async function openGame(t: TestApp, member: Member, spec: GameSpec): Promise<Game> {
  const opened = await openGameCall(t, member.token, {
    startRange: spec.start ?? 1,
    endRange: spec.end ?? 20,
    betAmount: spec.bet ?? '10.00',
  });
  expectStatus(opened, 201);
  const entered = await putEntries(t, member.token, opened.json<Game>().id, entriesOf(spec));
  expectStatus(entered, 200);
  return entered.json<Game>();
}

/** Moves the test clock just past the time a 202 said its round is expected (never back). */
export function passRound(t: TestApp, waiting: Pick<DrawWaiting, 'expectedAt'>): void {
  t.advanceClock(Date.parse(waiting.expectedAt) - t.now() + 1);
}

/**
 * Draws a position as the holder of `token`; a LOT-DRAW-2 game that answers it waits for its beacon
 * round (202) has the test clock moved to that round's time, and is asked again.
 */
export async function drawPosition(t: TestApp, token: string, gameId: number, position: number) {
  for (let asked = 0; ; asked++) {
    const response = await drawCall(t, token, gameId, position);
    if (response.statusCode !== 202 || asked >= 5) return response;
    passRound(t, response.json<DrawWaiting>());
  }
}

/** The first draw request of a LOT-DRAW-2 game: it must freeze the game and answer 202. */
export async function freeze(t: TestApp, token: string, gameId: number): Promise<DrawWaiting> {
  const response = await drawCall(t, token, gameId, 1);
  expectStatus(response, 202);
  return response.json<DrawWaiting>();
}

/** Draws every remaining position of an open game (each must succeed) and answers the settled game. */
export async function drawAll(t: TestApp, member: Member, game: Game): Promise<Game> {
  let current = game;
  for (let position = game.draws.length + 1; position <= game.prizes.length; position++) {
    const drawn = await drawPosition(t, member.token, game.id, position);
    expectStatus(drawn, 200);
    current = drawn.json<DrawResult>().game;
  }
  return current;
}

/** The member plays a whole game on the server; answers its sales-history record. */
export async function playGame(t: TestApp, member: Member, spec: GameSpec): Promise<SaleDetail> {
  const settled = await drawAll(t, member, await openGame(t, member, spec));
  expect(settled.status).toBe('settled');
  const response = await t.request(member.token, { method: 'GET', url: `/api/sales-history/${settled.saleId}` });
  expectStatus(response, 200);
  return response.json<SaleDetail>();
}

/**
 * The original client's POST /api/sales-history body describing a settled game, computed here from the
 * game's own draws independently of the server: pool = entries × bet; the k-th drawn number wins
 * floor(pool × percent_k / 100) when someone chose it.
 */
export function salePayload(game: Game) {
  const pool = game.entries.length * cents(game.betAmount);
  const drawn = game.draws.map((d) => d.number);
  // The original client knows its participants as typed: no entry nonces (LOT-DRAW-2's).
  const entries = game.entries.map((e) => ({ number: e.number, name: e.name, phoneNumber: e.phoneNumber }));
  const winners = drawn.flatMap((number, index) => {
    const person = entries.find((p) => p.number === number);
    const prize = game.prizes[index];
    if (!person || !prize) return [];
    const amount = Number((BigInt(pool) * BigInt(prize.percentBps)) / 10_000n);
    return [{ ...person, position: prize.position, prizeAmount: formatCents(amount) }];
  });
  const totalPrize = winners.reduce((sum, w) => sum + cents(w.prizeAmount), 0);
  return {
    userId: game.userId,
    startRange: game.startRange,
    endRange: game.endRange,
    betAmount: game.betAmount,
    totalPrize: formatCents(totalPrize),
    commission: formatCents(pool - totalPrize),
    selectedNumbersCount: game.entries.length,
    winningNumbersCount: winners.length,
    gameData: {
      selectedNumbers: entries,
      winningNumbers: drawn,
      drawCount: drawn.length,
      totalPrizePool: formatCents(pool),
      startRange: game.startRange,
      endRange: game.endRange,
      betAmount: game.betAmount,
    },
    winners,
  };
}

/** POST /api/sales-history as the member, with an optional Idempotency-Key. */
export function postGame(t: TestApp, token: string, payload: unknown, key?: string): Promise<LightMyRequestResponse> {
  return t.request(token, {
    method: 'POST',
    url: '/api/sales-history',
    payload: payload as Record<string, unknown>,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
}

/**
 * The money books plus the game tables: every game row in full (status, entries, draws, freeze,
 * beacon round and signature, void), every ledger row's status, and the audit trail's length.
 */
export type Snapshot = Books & { games: number; gameWinners: number; rounds: string; ledger: string; audit: number };

export async function snapshot(t: TestApp): Promise<Snapshot> {
  const [counts] = await queryRows<{
    games: number;
    winners: number;
    rounds: string | null;
    ledger: string | null;
    audit: number;
  }>(
    t.database.db,
    sql`SELECT (SELECT count(*) FROM games)::int AS games, (SELECT count(*) FROM game_winners)::int AS winners,
      (SELECT string_agg(row_to_json(r)::text, '|' ORDER BY id) FROM game_rounds r) AS rounds,
      (SELECT string_agg(id || ':' || status || ':' || amount || ':' || description, '|' ORDER BY id)
         FROM transactions) AS ledger,
      (SELECT count(*) FROM audit_log)::int AS audit`,
  );
  if (!counts) throw new Error('count query returned no row');
  return {
    ...(await books(t)),
    games: Number(counts.games),
    gameWinners: Number(counts.winners),
    rounds: counts.rounds ?? '',
    ledger: counts.ledger ?? '',
    audit: Number(counts.audit),
  };
}

/**
 * A call that must be refused (or answer that it waits) and must change nothing: balances, ledger,
 * keys, games in full, winners, the audit trail.
 */
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

/** GET /api/verify/{code}, which must answer: the public proof. */
export async function proofOf(t: TestApp, code: string): Promise<GameProof> {
  const response = await t.request(null, { method: 'GET', url: `/api/verify/${code}` });
  expectStatus(response, 200);
  return response.json<GameProof>();
}

/** The seed of a game in progress, as only the server can read it (sealed with SEED_KEY). */
export async function seedOf(t: TestApp, game: Pick<Game, 'id' | 'code'>): Promise<string> {
  const [row] = await queryRows<{ seed: Uint8Array }>(
    t.database.db,
    sql`SELECT seed FROM game_rounds WHERE id = ${game.id}`,
  );
  if (!row) throw new Error(`no game ${game.id}`);
  return toHex(t.app.context.seeds.open(game.code, row.seed));
}

export type GameAuditRow = { action: string; actor_id: number; details: Record<string, unknown>; at: string };

/** A game's audit rows in order; `at` as text, to compare with other columns written by the same statement. */
export const gameAuditOf = (t: TestApp, gameId: number) =>
  queryRows<GameAuditRow>(
    t.database.db,
    sql`SELECT action, actor_id, details, at::text AS at FROM audit_log
      WHERE target_kind = 'game' AND target_id = ${gameId} ORDER BY id`,
  );

/** The entry code printed on the slip of a prize's winner (what a payout must carry, decision 086). */
export async function entryCodeOf(t: TestApp, winnerId: number): Promise<string | undefined> {
  const [row] = await queryRows<{ entry_code: string | null }>(
    t.database.db,
    sql`SELECT entry_code FROM prize_claims WHERE winner_id = ${winnerId}`,
  );
  return row?.entry_code ?? undefined;
}
