import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  commitmentOf,
  drawAt,
  DRAW_ALGORITHM,
  entriesDigest,
  entryHash,
  SEED_BYTES,
  toHex,
  useDrawCrypto,
} from '@lot/domain/draw';
import { AppError } from '@lot/domain/errors';
import { formatBps, parsePercentToBps, prizeFor, settleGame, type Participant } from '@lot/domain/game';
import { maskName, maskPhone } from '@lot/domain/mask';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents } from '@lot/domain/money';
import type {
  DrawResult,
  Game,
  GameEntriesInput,
  GameProof,
  GameStatus,
  GameSummary,
  GamesQuery,
  OpenGameInput,
} from '@lot/domain/schemas/games';
import { queryPrepared, type Db, type Tx } from '../../db/client.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { gameRounds, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { byCaller, recordAudit } from '../../lib/audit.ts';
import { readableByRecord } from '../users/users.access.ts';
import { findLiveUserById } from '../users/users.repository.ts';
import { effectiveWinners } from '../winners/winners.repository.ts';
import { nodeDrawCrypto } from './draw-crypto.ts';
import { gameChanged } from './game-events.ts';
import {
  drawsOf,
  drawStatement,
  entriesOf,
  prizesOf,
  voidStatement,
  type DrawWrite,
  type Prize,
  type Round,
  type StoredDraw,
} from './games.repository.ts';

/**
 * The server-run BOCH BOCH game (decision 013). Every step that changes a game locks its row
 * first (then, for the pool, the player's balance row: always in that order, so no deadlock), so
 * concurrent requests for one game run one after another and a position is drawn exactly once.
 * Draws and voids are one statement each, written only if the game still stands as the step read
 * it (decision 030).
 */

// Games draw with Node's crypto: Web Crypto's bytes at a fraction of the cost (draw-crypto.test.ts).
useDrawCrypto(nodeDrawCrypto);

const player = alias(users, 'player');
const voider = alias(users, 'voider');
const parent = alias(users, 'parent');

export const GAME_IN_PROGRESS = 'You already have a game in progress';
const ENDED: readonly GameStatus[] = ['settled', 'voided', 'discarded'];

const poolOf = (round: Round) => entriesOf(round).length * round.betAmount;
const seedHex = (round: Round) => toHex(round.seed);

function selectRounds(db: Db | Tx) {
  return db
    .select({
      round: gameRounds,
      player: { id: player.id, username: player.username, fullName: player.fullName, shopName: player.shopName },
      voider: { id: voider.id, username: voider.username, fullName: voider.fullName },
      parentFullName: parent.fullName,
    })
    .from(gameRounds)
    .innerJoin(player, eq(player.id, gameRounds.userId))
    .leftJoin(voider, eq(voider.id, gameRounds.voidedBy))
    .leftJoin(parent, eq(parent.id, gameRounds.parentId));
}

type RoundRow = Awaited<ReturnType<ReturnType<typeof selectRounds>['execute']>>[number];

/** The winner of the k-th draw (k from 1) and what it pays. */
function drawOutcome(round: Round, index: number, number: number) {
  const entry = entriesOf(round).find((e) => e.number === number) ?? null;
  const prize = prizesOf(round)[index];
  return { winner: entry, prizeAmount: entry && prize ? prizeFor(poolOf(round), prize.percentBps) : 0 };
}

function toGame({ round, player: user, voider: by }: RoundRow): Game {
  const pool = poolOf(round);
  const settled = round.status === 'settled';
  const outcomes = drawsOf(round).map((draw, index) => ({ draw, ...drawOutcome(round, index, draw.number) }));
  const draws = outcomes.map(({ draw, winner, prizeAmount }, index) => ({
    position: index + 1,
    number: draw.number,
    drawnAt: draw.drawnAt,
    winner,
    prizeAmount: formatCents(prizeAmount),
  }));
  const totalPrize = outcomes.reduce((sum, o) => sum + o.prizeAmount, 0);
  return {
    id: round.id,
    code: round.code,
    status: round.status,
    userId: round.userId,
    user,
    startRange: round.startRange,
    endRange: round.endRange,
    betAmount: formatCents(round.betAmount),
    pool: formatCents(pool),
    prizes: prizesOf(round).map((p) => ({
      position: p.position,
      name: p.name,
      percentBps: p.percentBps,
      percent: formatBps(p.percentBps),
      prizeAmount: formatCents(prizeFor(pool, p.percentBps)),
    })),
    commitment: round.commitment,
    entries: entriesOf(round),
    draws,
    totalPrize: settled ? formatCents(totalPrize) : null,
    commission: settled ? formatCents(pool - totalPrize) : null,
    saleId: round.saleId,
    transactionId: round.transactionId,
    openedAt: round.createdAt.toISOString(),
    endedAt: round.endedAt?.toISOString() ?? null,
    voidReason: round.voidReason,
    voidedBy: by?.id ? by : null,
    serverSeed: ENDED.includes(round.status) ? seedHex(round) : null,
  };
}

/** Who may read a game: the hierarchy recorded with it (admin all), as for sales. */
const readableBy = (caller: Caller) => readableByRecord(caller, gameRounds);

async function readGame(db: Db | Tx, where: SQL | undefined): Promise<Game> {
  const [row] = await selectRounds(db).where(where);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return toGame(row);
}

export function getGame(db: Db, caller: Caller, id: number): Promise<Game> {
  return readGame(db, and(eq(gameRounds.id, id), readableBy(caller)));
}

/** The caller's game in progress (open or drawing), so any device carries on with it. */
export function currentGame(db: Db, caller: Caller): Promise<Game> {
  return readGame(db, and(eq(gameRounds.userId, caller.id), sql`${gameRounds.status} IN ('open', 'drawing')`));
}

/**
 * Opens a game: the range and bet, the player's effective active winner settings sorted by
 * position (copied, so later changes never touch it), a secret 32-byte seed and its commitment.
 */
export async function openGame(db: Db, caller: Caller, input: OpenGameInput): Promise<Game> {
  const { winners } = await effectiveWinners(db, caller.id);
  if (winners.length === 0) throw new AppError('UNPROCESSABLE', MESSAGES.noWinnerSettings);
  const prizes: Prize[] = winners.map((w) => ({
    position: w.position,
    percentBps: parsePercentToBps(w.percent) ?? 0,
    name: w.name,
  }));
  const totalBps = prizes.reduce((sum, p) => sum + p.percentBps, 0);
  if (totalBps > 10_000) {
    throw new AppError(
      'UNPROCESSABLE',
      `The active winner settings add up to more than 100% (${formatBps(totalBps)}%)`,
    );
  }
  const size = input.endRange - input.startRange + 1;
  if (size < prizes.length) {
    throw AppError.field(
      'endRange',
      `The range needs at least ${prizes.length} numbers to draw ${prizes.length} prizes`,
    );
  }
  const me = await findLiveUserById(db, caller.id);
  const myParent = me?.parentId ? await findLiveUserById(db, me.parentId) : undefined;
  const superagentId =
    myParent?.role === 'superagent' ? myParent.id : myParent?.role === 'agent' ? myParent.parentId : null;
  const seed = randomBytes(SEED_BYTES);
  const commitment = await commitmentOf(toHex(seed));
  if (!commitment) throw new Error('seed of the wrong length');
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(gameRounds)
        .values({
          code: randomBytes(16).toString('base64url'),
          userId: caller.id,
          parentId: me?.parentId ?? null,
          superagentId,
          startRange: input.startRange,
          endRange: input.endRange,
          betAmount: input.betAmount,
          prizes,
          seed,
          commitment,
        })
        .returning({ id: gameRounds.id, code: gameRounds.code });
      if (!row) throw new Error('game insert returned no row');
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'game.opened',
        targetKind: 'game',
        targetId: row.id,
        targetUserId: caller.id,
        details: {
          code: row.code,
          startRange: input.startRange,
          endRange: input.endRange,
          betAmount: formatCents(input.betAmount),
        },
      });
      return row.id;
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('CONFLICT', GAME_IN_PROGRESS);
    throw error;
  }
  return readGame(db, eq(gameRounds.id, id));
}

/** Locks the caller's own game for the rest of the transaction (someone else's is a 404). */
async function lockOwnRound(tx: Tx, caller: Caller, id: number): Promise<Round> {
  const [round] = await tx
    .select()
    .from(gameRounds)
    .where(and(eq(gameRounds.id, id), eq(gameRounds.userId, caller.id)))
    .for('update');
  if (!round) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return round;
}

function ended(round: Round): AppError {
  return new AppError('CONFLICT', `This game has ended (${round.status})`);
}

/** Replaces the participants while nothing is drawn. */
export async function replaceEntries(db: Db, caller: Caller, id: number, input: GameEntriesInput): Promise<Game> {
  const game = await db.transaction(async (tx) => {
    const round = await lockOwnRound(tx, caller, id);
    if (round.status === 'drawing') {
      throw new AppError('CONFLICT', 'The draw has started: the participants can no longer change');
    }
    if (round.status !== 'open') throw ended(round);
    const outside = input.entries.find((e) => e.number < round.startRange || e.number > round.endRange);
    if (outside) {
      throw AppError.field(
        'entries',
        `Number ${outside.number} is outside the range ${round.startRange} to ${round.endRange}`,
      );
    }
    await tx.update(gameRounds).set({ entries: input.entries }).where(eq(gameRounds.id, id));
    return readGame(tx, eq(gameRounds.id, id));
  });
  gameChanged(db, game.code);
  return game;
}

async function digestOf(round: Round): Promise<string> {
  const entries = await Promise.all(
    entriesOf(round).map(async (e) => ({ number: e.number, entryHash: await entryHash(e) })),
  );
  return entriesDigest({
    code: round.code,
    startRange: round.startRange,
    endRange: round.endRange,
    betCents: round.betAmount,
    prizes: prizesOf(round),
    entries,
  });
}

function drawResult(game: Game, position: number): DrawResult {
  const draw = game.draws[position - 1];
  if (!draw) throw new Error(`draw ${position} missing`);
  return { position, number: draw.number, winner: draw.winner, prizeAmount: draw.prizeAmount, game };
}

/** The caller's own game as it stands, read without a lock (someone else's is a 404). */
async function readOwnRound(db: Db, caller: Caller, id: number): Promise<Round> {
  const [round] = await db
    .select()
    .from(gameRounds)
    .where(and(eq(gameRounds.id, id), eq(gameRounds.userId, caller.id)));
  if (!round) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return round;
}

/** A step that found its game moved since it read it reads it again, this many times at most. */
const STEP_ATTEMPTS = 5;

function stillMoving(): AppError {
  return new AppError('CONFLICT', 'The game is changing on another device: try again');
}

/**
 * Draws the next position with LOT-DRAW-1. The first draw fixes the entries (their digest) and
 * holds the pool: it leaves the balance as a pending ledger row, or nothing is drawn. The last
 * draw settles the game in the same statement — the sales-history record, its winners, the
 * ledger row completed — so a game whose winners were announced is always recorded. A position
 * already drawn answers its draw again (a retried or doubled request never draws twice). The draw
 * is decided from the round as read and written in one statement that applies only if the round
 * still stands so (decision 030); one that moved meanwhile is read again.
 */
export async function drawNext(
  db: Db,
  caller: Caller,
  id: number,
  position: number,
): Promise<{ result: DrawResult; replayed: boolean }> {
  for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
    const round = await readOwnRound(db, caller, id);
    const draws = drawsOf(round);
    if (position <= draws.length) {
      return { result: drawResult(await readGame(db, eq(gameRounds.id, id)), position), replayed: true };
    }
    const prizes = prizesOf(round);
    if (draws.length >= prizes.length) throw new AppError('CONFLICT', MESSAGES.allWinnersDrawn);
    if (round.status !== 'open' && round.status !== 'drawing') throw ended(round);
    if (position !== draws.length + 1) {
      throw new AppError('CONFLICT', `Draw the positions in order: the next one is ${draws.length + 1}`);
    }
    const entries = entriesOf(round);
    if (round.status === 'open' && entries.length === 0) {
      throw new AppError('UNPROCESSABLE', MESSAGES.noNumbersSelected);
    }
    const digest = round.status === 'open' ? await digestOf(round) : round.entriesDigest;
    if (!digest) throw new Error('a drawing game has no entries digest');
    const drawn = draws.map((d) => d.number);
    const { number } = await drawAt(seedHex(round), digest, position, round, drawn);
    const nextDraws: StoredDraw[] = [...draws, { number, drawnAt: new Date().toISOString() }];
    const last = nextDraws.length === prizes.length;
    const [row] = await queryPrepared<{ locked: boolean; drawn: boolean }>(
      db,
      drawStatement({
        read: { id, status: round.status, drawn: draws.length, entries: round.entries },
        userId: round.userId,
        actorId: caller.id,
        pool: poolOf(round),
        transactionId: round.transactionId,
        draws: nextDraws,
        digest,
        holdDescription: `Game in progress with ${entries.length} numbers`,
        settlement: last ? settlementOf(round, [...drawn, number]) : undefined,
        audit: { address: caller.address ?? null, code: round.code },
      }),
    );
    if (!row?.locked) continue;
    if (!row.drawn) {
      throw new AppError('UNPROCESSABLE', MESSAGES.insufficientBalance, {
        fieldErrors: { betAmount: MESSAGES.insufficientBalance },
      });
    }
    const game = await readGame(db, eq(gameRounds.id, id));
    gameChanged(db, game.code);
    return { result: drawResult(game, position), replayed: false };
  }
  throw stillMoving();
}

/** The last draw's settlement: the sales-history record and its winners; the held row completed. */
function settlementOf(round: Round, drawn: number[]): NonNullable<DrawWrite['settlement']> {
  const entries = entriesOf(round);
  const settlement = settleGame({ selected: entries, drawn, settings: prizesOf(round), betCents: round.betAmount });
  return {
    description: `Game played with ${entries.length} numbers, ${settlement.winners.length} winners`,
    sale: {
      parentId: round.parentId,
      superagentId: round.superagentId,
      startRange: round.startRange,
      endRange: round.endRange,
      betAmount: round.betAmount,
      totalPrize: settlement.totalPrize,
      commission: settlement.commission,
      selectedCount: entries.length,
      gameData: { selectedNumbers: entries, winningNumbers: drawn, drawCount: drawn.length },
      numbers: drawn,
    },
    winners: settlement.winners,
  };
}

/**
 * Ends a game that is not settled. Before the first draw nothing was held or revealed: the game is
 * discarded. After it the game is voided: the held pool goes back to the balance (the ledger row
 * ends as `voided`) and the game — entries, draws so far, who voided it, when and why — stays on
 * record for the upline to see. One statement, as a draw (decision 030).
 */
export async function voidGame(db: Db, caller: Caller, id: number, reason: string): Promise<Game> {
  for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
    const round = await readOwnRound(db, caller, id);
    if (round.status !== 'open' && round.status !== 'drawing') throw ended(round);
    if (round.status === 'drawing' && round.transactionId === null) throw new Error('a drawing game has no held pool');
    const [row] = await queryPrepared<{ done: boolean }>(
      db,
      voidStatement({
        read: { id, status: round.status },
        userId: round.userId,
        actorId: caller.id,
        pool: poolOf(round),
        transactionId: round.transactionId,
        reason,
        audit: {
          address: caller.address ?? null,
          details: {
            code: round.code,
            reason,
            status: round.status === 'drawing' ? 'voided' : 'discarded',
            ...(round.status === 'drawing' && { returned: formatCents(poolOf(round)) }),
          },
        },
      }),
    );
    if (!row?.done) continue;
    const game = await readGame(db, eq(gameRounds.id, id));
    gameChanged(db, game.code);
    return game;
  }
  throw stillMoving();
}

/** Games in the caller's scope by status (the voided list of the history screens), newest first. */
export async function listGames(
  db: Db,
  caller: Caller,
  query: GamesQuery,
): Promise<{ items: GameSummary[]; total: number }> {
  const where = and(
    readableBy(caller),
    query.status ? eq(gameRounds.status, query.status) : sql`${gameRounds.status} <> 'discarded'`,
    query.from ? gte(gameRounds.createdAt, new Date(query.from)) : undefined,
    query.to ? lt(gameRounds.createdAt, new Date(Date.parse(query.to) + 1)) : undefined,
  );
  const [totalRow] = await db.select({ total: count() }).from(gameRounds).where(where);
  const rows = await selectRounds(db)
    .where(where)
    .orderBy(desc(gameRounds.createdAt), desc(gameRounds.id))
    .limit(query.limit)
    .offset(query.offset);
  const items = rows.map(({ round, player: user, voider: by, parentFullName }): GameSummary => {
    const parentId = round.parentId;
    return {
      id: round.id,
      code: round.code,
      status: round.status,
      openedAt: round.createdAt.toISOString(),
      endedAt: round.endedAt?.toISOString() ?? null,
      startRange: round.startRange,
      endRange: round.endRange,
      betAmount: formatCents(round.betAmount),
      pool: formatCents(poolOf(round)),
      entriesCount: entriesOf(round).length,
      drawsCount: drawsOf(round).length,
      prizesCount: prizesOf(round).length,
      voidReason: round.voidReason,
      voidedBy: by?.id ? by : null,
      user: {
        id: user.id,
        username: user.username,
        fullName: user.fullName,
        parent: parentId !== null && parentFullName !== null ? { id: parentId, fullName: parentFullName } : null,
      },
    };
  });
  return { items, total: totalRow?.total ?? 0 };
}

/** The public proof of a game (GET /api/verify/{code}): names and phones masked, the seed once ended. */
export async function gameProof(db: Db, code: string): Promise<GameProof> {
  const [row] = await selectRounds(db).where(eq(gameRounds.code, code));
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const game = toGame(row);
  const { round } = row;
  const mask = (e: Participant) => ({
    number: e.number,
    name: maskName(e.name),
    phoneNumber: maskPhone(e.phoneNumber),
  });
  const entries = await Promise.all(
    [...entriesOf(round)]
      .sort((a, b) => a.number - b.number)
      .map(async (e) => ({ ...mask(e), entryHash: await entryHash(e) })),
  );
  return {
    algorithm: DRAW_ALGORITHM,
    code: round.code,
    shopName: row.player.shopName?.trim() || row.player.fullName,
    status: round.status,
    openedAt: game.openedAt,
    endedAt: game.endedAt,
    startRange: round.startRange,
    endRange: round.endRange,
    betAmount: game.betAmount,
    betCents: round.betAmount,
    prizes: game.prizes.map((p) => ({
      position: p.position,
      name: p.name,
      percentBps: p.percentBps,
      percent: p.percent,
    })),
    entries,
    entriesDigest: round.entriesDigest ?? (await digestOf(round)),
    commitment: round.commitment,
    draws: game.draws.map((d) => ({ ...d, winner: d.winner && mask(d.winner) })),
    pool: game.pool,
    totalPrize: game.totalPrize,
    commission: game.commission,
    voidReason: round.voidReason,
    serverSeed: game.serverSeed,
  };
}
