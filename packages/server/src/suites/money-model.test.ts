import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREEZE_MARGIN_MS } from '@lot/domain/freeze-round';
import { formatCents } from '@lot/domain/money';
import type { Role } from '@lot/domain/roles';
import type { DrawWaiting, Game } from '@lot/domain/schemas/games';
import { queryRows } from '../db/client.ts';
import { balances as balancesTable, users } from '../db/schema.ts';
import { checkLedger } from '../modules/balance/ledger.ts';
import { configureWinners, participants } from '../test/game-fixtures.ts';
import { oldClientPayload } from '../test/old-client.ts';
import { createStoppedClockApp } from '../test/stopped-clock.ts';
import { TEST_DB, type TestApp } from '../test/test-app.ts';
import { world, type World } from '../test/world.ts';

/**
 * Issue 10, suite 2: random sequences of money, account and game calls through the HTTP API,
 * checked after every step against a small in-memory model written from the rules (docs/, and
 * docs/decisions/013-the-server-runs-every-game.md for the game): the status each call must get,
 * every balance, the number of ledger rows, every game's status, entries and draws, the number of
 * sales records, `checkLedger`, and that a refused call changed nothing at all. Idempotency keys
 * are replayed and reused with another body; drawn positions are asked again (answered, nothing
 * drawn). Games are played through the game API as LOT-DRAW-2 (decision 033): opened, filled, frozen
 * by the shop's first draw request (the pool held — refused when the balance does not cover it —
 * and beacon round R named, the first after the freeze), asked while waiting for R (202, nothing
 * changes), drawn in and out of order once R exists by the shop or finished by its upline or an
 * admin, discarded before the freeze by the shop or its upline, voided after it by the upline or an
 * admin only (the pool back on the shop's balance; the shop is refused), asked by someone outside
 * the game's scope (404); settlement moves no money. Every game's R, the round's signature kept
 * with it (the test beacon's own for R: no game drew from another round) and who voided it are
 * compared with the model too.
 *
 * The app's clock stands still: a `tick` step moves it one beacon period on, so that every game
 * frozen before it finds its round.
 *
 * MODEL_RUNS × MODEL_STEPS bound the run (SOAK=1 for the long one). A failing sequence is
 * printed as JSON: add it to money-model.regressions.json and it is replayed on every run.
 * MODEL_TRACE=1 prints every step and the status it got.
 */

const SOAK = process.env.SOAK === '1';
/** Per-test time limit: the soak runs for many minutes. */
const LIMIT = SOAK ? 3_600_000 : 600_000;
const RUNS = Number(process.env.MODEL_RUNS ?? (SOAK ? 150 : 8));
const STEPS = Number(process.env.MODEL_STEPS ?? (SOAK ? 60 : 30));

const WHO = ['admin', 'S', 'A', 'U1', 'U2', 'U3', 'X'] as const;
type Who = (typeof WHO)[number];
const PLAYERS = ['U1', 'U2', 'U3', 'X'] as const;

/** S ─ A ─ U1, U2; S ─ U3; X has no parent. A fresh set per run; the admin is shared. */
const SHAPE: Record<Exclude<Who, 'admin'>, { role: Role; parent?: Who }> = {
  S: { role: 'superagent' },
  A: { role: 'agent', parent: 'S' },
  U1: { role: 'user', parent: 'A' },
  U2: { role: 'user', parent: 'A' },
  U3: { role: 'user', parent: 'S' },
  X: { role: 'user' },
};

/** An amount as a client may send it: a 2-decimal string, or a JSON number. */
type Amount = { cents: number; asNumber: boolean };

/** A game call on someone else's game: entries (only the shop), or position 1 and a void (by the rules of the draw). */
type GameCall = 'entries' | 'draw' | 'void';

export type Action =
  | { kind: 'topup'; by: Who; to: Who; amount: Amount; keyed: boolean }
  | { kind: 'transfer'; by: Who; to: Who; amount: Amount; keyed: boolean }
  | { kind: 'decrease'; by: Who; of: Who; amount: Amount; keyed: boolean; described: boolean }
  /** POST /api/balance/take-back, with a reason or without one. */
  | { kind: 'takeback'; by: Who; of: Who; amount: Amount; keyed: boolean; reasoned: boolean }
  /** POST /api/games (range 1–20). */
  | { kind: 'open'; by: Who; betCents: number }
  /** PUT entries of the caller's latest game: numbers 1…players, plus 21 (outside the range) when `outside`. */
  | { kind: 'entries'; by: Who; players: number; outside: boolean }
  /** POST draws of `of`'s latest game (the caller's own if none), at its next position + step (0: the next one). */
  | { kind: 'draw'; by: Who; of?: Who; step: number }
  /** POST void of `of`'s latest game (the caller's own if none), with a reason or a blank one. */
  | { kind: 'void'; by: Who; of?: Who; reason: boolean }
  /** A game call on the victim's latest game. */
  | { kind: 'meddle'; by: Who; victim: Who; call: GameCall }
  /** POST /api/sales-history describing the caller's latest settled game, exactly or with a number changed. */
  | { kind: 'compat'; by: Who; exact: boolean }
  | { kind: 'status'; by: Who; of: Who; status: 'active' | 'inactive' }
  | { kind: 'delete'; by: Who; of: Who }
  | { kind: 'replay' }
  | { kind: 'reuse key' }
  /** No call: the clock moves one beacon period on, and every game frozen before finds its round R. */
  | { kind: 'tick' };

// ---------------------------------------------------------------- the model

type GameStatus = 'open' | 'drawing' | 'settled' | 'voided' | 'discarded';
type ModelGame = {
  id: number;
  by: Who;
  status: GameStatus;
  entries: number;
  betCents: number;
  draws: number;
  /** Beacon round R, named at the freeze, and its time (ms). */
  round?: number;
  roundAt?: number;
  /** Who ended it (a void, or the deletion of its player). */
  endedBy?: Who;
  /** Voided once R's time had come: the void fetched R (its signature kept for the proof). */
  roundFetchedAtVoid?: boolean;
};

type Person = {
  role: Role;
  parent?: Who;
  status: 'active' | 'inactive';
  deleted: boolean;
  balance: number;
  ver: number;
  /** The id of its latest game, and of its latest settled one. */
  game?: number;
  settled?: number;
};
type Model = { people: Record<Who, Person>; games: Map<number, ModelGame>; sales: number };

/** Every game pays two prizes (the global settings below). */
const PRIZES = 2;
/** A game id nobody has: a game call of someone who never opened one. */
const NO_GAME = 2_000_000_000;
const IN_PROGRESS: readonly GameStatus[] = ['open', 'drawing'];

const live = (m: Model, w: Who) => !m.people[w].deleted;
const canAct = (m: Model, w: Who) => live(m, w) && m.people[w].status === 'active';
const gameOf = (m: Model, w: Who) => {
  const id = m.people[w].game;
  return id === undefined ? undefined : m.games.get(id);
};
const pool = (g: ModelGame) => g.entries * g.betCents;

/** Admin everyone; superagent itself, its agents and users under it or them; agent itself and its users; user itself. */
function inScope(m: Model, caller: Who, target: Who): boolean {
  if (!live(m, target)) return false;
  if (target === caller) return true;
  const parent = m.people[target].parent;
  switch (m.people[caller].role) {
    case 'admin':
      return true;
    case 'superagent':
      return (
        parent === caller ||
        (parent !== undefined && m.people[parent].role === 'agent' && m.people[parent].parent === caller)
      );
    case 'agent':
      return parent === caller;
    default:
      return false;
  }
}

/**
 * Who may act on a game: its player; the admin; the upline the game was recorded under when it
 * opened — an agent its direct users' games, a superagent those of its users and its agents' users.
 */
function readsGame(m: Model, caller: Who, game: ModelGame): boolean {
  if (caller === game.by) return true;
  const parent = m.people[game.by].parent;
  switch (m.people[caller].role) {
    case 'admin':
      return true;
    case 'superagent':
      return (
        parent === caller ||
        (parent !== undefined && m.people[parent].role === 'agent' && m.people[parent].parent === caller)
      );
    case 'agent':
      return parent === caller;
    default:
      return false;
  }
}

/** Who may receive a transfer: a user reaches other active users of role user, the others their scope. */
function reaches(m: Model, caller: Who, target: Who): boolean {
  if (m.people[caller].role !== 'user') return inScope(m, caller, target);
  const t = m.people[target];
  return live(m, target) && t.role === 'user' && t.status === 'active' && target !== caller;
}

/** The status a call must get in this state, and what it does to the state when it succeeds. */
type Expected = {
  status: number;
  apply?: (body: unknown) => void;
  /** A success that must change nothing: a drawn position asked again, the compatibility path. */
  pure?: boolean;
  /** It writes one ledger row. */
  row?: boolean;
};

/** The position a draw step sends: the next one plus the step (0 or below is a bad position). */
const positionOf = (m: Model, a: Extract<Action, { kind: 'draw' }>) =>
  (gameOf(m, a.of ?? a.by)?.draws ?? 0) + 1 + a.step;

/** The beacon's period (the test app's beacon: 3 s), which a tick moves the clock on by. */
let periodMs = 3_000;
/** The app's clock, which stands still between ticks. */
let clockNow = () => 0;

/**
 * POST draws of `of`'s latest game by `by` (LOT-DRAW-2): the shop's first request freezes the game,
 * holds the pool and names R (202); until R's time every request answers 202 and changes nothing;
 * then each draws the next position, the last one settles. The upline may not start the draw (403).
 */
function drawExpected(m: Model, by: Who, of: Who, position: number): Expected {
  if (position < 1) return { status: 400 };
  const game = gameOf(m, of);
  if (!game || !readsGame(m, by, game)) return { status: 404 };
  if (game.by !== by && game.status === 'open') return { status: 403 };
  if (position <= game.draws) return { status: 200, pure: true };
  if (game.draws >= PRIZES) return { status: 409 };
  if (!IN_PROGRESS.includes(game.status)) return { status: 409 };
  if (position !== game.draws + 1) return { status: 409 };
  const shop = m.people[game.by];
  if (game.status === 'open') {
    if (game.entries === 0) return { status: 422 };
    if (shop.balance < pool(game)) return { status: 422 };
    const frozenAt = clockNow();
    return {
      status: 202,
      row: true,
      apply: (body) => {
        const waiting = body as DrawWaiting;
        shop.balance -= pool(game);
        game.status = 'drawing';
        game.round = waiting.waitingForRound;
        game.roundAt = Date.parse(waiting.expectedAt);
        // R comes after the freeze and its margin, and no later than the round after the first
        // that does (decision 076: after L, the latest public round, and after the clock's round).
        const named = `round ${game.round} for a freeze at ${frozenAt}`;
        expect(game.roundAt, named).toBeGreaterThan(frozenAt + FREEZE_MARGIN_MS);
        expect(game.roundAt - periodMs, named).toBeLessThanOrEqual(frozenAt + FREEZE_MARGIN_MS + periodMs);
      },
    };
  }
  if (clockNow() < (game.roundAt ?? Infinity)) return { status: 202, pure: true };
  return {
    status: 200,
    apply: () => {
      game.draws += 1;
      if (game.draws === PRIZES) {
        game.status = 'settled';
        m.sales += 1;
        shop.settled = game.id;
      }
    },
  };
}

/**
 * POST void of `of`'s latest game by `by`: before the freeze the shop or its upline discards it
 * (nothing was held); after it only the upline or an admin voids it, and the pool goes back.
 */
function voidExpected(m: Model, by: Who, of: Who, reasoned: boolean): Expected {
  if (!reasoned) return { status: 400 };
  const game = gameOf(m, of);
  if (!game || !readsGame(m, by, game)) return { status: 404 };
  if (!IN_PROGRESS.includes(game.status)) return { status: 409 };
  const frozen = game.status === 'drawing';
  if (frozen && game.by === by) return { status: 403 };
  return {
    status: 200,
    apply: () => {
      if (frozen) m.people[game.by].balance += pool(game);
      if (frozen && game.roundAt !== undefined && clockNow() >= game.roundAt) game.roundFetchedAtVoid = true;
      game.status = frozen ? 'voided' : 'discarded';
      game.endedBy = by;
    },
  };
}

function expected(m: Model, a: MoneyOrAccount): Expected {
  if (!canAct(m, a.by)) return { status: 401 };
  const me = m.people[a.by];
  switch (a.kind) {
    case 'topup':
      if (me.role !== 'admin') return { status: 403 };
      if (!live(m, a.to)) return { status: 404 };
      return { status: 200, row: true, apply: () => void (m.people[a.to].balance += a.amount.cents) };
    case 'transfer': {
      const amount = a.amount.cents;
      if (a.to === a.by) return { status: 400 };
      if (!reaches(m, a.by, a.to)) return { status: 404 };
      if (m.people[a.to].status !== 'active') return { status: 422 };
      if (me.balance < amount) return { status: 422 };
      return {
        status: 200,
        row: true,
        apply: () => {
          me.balance -= amount;
          m.people[a.to].balance += amount;
        },
      };
    }
    case 'decrease':
      // An admin correction that says why (decision 013); the role is checked before the body.
      if (me.role !== 'admin') return { status: 403 };
      if (!a.described) return { status: 400 };
      if (!live(m, a.of)) return { status: 404 };
      if (m.people[a.of].balance < a.amount.cents) return { status: 422 };
      return { status: 200, row: true, apply: () => void (m.people[a.of].balance -= a.amount.cents) };
    case 'takeback': {
      // docs/product/money.md#take-back: the role first, then the body, then scope, then the balance.
      if (me.role === 'user') return { status: 403 };
      if (!a.reasoned) return { status: 400 };
      if (a.of === a.by) return { status: 400 };
      if (!inScope(m, a.by, a.of)) return { status: 404 };
      const amount = a.amount.cents;
      const from = m.people[a.of];
      if (from.balance < amount) return { status: 422 };
      return {
        status: 200,
        row: true,
        apply: () => {
          from.balance -= amount;
          me.balance += amount;
        },
      };
    }
    case 'open': {
      if (me.role !== 'user') return { status: 403 };
      const current = gameOf(m, a.by);
      if (current && IN_PROGRESS.includes(current.status)) return { status: 409 };
      return {
        status: 201,
        apply: (body) => {
          const id = (body as Game).id;
          m.games.set(id, { id, by: a.by, status: 'open', entries: 0, betCents: a.betCents, draws: 0 });
          me.game = id;
        },
      };
    }
    case 'entries': {
      if (me.role !== 'user') return { status: 403 };
      const game = gameOf(m, a.by);
      if (!game) return { status: 404 };
      if (game.status !== 'open') return { status: 409 };
      if (a.outside) return { status: 400 };
      return { status: 200, apply: () => void (game.entries = a.players) };
    }
    case 'draw':
      return drawExpected(m, a.by, a.of ?? a.by, positionOf(m, a));
    case 'void':
      return voidExpected(m, a.by, a.of ?? a.by, a.reason);
    case 'meddle':
      if (a.call === 'draw') return drawExpected(m, a.by, a.victim, 1);
      if (a.call === 'void') return voidExpected(m, a.by, a.victim, true);
      // Entries are the shop's own: someone else's game is not found; the other roles never play.
      if (me.role !== 'user') return { status: 403 };
      return { status: 404 };
    case 'compat':
      if (me.role !== 'user') return { status: 403 };
      if (me.settled === undefined || !a.exact) return { status: 422 };
      return { status: 200, pure: true };
    case 'status': {
      if (!inScope(m, a.by, a.of)) return { status: 404 };
      if (a.of === a.by) return { status: a.status === m.people[a.of].status ? 200 : 400 };
      const target = m.people[a.of];
      return {
        status: 200,
        apply: () => {
          // Deactivation ends the person's sessions.
          if (a.status === 'inactive' && target.status === 'active') target.ver += 1;
          target.status = a.status;
        },
      };
    }
    case 'delete': {
      if (me.role === 'user') return { status: 403 };
      if (!inScope(m, a.by, a.of)) return { status: 404 };
      if (a.of === a.by) return { status: 403 };
      if (m.people[a.of].balance !== 0) return { status: 409 };
      if (WHO.some((w) => m.people[w].parent === a.of && live(m, w))) return { status: 409 };
      // A pool held by a game in progress is money that still hangs off the player.
      if (gameOf(m, a.of)?.status === 'drawing') return { status: 409 };
      return {
        status: 200,
        apply: () => {
          m.people[a.of].deleted = true;
          m.people[a.of].ver += 1;
          // Nothing is held before the first draw: deleting the player discards its open game.
          const open = gameOf(m, a.of);
          if (open?.status === 'open') {
            open.status = 'discarded';
            open.endedBy = a.by;
          }
        },
      };
    }
  }
}

// ---------------------------------------------------------------- the real thing

let t: TestApp;
let adminId = 0;
let runs = 0;
let steps = 0;
const kinds: Record<string, number> = {};
/** How the games of the random runs ended (or stood at the end of their run). */
const ends: Record<string, number> = {};

type MoneyOrAccount = Exclude<Action, { kind: 'replay' | 'reuse key' | 'tick' }>;
type KeyedCall = Extract<MoneyOrAccount, { keyed: boolean }>;
type Keyed = { key: string; action: KeyedCall; stored: unknown };

/** The same call with another body: one cent more. */
function changed(action: KeyedCall): KeyedCall {
  return { ...action, amount: { ...action.amount, cents: action.amount.cents + 1 } };
}

/** A settled game's body for a caller who has none: the server finds no game it describes. */
function noSuchGame(userId: number): Game {
  return {
    userId,
    startRange: 1,
    endRange: 20,
    betAmount: '1.00',
    entries: participants([1, 2]),
    draws: [{ number: 1 }, { number: 2 }],
    prizes: [
      { position: 1, percentBps: 5000 },
      { position: 2, percentBps: 2500 },
    ],
  } as Game;
}

/** The same game with its first drawn number replaced by one that was not drawn. */
function pickedBy(game: Game): Game {
  const drawn = new Set(game.draws.map((d) => d.number));
  const other = [...Array(20).keys()].map((i) => i + 1).find((n) => !drawn.has(n)) ?? 1;
  return { ...game, draws: game.draws.map((d, i) => (i === 0 ? { ...d, number: other } : d)) };
}

/** One run: a fresh hierarchy, the actions one by one, model and server compared after each. */
async function runSequence(actions: Action[]): Promise<void> {
  runs += 1;
  const run = runs;
  const ids = { admin: adminId } as Record<Who, number>;
  // Each run's people are written straight into the database: no one signs in (tokens are
  // issued below), and an Argon2 hash per person per run would be most of the suite's time.
  for (const [who, shape] of Object.entries(SHAPE) as [Exclude<Who, 'admin'>, (typeof SHAPE)['S']][]) {
    const [row] = await t.database.db
      .insert(users)
      .values({
        username: `mm${run}_${who.toLowerCase()}`,
        passwordHash: 'not-a-password-hash',
        fullName: `Model ${who}`,
        role: shape.role,
        parentId: shape.parent ? ids[shape.parent] : null,
        parentRole: shape.parent ? SHAPE[shape.parent as Exclude<Who, 'admin'>].role : null,
      })
      .returning({ id: users.id });
    ids[who] = Number(row?.id);
    await t.database.db.insert(balancesTable).values({ userId: ids[who], amount: 0 });
  }
  const idList = sql.raw(`(${Object.values(ids).join(',')})`);
  const readBalances = async () => {
    const rows = await queryRows<{ user_id: number; amount: string }>(
      t.database.db,
      sql`SELECT user_id, amount::text AS amount FROM balances WHERE user_id IN ${idList}`,
    );
    const byId = new Map(rows.map((row) => [Number(row.user_id), Number(row.amount)]));
    return Object.fromEntries(WHO.map((w) => [w, byId.get(ids[w]) ?? -1])) as Record<Who, number>;
  };
  const ledgerRows = async () => {
    const [row] = await queryRows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM transactions`);
    return Number(row?.n);
  };
  /** This run's games as stored (status, entries, draws, their ledger row) and its sales records. */
  const readGames = async () => {
    const rows = await queryRows<{
      id: number;
      status: string;
      entries: number;
      draws: number;
      held: string | null;
      protocol: string;
      round: string | null;
      signature: string | null;
      ended_by: number | null;
    }>(
      t.database.db,
      sql`SELECT r.id, r.status, jsonb_array_length(r.entries)::int AS entries, jsonb_array_length(r.draws)::int AS draws,
            t.status || ':' || t.amount AS held, r.protocol, r.beacon_round::text AS round,
            r.beacon_signature AS signature, r.voided_by AS ended_by
          FROM game_rounds r LEFT JOIN transactions t ON t.id = r.transaction_id
          WHERE r.user_id IN ${idList} ORDER BY r.id`,
    );
    const [sales] = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM games WHERE user_id IN ${idList}`,
    );
    return {
      games: rows.map((r) => ({
        id: Number(r.id),
        status: r.status,
        entries: Number(r.entries),
        draws: Number(r.draws),
        held: r.held,
        protocol: r.protocol,
        round: r.round === null ? null : Number(r.round),
        signature: r.signature,
        endedBy: r.ended_by === null ? null : Number(r.ended_by),
      })),
      sales: Number(sales?.n),
    };
  };
  /**
   * The model's games as they must be stored: the ledger row is the held pool's, from the freeze on;
   * R from the freeze on, and from the first draw (or a void once R's time had come) on R's signature
   * as the beacon signs R.
   */
  const modelGames = (m: Model) =>
    [...m.games.values()]
      .sort((a, b) => a.id - b.id)
      .map((g) => ({
        id: g.id,
        status: g.status,
        entries: g.entries,
        draws: g.draws,
        held:
          g.status === 'open' || g.status === 'discarded'
            ? null
            : `${{ drawing: 'pending', settled: 'completed', voided: 'voided' }[g.status]}:${pool(g)}`,
        protocol: 'LOT-DRAW-2',
        round: g.round ?? null,
        signature:
          (g.draws > 0 || g.roundFetchedAtVoid) && g.round !== undefined
            ? (t.beacon?.sign(g.round).signature ?? '')
            : null,
        endedBy: g.endedBy === undefined ? null : ids[g.endedBy],
      }));

  const initial = await readBalances();
  const m: Model = {
    people: Object.fromEntries(
      WHO.map((w) => [
        w,
        {
          role: w === 'admin' ? 'admin' : SHAPE[w].role,
          parent: w === 'admin' ? undefined : SHAPE[w].parent,
          status: 'active',
          deleted: false,
          balance: initial[w],
          ver: 0,
        } satisfies Person,
      ]),
    ) as Record<Who, Person>,
    games: new Map(),
    sales: 0,
  };

  const token = async (w: Who) =>
    w === 'admin' ? t.adminToken : t.app.context.tokens.openSession({ id: ids[w], tokenVersion: m.people[w].ver });
  const amountOf = (a: Amount) => (a.asNumber ? a.cents / 100 : formatCents(a.cents));
  const gameId = (w: Who) => m.people[w].game ?? NO_GAME;
  /** The caller's latest settled game as the game API answers it (a read: it changes nothing). */
  const settledGame = async (w: Who): Promise<Game> => {
    const id = m.people[w].settled;
    if (id === undefined || !canAct(m, w)) return noSuchGame(ids[w]);
    const response = await t.request(await token(w), { method: 'GET', url: `/api/games/${id}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Game>();
  };
  const requestOf = async (a: MoneyOrAccount, key?: string): Promise<InjectOptions> => {
    const headers = key ? { 'idempotency-key': key } : {};
    switch (a.kind) {
      case 'topup':
        return {
          method: 'POST',
          url: '/api/balance/topup',
          headers,
          payload: { userId: ids[a.to], amount: amountOf(a.amount) },
        };
      case 'transfer':
        return {
          method: 'POST',
          url: '/api/balance/transfer',
          headers,
          payload: { receiverId: ids[a.to], amount: amountOf(a.amount) },
        };
      case 'decrease':
        return {
          method: 'POST',
          url: '/api/balance/decrease',
          headers,
          payload: {
            userId: ids[a.of],
            amount: amountOf(a.amount),
            ...(a.described && { description: `Model correction ${run}` }),
          },
        };
      case 'takeback':
        return {
          method: 'POST',
          url: '/api/balance/take-back',
          headers,
          payload: {
            userId: ids[a.of],
            amount: amountOf(a.amount),
            ...(a.reasoned && { reason: `Model take-back ${run}` }),
          },
        };
      case 'open':
        return {
          method: 'POST',
          url: '/api/games',
          payload: { startRange: 1, endRange: 20, betAmount: formatCents(a.betCents) },
        };
      case 'entries': {
        const numbers = [...Array(a.players).keys()].map((i) => i + 1);
        return {
          method: 'PUT',
          url: `/api/games/${gameId(a.by)}/entries`,
          payload: { entries: participants(a.outside ? [...numbers, 21] : numbers) },
        };
      }
      case 'draw':
        return {
          method: 'POST',
          url: `/api/games/${gameId(a.of ?? a.by)}/draws`,
          payload: { position: positionOf(m, a) },
        };
      case 'void':
        return {
          method: 'POST',
          url: `/api/games/${gameId(a.of ?? a.by)}/void`,
          payload: { reason: a.reason ? `Model void ${run}` : '  ' },
        };
      case 'meddle': {
        const id = gameId(a.victim);
        if (a.call === 'entries')
          return { method: 'PUT', url: `/api/games/${id}/entries`, payload: { entries: participants([1]) } };
        if (a.call === 'draw') return { method: 'POST', url: `/api/games/${id}/draws`, payload: { position: 1 } };
        return { method: 'POST', url: `/api/games/${id}/void`, payload: { reason: 'not mine' } };
      }
      case 'compat': {
        const game = await settledGame(a.by);
        return {
          method: 'POST',
          url: '/api/sales-history',
          payload: oldClientPayload(a.exact ? game : pickedBy(game)),
        };
      }
      case 'status':
        return { method: 'PUT', url: `/api/users/${ids[a.of]}`, payload: { status: a.status } };
      case 'delete':
        return { method: 'DELETE', url: `/api/users/${ids[a.of]}` };
    }
  };

  /** The last call sent with an Idempotency-Key, and its answer if the key now holds one. */
  let last: Keyed | undefined;
  /** The world after the previous step: the next step's "before". */
  let known: World | undefined;
  for (const [index, action] of actions.entries()) {
    let call: MoneyOrAccount;
    let key: string | undefined;
    /** What the server must answer from the key instead of running the call. */
    let fromKey: { status: number; body?: unknown } | undefined;
    if (action.kind === 'tick') {
      t.advanceClock(periodMs);
      kinds.tick = (kinds.tick ?? 0) + 1;
      continue;
    }
    if (action.kind === 'replay' || action.kind === 'reuse key') {
      if (!last) continue;
      key = last.key;
      call = last.action;
      if (action.kind === 'replay') {
        if (last.stored) fromKey = { status: 200, body: last.stored };
      } else {
        // The same key with another body: 422 while the key holds an answer, else a fresh call.
        call = changed(last.action);
        if (last.stored) fromKey = { status: 422 };
      }
    } else {
      // Someone's own game is not someone else's: that case is the plain call.
      if (action.kind === 'meddle' && action.victim === action.by) continue;
      call = action;
      key = 'keyed' in action && action.keyed ? `run-${run}-step-${index}` : undefined;
    }
    steps += 1;
    const where = `run ${run} step ${index} ${JSON.stringify(action)}`;
    // The session is checked before the key: without one, nothing is answered from it.
    const want: Expected = !canAct(m, call.by) ? { status: 401 } : (fromKey ?? expected(m, call));
    const request = await requestOf(call, key);
    const before = known ?? (await world(t));
    const rowsBefore = await ledgerRows();
    const response = await t.request(await token(call.by), request);
    expect(response.statusCode, `${where}: ${response.body}`).toBe(want.status);
    if (process.env.MODEL_TRACE) console.log(`${where}: ${response.statusCode}`);
    const outcome = `${action.kind} ${response.statusCode}`;
    kinds[outcome] = (kinds[outcome] ?? 0) + 1;
    const ok = response.statusCode < 300;
    const replayed = ok && fromKey !== undefined;
    if (replayed) {
      // A replay answers the first response and changes nothing.
      expect(response.headers['idempotent-replayed'], where).toBe('true');
      expect(response.json(), where).toEqual(fromKey?.body);
    } else {
      want.apply?.(ok ? response.json() : undefined);
    }
    // A drawn position asked again is marked a replay; a draw that waits is not.
    if (response.statusCode === 200 && want.pure && (call.kind === 'draw' || call.kind === 'meddle'))
      expect(response.headers['idempotent-replayed'], where).toBe('true');
    const moved = ok && !replayed && want.row === true;
    expect(await ledgerRows(), `${where}: ledger rows`).toBe(rowsBefore + (moved ? 1 : 0));
    known = await world(t);
    if (!ok || replayed || want.pure)
      expect(known, `${where}: refused, replayed or pure, yet something changed`).toEqual(before);
    const balances = await readBalances();
    for (const w of WHO) expect(balances[w], `${where}: balance of ${w}`).toBe(m.people[w].balance);
    const stored = await readGames();
    expect(stored, `${where}: games`).toEqual({ games: modelGames(m), sales: m.sales });
    const report = await checkLedger(t.database.db);
    expect(report.ok, `${where}: ${JSON.stringify(report)}`).toBe(true);
    if (key !== undefined && moved && 'keyed' in call) last = { key, action: call, stored: response.json() };
    else if (key !== undefined && 'keyed' in call && action.kind !== 'replay' && action.kind !== 'reuse key')
      last = { key, action: call, stored: null };
  }
  for (const game of m.games.values()) ends[game.status] = (ends[game.status] ?? 0) + 1;
}

// ---------------------------------------------------------------- the generator

const who = fc.constantFrom(...WHO);
/** Game calls come mostly from one player (so that games get far), else from the others or anyone. */
const player = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Who>('U1') },
  { weight: 3, arbitrary: fc.constantFrom<Who>('U2', 'U3', 'X') },
  { weight: 1, arbitrary: who },
);
const amount: fc.Arbitrary<Amount> = fc.record({
  cents: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 5_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 5_001, max: 500_000 }) },
  ),
  asNumber: fc.boolean(),
});
const keyed = fc.boolean();
/** Whose game a draw or a void is on: mostly the caller's own, else a player's (often the caller's downline's). */
const whose = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom<Who>(...PLAYERS) },
);
/** Who finishes or voids someone's frozen game: mostly its upline or an admin, sometimes anyone. */
const upline = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Who>('admin', 'S', 'A') },
  { weight: 1, arbitrary: who },
);
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('topup'),
      by: fc.oneof(fc.constant('admin'), who),
      to: fc.oneof(player, who),
      amount,
      keyed,
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('transfer'), by: who, to: who, amount, keyed }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('decrease'),
      by: fc.oneof(fc.constant('admin'), who),
      of: who,
      amount,
      keyed,
      described: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('takeback'),
      // Mostly from the roles that may, so that take-backs succeed as well as get refused.
      by: fc.oneof({ weight: 4, arbitrary: fc.constantFrom<Who>('admin', 'S', 'A') }, { weight: 1, arbitrary: who }),
      of: fc.oneof(player, who),
      // Small amounts, so that most are covered by the balance they are taken from.
      amount: fc.record({ cents: fc.integer({ min: 1, max: 1_500 }), asNumber: fc.boolean() }),
      keyed,
      reasoned: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('open'), by: player, betCents: fc.integer({ min: 100, max: 2_000 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('entries'),
      by: player,
      players: fc.integer({ min: 0, max: 6 }),
      outside: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('draw'),
      by: fc.oneof({ weight: 3, arbitrary: player }, { weight: 1, arbitrary: upline }),
      of: whose,
      step: fc.oneof(
        { weight: 6, arbitrary: fc.constant(0) },
        { weight: 3, arbitrary: fc.integer({ min: -2, max: 1 }) },
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('void'),
      by: fc.oneof({ weight: 1, arbitrary: player }, { weight: 1, arbitrary: upline }),
      of: whose,
      reason: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: 'tick' }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('meddle'),
      by: player,
      victim: fc.constantFrom(...PLAYERS),
      call: fc.constantFrom<GameCall>('entries', 'draw', 'void'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compat'), by: player, exact: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('status'),
      by: who,
      of: who,
      status: fc.constantFrom('active', 'inactive'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete'), by: who, of: who }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'replay' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reuse key' }) },
) as fc.Arbitrary<Action>;

/**
 * A game played in a row, as a shop would: a top-up, open, entries, the first draw (the freeze),
 * sometimes a draw asked or a void while it waits for R, the clock on past R, a few draws (mostly
 * the next position, sometimes one drawn already or one too far) by the shop or by whoever
 * finishes it — its upline, an admin, or someone outside its scope — and sometimes a void at the
 * end, by that someone or by the shop.
 */
const gameArb: fc.Arbitrary<Action[]> = fc
  .record({
    by: player,
    betCents: fc.integer({ min: 100, max: 2_000 }),
    players: fc.integer({ min: 1, max: 6 }),
    /** Who draws once frozen: the shop itself (undefined) or someone else. */
    finisher: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: upline }),
    waiting: fc.constantFrom('nothing', 'nothing', 'draw', 'void'),
    steps: fc.array(
      fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.constantFrom(-1, 1) }),
      { maxLength: 3 },
    ),
    ending: fc.constantFrom('none', 'none', 'none', 'void', 'void by the shop'),
    /** Most shops are topped up first, by one to three pools; the others may not afford it. */
    funds: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 2_000, max: 15_000 }) },
      { weight: 1, arbitrary: fc.constant(0) },
    ),
  })
  .map(({ by, betCents, players, finisher, waiting, steps, ending, funds }): Action[] => {
    const other = finisher ?? 'S';
    return [
      ...(funds > 0
        ? [
            {
              kind: 'topup',
              by: 'admin',
              to: by,
              amount: { cents: funds * players * betCents, asNumber: false },
              keyed: false,
            } as const,
          ]
        : []),
      { kind: 'open', by, betCents },
      { kind: 'entries', by, players, outside: false },
      { kind: 'draw', by, step: 0 },
      ...(waiting === 'draw' ? [{ kind: 'draw', by: finisher ?? by, of: by, step: 0 } as const] : []),
      ...(waiting === 'void' ? [{ kind: 'void', by: other, of: by, reason: true } as const] : []),
      { kind: 'tick' },
      ...steps.map((step): Action => ({ kind: 'draw', by: finisher ?? by, of: by, step })),
      ...(ending === 'void' ? [{ kind: 'void', by: other, of: by, reason: true } as const] : []),
      ...(ending === 'void by the shop' ? [{ kind: 'void', by, reason: true } as const] : []),
    ];
  });

/** Single calls and whole games interleaved, at most STEPS calls. */
const sequenceArb: fc.Arbitrary<Action[]> = fc
  .array(fc.oneof({ weight: 6, arbitrary: actionArb.map((a) => [a]) }, { weight: 1, arbitrary: gameArb }), {
    minLength: Math.ceil(STEPS / 3),
    maxLength: STEPS,
    size: 'max',
  })
  .map((chunks) => chunks.flat().slice(0, STEPS));

type Regression = { note: string; actions: Action[] };
const regressions = JSON.parse(
  readFileSync(new URL('./money-model.regressions.json', import.meta.url), 'utf8'),
) as Regression[];

beforeAll(async () => {
  t = await createStoppedClockApp();
  periodMs = (t.beacon?.chain.period ?? 3) * 1000;
  clockNow = t.now;
  const [admin] = await queryRows<{ id: number }>(t.database.db, sql`SELECT id FROM users WHERE username = 'admin'`);
  adminId = Number(admin?.id);
  // Global winner settings: every player's game pays 50 % and 25 % of the pool.
  await configureWinners(t, null, [
    { percent: '50.00', position: 1 },
    { percent: '25.00', position: 2 },
  ]);
});
afterAll(() => t?.close());

describe(`money model (${TEST_DB})`, () => {
  it.each(regressions.map((r) => [r.note, r] as const))('regression: %s', async (_note, regression) => {
    await runSequence(regression.actions);
  });

  it(
    `${RUNS} random runs of up to ${STEPS} steps agree with the model after every step`,
    async () => {
      const before = { runs, steps };
      await fc.assert(
        fc.asyncProperty(sequenceArb, (actions) => runSequence(actions)),
        {
          numRuns: RUNS,
          ...(process.env.MODEL_SEED && { seed: Number(process.env.MODEL_SEED) }),
          reporter: (details) => {
            if (!details.failed) return;
            console.log(
              `money model failed (seed ${details.seed}). Add to money-model.regressions.json:\n` +
                JSON.stringify({ note: `seed ${details.seed}`, actions: details.counterexample?.[0] }),
            );
            throw new Error(fc.defaultReportMessage(details));
          },
        },
      );
      console.log(
        `money model (${TEST_DB}): ${runs - before.runs} runs, ${steps - before.steps} steps, every step checked; ` +
          `games (with the regressions) ${JSON.stringify(ends)}; calls ${JSON.stringify(kinds)}`,
      );
    },
    LIMIT,
  );
});
