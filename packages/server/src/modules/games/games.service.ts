import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { commitmentOf, drawAt, DRAW_ALGORITHM, entriesDigest, entryHash, SEED_BYTES, toHex } from '@lot/domain/draw';
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
import type { Db, Tx } from '../../db/client.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { balances, gameRounds, gameWinners, games, transactions, users } from '../../db/schema.ts';
import type { Caller } from '../../plugins/auth.ts';
import { byCaller, recordAudit } from '../../lib/audit.ts';
import { readableByRecord } from '../users/users.access.ts';
import { findLiveUserById } from '../users/users.repository.ts';
import { effectiveWinners } from '../winners/winners.repository.ts';
import { gameChanged } from './game-events.ts';
import { drawsOf, entriesOf, prizesOf, type Prize, type Round, type StoredDraw } from './games.repository.ts';

/**
 * The server-run BOCH BOCH game (decision 013). Every step that changes a game locks its row
 * first (then, for the pool, the player's balance row: always in that order, so no deadlock), so
 * concurrent requests for one game run one after another and a position is drawn exactly once.
 */

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

/**
 * Draws the next position with LOT-DRAW-1. The first draw fixes the entries (their digest) and
 * holds the pool: it leaves the balance as a pending ledger row, or nothing is drawn. The last
 * draw settles the game in the same transaction — the sales-history record, its winners, the
 * ledger row completed — so a game whose winners were announced is always recorded. A position
 * already drawn answers its draw again (a retried or doubled request never draws twice).
 */
export async function drawNext(
  db: Db,
  caller: Caller,
  id: number,
  position: number,
): Promise<{ result: DrawResult; replayed: boolean }> {
  const outcome = await db.transaction(async (tx) => {
    const round = await lockOwnRound(tx, caller, id);
    const draws = drawsOf(round);
    if (position <= draws.length) {
      return { result: drawResult(await readGame(tx, eq(gameRounds.id, id)), position), replayed: true };
    }
    const prizes = prizesOf(round);
    if (draws.length >= prizes.length) throw new AppError('CONFLICT', MESSAGES.allWinnersDrawn);
    if (round.status !== 'open' && round.status !== 'drawing') throw ended(round);
    if (position !== draws.length + 1) {
      throw new AppError('CONFLICT', `Draw the positions in order: the next one is ${draws.length + 1}`);
    }
    const entries = entriesOf(round);
    const pool = poolOf(round);
    let { transactionId, entriesDigest: digest } = round;
    if (round.status === 'open') {
      if (entries.length === 0) throw new AppError('UNPROCESSABLE', MESSAGES.noNumbersSelected);
      const [held] = await tx
        .update(balances)
        .set({ amount: sql`${balances.amount} - ${pool}` })
        .where(and(eq(balances.userId, round.userId), gte(balances.amount, pool)))
        .returning({ amount: balances.amount });
      if (!held) {
        throw new AppError('UNPROCESSABLE', MESSAGES.insufficientBalance, {
          fieldErrors: { betAmount: MESSAGES.insufficientBalance },
        });
      }
      const [hold] = await tx
        .insert(transactions)
        .values({
          type: 'game',
          userId: round.userId,
          receiverId: null,
          actorId: caller.id,
          amount: pool,
          status: 'pending',
          description: `Game in progress with ${entries.length} numbers`,
        })
        .returning({ id: transactions.id });
      if (!hold) throw new Error('ledger insert returned no row');
      transactionId = hold.id;
      digest = await digestOf(round);
    }
    if (!digest) throw new Error('a drawing game has no entries digest');
    const drawn = draws.map((d) => d.number);
    const { number } = await drawAt(seedHex(round), digest, position, round, drawn);
    const nextDraws: StoredDraw[] = [...draws, { number, drawnAt: new Date().toISOString() }];
    const last = nextDraws.length === prizes.length;
    const saleId = last ? await settle(tx, round, [...drawn, number], transactionId) : null;
    await tx
      .update(gameRounds)
      .set({
        draws: nextDraws,
        entriesDigest: digest,
        transactionId,
        status: last ? 'settled' : 'drawing',
        ...(last ? { saleId, endedAt: new Date() } : {}),
      })
      .where(eq(gameRounds.id, id));
    if (last) {
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'game.settled',
        targetKind: 'game',
        targetId: id,
        targetUserId: round.userId,
        details: { code: round.code, saleId, pool: formatCents(pool), numbers: [...drawn, number] },
      });
    }
    return { result: drawResult(await readGame(tx, eq(gameRounds.id, id)), position), replayed: false };
  });
  if (!outcome.replayed) gameChanged(db, outcome.result.game.code);
  return outcome;
}

/** The last draw's settlement: the sales-history record and its winners; the held row is completed. */
async function settle(tx: Tx, round: Round, drawn: number[], transactionId: number | null): Promise<number> {
  if (transactionId === null) throw new Error('settling a game with no held pool');
  const entries = entriesOf(round);
  const settlement = settleGame({ selected: entries, drawn, settings: prizesOf(round), betCents: round.betAmount });
  await tx
    .update(transactions)
    .set({
      status: 'completed',
      description: `Game played with ${entries.length} numbers, ${settlement.winners.length} winners`,
    })
    .where(eq(transactions.id, transactionId));
  const [sale] = await tx
    .insert(games)
    .values({
      userId: round.userId,
      parentId: round.parentId,
      superagentId: round.superagentId,
      startRange: round.startRange,
      endRange: round.endRange,
      betAmount: round.betAmount,
      pool: settlement.pool,
      totalPrize: settlement.totalPrize,
      commission: settlement.commission,
      selectedCount: entries.length,
      winnersCount: settlement.winners.length,
      gameData: { selectedNumbers: entries, winningNumbers: drawn, drawCount: drawn.length },
      transactionId,
    })
    .returning({ id: games.id });
  if (!sale) throw new Error('sale insert returned no row');
  if (settlement.winners.length > 0) {
    await tx.insert(gameWinners).values(settlement.winners.map((w) => ({ ...w, gameId: sale.id })));
  }
  return sale.id;
}

/**
 * Ends a game that is not settled. Before the first draw nothing was held or revealed: the game is
 * discarded. After it the game is voided: the held pool goes back to the balance (the ledger row
 * ends as `voided`) and the game — entries, draws so far, who voided it, when and why — stays on
 * record for the upline to see.
 */
export async function voidGame(db: Db, caller: Caller, id: number, reason: string): Promise<Game> {
  const game = await db.transaction(async (tx) => {
    const round = await lockOwnRound(tx, caller, id);
    if (round.status !== 'open' && round.status !== 'drawing') throw ended(round);
    if (round.status === 'drawing') {
      if (round.transactionId === null) throw new Error('a drawing game has no held pool');
      await tx
        .update(balances)
        .set({ amount: sql`${balances.amount} + ${poolOf(round)}` })
        .where(eq(balances.userId, round.userId));
      await tx
        .update(transactions)
        .set({ status: 'voided', description: `Game voided: ${reason}` })
        .where(eq(transactions.id, round.transactionId));
    }
    await tx
      .update(gameRounds)
      .set({
        status: round.status === 'drawing' ? 'voided' : 'discarded',
        voidReason: reason,
        voidedBy: caller.id,
        endedAt: new Date(),
      })
      .where(eq(gameRounds.id, id));
    await recordAudit(tx, {
      ...byCaller(caller),
      action: 'game.voided',
      targetKind: 'game',
      targetId: id,
      targetUserId: round.userId,
      details: {
        code: round.code,
        reason,
        status: round.status === 'drawing' ? 'voided' : 'discarded',
        ...(round.status === 'drawing' && { returned: formatCents(poolOf(round)) }),
      },
    });
    return readGame(tx, eq(gameRounds.id, id));
  });
  gameChanged(db, game.code);
  return game;
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
