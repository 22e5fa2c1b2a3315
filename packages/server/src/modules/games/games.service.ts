import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  commitmentOf,
  commitmentOf2,
  drawAt,
  DRAW_ALGORITHM,
  DRAW_ALGORITHM_2,
  canonicalName,
  canonicalPhone,
  entriesDigest,
  entryHash,
  SEED_BYTES,
  toHex,
  useDrawCrypto,
} from '@lot/domain/draw';
import { roundTimeMs } from '@lot/domain/beacon';
import { AppError } from '@lot/domain/errors';
import { formatBps, parsePercentToBps, prizeFor, settleGame, type Participant } from '@lot/domain/game';
import { maskName, maskPhone } from '@lot/domain/mask';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents } from '@lot/domain/money';
import type {
  DrawResult,
  DrawWaiting,
  Game,
  GameBeacon,
  GameDraw,
  GameEntriesInput,
  GameProof,
  GameStatus,
  GameSummary,
  GamesQuery,
  OpenGameInput,
} from '@lot/domain/schemas/games';
import { type Db, type Tx } from '../../db/client.ts';
import { queryPrepared } from '../../db/prepared.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../db/errors.ts';
import { gameRounds, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { byCaller, recordAudit } from '../../lib/audit.ts';
import { keysetPages, type ExportColumn, type TimeKey } from '../../lib/export.ts';
import type { SeedBox } from '../../lib/seed-box.ts';
import { readableByRecord } from '../users/users.access.ts';
import { findLiveUserById } from '../users/users.repository.ts';
import { effectiveWinners } from '../winners/winners.repository.ts';
import { nodeDrawCrypto } from '../../lib/draw-crypto.ts';
import { gameChanged } from '../../lib/game-events.ts';
import { claimStatusesOf } from '../claims/claims.repository.ts';
import { DrawBeacon } from '../../lib/draw-beacon.ts';
import {
  beaconOf,
  drawsOf,
  drawStatement,
  entriesOf,
  gameExportPage,
  type GameExportRow,
  prizesOf,
  voidStatement,
  type DrawWrite,
  type Prize,
  type Round,
  type StepAudit,
  type StoredDraw,
  type StoredEntry,
} from './games.repository.ts';

/**
 * The server-run BOCH BOCH game (decision 013). A step reads the game, decides, and writes in one
 * statement that locks the game's row (then, for the pool, the player's balance row: always in that
 * order, so no deadlock) and applies only if the game still stands as the step read it (decision
 * 030), so concurrent requests for one game never draw a position twice.
 *
 * LOT-DRAW-2 (docs/lot-draw-2.md, decision 033): the first draw request freezes the game (entries
 * fixed, pool held, round R named) and draws nothing; the draws wait for the public beacon's round R
 * and depend on it, so nobody — seed included — knows the outcome before R exists. Once frozen, the
 * outcome is fixed: the operator can no longer void; the upline or an admin may finish or void it.
 */

// Games draw with Node's crypto: Web Crypto's bytes at a fraction of the cost (draw-crypto.test.ts).
useDrawCrypto(nodeDrawCrypto);

const player = alias(users, 'player');
const voider = alias(users, 'voider');
const parent = alias(users, 'parent');

export const GAME_IN_PROGRESS = 'You already have a game in progress';
const ENDED: readonly GameStatus[] = ['settled', 'voided', 'discarded'];

const poolOf = (round: Round) => entriesOf(round).length * round.betAmount;
/** The seed, opened with SEED_KEY (decision 034): only for a draw, or to reveal it once the game has ended. */
const seedHex = (round: Round, seeds: SeedBox) => toHex(seeds.open(round.code, round.seed));

/** What the games service reaches besides the database: the seed key and the public beacon. */
export type GamesContext = { db: Db; seeds: SeedBox; beacon: DrawBeacon };

function selectRounds(db: Db | Tx) {
  return db
    .select({
      round: gameRounds,
      player: { id: player.id, username: player.username, fullName: player.fullName, shopName: player.shopName },
      voider: { id: voider.id, username: voider.username, fullName: voider.fullName, role: voider.role },
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

const plainEntry = (e: Participant) => ({ number: e.number, name: e.name, phoneNumber: e.phoneNumber });

function gameDraw(round: Round, index: number, number: number, drawnAt: string): GameDraw {
  const { winner, prizeAmount } = drawOutcome(round, index, number);
  return {
    position: index + 1,
    number,
    drawnAt,
    winner: winner && plainEntry(winner),
    prizeAmount: formatCents(prizeAmount),
  };
}

function beaconView(round: Round): GameBeacon | null {
  const pin = beaconOf(round);
  if (!pin) return null;
  const target = round.beaconRound;
  return {
    ...pin,
    round: target,
    expectedAt: target === null ? null : new Date(roundTimeMs(pin, target)).toISOString(),
    signature: round.beaconSignature,
    randomness: round.beaconRandomness,
  };
}

/**
 * A game voided after its freeze had a fixed outcome: the draws it would have made after its last
 * real one (none paid), once the seed is revealed — and, for LOT-DRAW-2, round R is known.
 */
async function unplayedDraws(round: Round, seed: string): Promise<GameDraw[]> {
  const beacon = beaconOf(round);
  if (round.status !== 'voided' || round.frozenAt === null || round.entriesDigest === null) return [];
  if (beacon && round.beaconRandomness === null) return [];
  const drawn = drawsOf(round).map((d) => d.number);
  const unplayed: GameDraw[] = [];
  for (let k = drawn.length + 1; k <= prizesOf(round).length; k++) {
    const { number } = await drawAt(seed, round.entriesDigest, k, round, drawn, round.beaconRandomness ?? undefined);
    unplayed.push(gameDraw(round, k - 1, number, ''));
    drawn.push(number);
  }
  return unplayed;
}

async function toGame({ round, player: user, voider: by }: RoundRow, seeds: SeedBox): Promise<Game> {
  const pool = poolOf(round);
  const settled = round.status === 'settled';
  const draws = drawsOf(round).map((draw, index) => gameDraw(round, index, draw.number, draw.drawnAt));
  const totalPrize = drawsOf(round).reduce((sum, d, i) => sum + drawOutcome(round, i, d.number).prizeAmount, 0);
  const seed = ENDED.includes(round.status) ? seedHex(round, seeds) : null;
  return {
    id: round.id,
    number: round.number,
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
    protocol: round.protocol,
    beacon: beaconView(round),
    commitment: round.commitment,
    entries: entriesOf(round),
    frozenAt: round.frozenAt?.toISOString() ?? null,
    draws,
    unplayedDraws: seed ? await unplayedDraws(round, seed) : [],
    totalPrize: settled ? formatCents(totalPrize) : null,
    commission: settled ? formatCents(pool - totalPrize) : null,
    saleId: round.saleId,
    transactionId: round.transactionId,
    openedAt: round.createdAt.toISOString(),
    endedAt: round.endedAt?.toISOString() ?? null,
    voidReason: round.voidReason,
    voidedBy: by?.id ? by : null,
    serverSeed: seed,
  };
}

/** Who may read a game: the hierarchy recorded with it (admin all), as for sales. */
const readableBy = (caller: Caller) => readableByRecord(caller, gameRounds);

/**
 * A settled game's draws with their prizes' claims (decision 038): what the result slip, the proof
 * and the display show (paid where and when, or until when it may be claimed).
 */
async function withClaims(db: Db | Tx, round: Round, game: Game): Promise<Game> {
  if (round.status !== 'settled') return game;
  const claims = await claimStatusesOf(db, round.id);
  const prizes = prizesOf(round);
  const claimOf = (d: GameDraw) => {
    const prize = prizes[d.position - 1];
    return { ...d, claim: (prize && claims.get(prize.position)) ?? null };
  };
  return { ...game, draws: game.draws.map(claimOf) };
}

async function readGame(ctx: GamesContext, where: SQL | undefined, db: Db | Tx = ctx.db): Promise<Game> {
  const [row] = await selectRounds(db).where(where);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return withClaims(db, row.round, await toGame(row, ctx.seeds));
}

/** A game as the caller may read it; one voided before its beacon round came gets the round once it exists. */
export async function getGame(ctx: GamesContext, caller: Caller, id: number): Promise<Game> {
  const [found] = await selectRounds(ctx.db).where(and(eq(gameRounds.id, id), readableBy(caller)));
  if (!found) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const round = await completeVoidedBeacon(ctx, found.round);
  return withClaims(ctx.db, round, await toGame({ ...found, round }, ctx.seeds));
}

/** 404 unless the game with this code is one the caller may read (its display tickets, decision 046). */
export async function assertGameReadable(db: Db, caller: Caller, code: string): Promise<void> {
  const [found] = await db
    .select({ id: gameRounds.id })
    .from(gameRounds)
    .where(and(eq(gameRounds.code, code), readableBy(caller)));
  if (!found) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
}

/**
 * The caller's game in progress (open or drawing), so any device carries on with it; null when
 * there is none (no game is an ordinary state of the play screen, not a missing resource).
 */
export async function currentGame(ctx: GamesContext, caller: Caller): Promise<Game | null> {
  const [row] = await selectRounds(ctx.db).where(
    and(eq(gameRounds.userId, caller.id), sql`${gameRounds.status} IN ('open', 'drawing')`),
  );
  return row ? toGame(row, ctx.seeds) : null;
}

/**
 * Opens a game: the range and bet, the player's effective active winner settings sorted by
 * position (copied, so later changes never touch it), the protocol and beacon (decision 033), a
 * secret 32-byte seed sealed with SEED_KEY (decision 034) and its commitment, which covers the
 * protocol and the beacon too.
 */
export async function openGame(ctx: GamesContext, caller: Caller, input: OpenGameInput): Promise<Game> {
  const { db } = ctx;
  const { winners } = await effectiveWinners(db, caller.id);
  if (winners.length === 0) throw new AppError('UNPROCESSABLE', MESSAGES.noWinnerSettings);
  const prizes: Prize[] = winners.map((w) => ({
    position: w.position,
    percentBps: parsePercentToBps(w.percent) ?? 0,
    name: w.name,
  }));
  // Draw k pays the k-th position: a scheme with a position twice has no order to draw in.
  const twice = prizes.find((p, i) => prizes.findIndex((q) => q.position === p.position) !== i);
  if (twice) {
    throw new AppError(
      'UNPROCESSABLE',
      `Position ${twice.position} already has a prize: fix the winner settings before opening a game`,
    );
  }
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
  const pin = await ctx.beacon.pinForNewGame();
  const seed = randomBytes(SEED_BYTES);
  const commitment = pin ? await commitmentOf2(toHex(seed), pin) : await commitmentOf(toHex(seed));
  if (!commitment) throw new Error('seed of the wrong length');
  const code = randomBytes(16).toString('base64url');
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(gameRounds)
        .values({
          code,
          userId: caller.id,
          parentId: me?.parentId ?? null,
          superagentId,
          startRange: input.startRange,
          endRange: input.endRange,
          betAmount: input.betAmount,
          prizes,
          seed: ctx.seeds.seal(code, seed),
          seedSealed: true,
          commitment,
          protocol: pin ? DRAW_ALGORITHM_2 : DRAW_ALGORITHM,
          beacon: pin,
        })
        .returning({ id: gameRounds.id });
      if (!row) throw new Error('game insert returned no row');
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'game.opened',
        targetKind: 'game',
        targetId: row.id,
        targetUserId: caller.id,
        details: {
          code,
          protocol: pin ? DRAW_ALGORITHM_2 : DRAW_ALGORITHM,
          ...(pin && { beaconChain: pin.chainHash }),
          commitment,
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
  return readGame(ctx, eq(gameRounds.id, id));
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

/**
 * A person in a game: the same name and phone share one nonce, whatever the case, spacing and
 * accents of the name and the punctuation of the phone (docs/lot-draw-2.md#entries).
 */
const personKey = (e: Participant) => JSON.stringify([canonicalName(e.name), canonicalPhone(e.phoneNumber)]);

/**
 * Each entry's nonce (docs/lot-draw-2.md#entries): kept for a person already in the game, drawn at
 * random the moment a new person's first entry is added. Printed on their slips, it is what lets
 * them find their entries in the public proof — and what keeps anyone else from matching a hash
 * to a name and phone.
 */
function withNonces(previous: StoredEntry[], entries: Participant[]): StoredEntry[] {
  const nonces = new Map(previous.filter((e) => e.nonce).map((e) => [personKey(e), e.nonce]));
  return entries.map((entry) => {
    const key = personKey(entry);
    let nonce = nonces.get(key);
    if (!nonce) {
      nonce = randomBytes(8).toString('hex');
      nonces.set(key, nonce);
    }
    return { number: entry.number, name: entry.name, phoneNumber: entry.phoneNumber, nonce, canonical: true };
  });
}

/** Replaces the participants while the game is open (not frozen). */
export async function replaceEntries(
  ctx: GamesContext,
  caller: Caller,
  id: number,
  input: GameEntriesInput,
): Promise<Game> {
  const game = await ctx.db.transaction(async (tx) => {
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
    const before = entriesOf(round);
    const entries = withNonces(before, input.entries);
    await tx.update(gameRounds).set({ entries }).where(eq(gameRounds.id, id));
    const numbers = (list: Participant[]) => new Set(list.map((e) => e.number));
    const [was, now] = [numbers(before), numbers(entries)];
    await recordAudit(tx, {
      ...byCaller(caller),
      action: 'game.entries_changed',
      targetKind: 'game',
      targetId: id,
      targetUserId: round.userId,
      details: {
        code: round.code,
        count: entries.length,
        added: [...now].filter((n) => !was.has(n)).sort((a, b) => a - b),
        removed: [...was].filter((n) => !now.has(n)).sort((a, b) => a - b),
      },
    });
    return readGame(ctx, eq(gameRounds.id, id), tx);
  });
  gameChanged(ctx.db, game.code);
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
 * A game the caller may act on, read without a lock: the shop's own, or — for its upline and an
 * admin — any game in their scope (someone else's out of scope is a 404, as a missing one).
 */
async function readActingRound(db: Db, caller: Caller, id: number): Promise<Round> {
  const [round] = await db
    .select()
    .from(gameRounds)
    .where(and(eq(gameRounds.id, id), readableBy(caller)));
  if (!round) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return round;
}

/** A step that found its game moved since it read it reads it again, this many times at most. */
const STEP_ATTEMPTS = 5;

function stillMoving(): AppError {
  return new AppError('CONFLICT', 'The game is changing on another device: try again');
}

export const CLOCK_BEHIND_BEACON =
  "The server's clock is behind the public randomness beacon, so the draw cannot start safely: ask the administrator to set the server's time";
export const UPLINE_CANNOT_START = 'Only the shop that runs a game can start its draw';
export const OPERATOR_CANNOT_VOID_FROZEN =
  'The draw has started, so its outcome is fixed: this game can no longer be voided by its shop. Ask your agent or an admin to finish or void it';

export type DrawOutcomeAnswer =
  { kind: 'drawn'; result: DrawResult; replayed: boolean } | { kind: 'waiting'; waiting: DrawWaiting };

/**
 * Draws the next position. The first request freezes the game: the entries are fixed (their
 * digest), the pool is held (a pending ledger row, or nothing happens), the freeze time is
 * recorded and — LOT-DRAW-2 — round R, the beacon's first round after it. A LOT-DRAW-1 game draws
 * its first number in the same statement; a LOT-DRAW-2 game answers that it waits for R, and
 * every request answers so until R exists and is verified; then each draw depends on R's
 * randomness. The last draw settles the game in the same statement — the sales-history record,
 * its winners, the ledger row completed. A position already drawn answers its draw again. The shop
 * starts a game's draw; once frozen, its upline and an admin may finish it too (decision 033).
 */
export async function drawNext(
  ctx: GamesContext,
  caller: Caller,
  id: number,
  position: number,
): Promise<DrawOutcomeAnswer> {
  const { db } = ctx;
  for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
    const round = await readActingRound(db, caller, id);
    const own = round.userId === caller.id;
    if (!own && round.status === 'open') throw new AppError('FORBIDDEN', UPLINE_CANNOT_START);
    const draws = drawsOf(round);
    if (position <= draws.length) {
      return {
        kind: 'drawn',
        result: drawResult(await readGame(ctx, eq(gameRounds.id, id)), position),
        replayed: true,
      };
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
    const pin = beaconOf(round);
    const freezing = round.status === 'open';
    const digest = freezing ? await digestOf(round) : round.entriesDigest;
    if (!digest) throw new Error('a drawing game has no entries digest');
    const freezeAt = new Date(ctx.beacon.now());
    const targetRound = freezing ? (pin ? DrawBeacon.targetRound(pin, freezeAt.getTime()) : null) : round.beaconRound;
    if (freezing && pin && targetRound !== null && (await ctx.beacon.alreadyPublished(pin, targetRound))) {
      // The server's clock is behind the beacon: R is public already, so freezing now would let
      // whoever holds the seed know the outcome. Nothing is frozen (decision 036).
      throw new AppError('UNAVAILABLE', CLOCK_BEHIND_BEACON);
    }

    // LOT-DRAW-2: nothing is drawn before round R exists and is verified.
    let randomness: string | undefined;
    let storeBeacon: DrawWrite['beacon'];
    if (pin && !freezing) {
      if (targetRound === null) throw new Error('a frozen LOT-DRAW-2 game has no beacon round');
      if (round.beaconRandomness !== null) {
        randomness = round.beaconRandomness;
      } else {
        const state = await ctx.beacon.round(pin, targetRound);
        if (!state.ready) return { kind: 'waiting', waiting: await waiting(ctx, round.id, targetRound, state) };
        randomness = state.round.randomness;
        storeBeacon = { signature: state.round.signature, randomness };
      }
    }
    const drawsNow = !(pin && freezing);
    const drawn = draws.map((d) => d.number);
    const number = drawsNow
      ? (await drawAt(seedHex(round, ctx.seeds), digest, position, round, drawn, randomness)).number
      : undefined;
    const nextDraws: StoredDraw[] =
      number === undefined ? draws : [...draws, { number, drawnAt: new Date().toISOString() }];
    const last = nextDraws.length === prizes.length;
    const audits: StepAudit[] = [];
    if (freezing) {
      audits.push({
        action: 'game.frozen',
        details: {
          code: round.code,
          protocol: round.protocol,
          entries: entries.length,
          entriesDigest: digest,
          pool: formatCents(poolOf(round)),
          frozenAt: freezeAt.toISOString(),
          ...(targetRound !== null && { beaconRound: targetRound }),
        },
      });
    }
    if (number !== undefined) {
      audits.push({ action: 'game.drawn', details: { code: round.code, position, number } });
    }
    if (last && number !== undefined) {
      audits.push({
        action: 'game.settled',
        details: { code: round.code, pool: formatCents(poolOf(round)), numbers: nextDraws.map((d) => d.number) },
      });
    }
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
        freeze: freezing ? { at: freezeAt, beaconRound: targetRound } : undefined,
        beacon: storeBeacon,
        holdDescription: `Game in progress with ${entries.length} numbers`,
        settlement:
          last && number !== undefined
            ? settlementOf(
                round,
                nextDraws.map((d) => d.number),
              )
            : undefined,
        audit: { address: caller.address ?? null, rows: audits },
      }),
    );
    if (!row?.locked) continue;
    if (!row.drawn) {
      throw new AppError('UNPROCESSABLE', MESSAGES.insufficientBalance, {
        fieldErrors: { betAmount: MESSAGES.insufficientBalance },
      });
    }
    if (pin && freezing && targetRound !== null) {
      ctx.beacon.prefetch(pin, targetRound);
      gameChanged(db, round.code);
      const state = await ctx.beacon.round(pin, targetRound);
      const notYet = state.ready
        ? { expectedAt: roundTimeMs(pin, targetRound), retryAfterMs: 0, unreachable: false }
        : state;
      return { kind: 'waiting', waiting: await waiting(ctx, round.id, targetRound, notYet) };
    }
    const game = await readGame(ctx, eq(gameRounds.id, id));
    gameChanged(db, game.code);
    return { kind: 'drawn', result: drawResult(game, position), replayed: false };
  }
  throw stillMoving();
}

async function waiting(
  ctx: GamesContext,
  id: number,
  round: number,
  state: { expectedAt: number; retryAfterMs: number; unreachable: boolean },
): Promise<DrawWaiting> {
  return {
    waitingForRound: round,
    expectedAt: new Date(state.expectedAt).toISOString(),
    retryAfterMs: Math.max(0, Math.ceil(state.retryAfterMs)),
    beaconUnreachable: state.unreachable,
    game: await readGame(ctx, eq(gameRounds.id, id)),
  };
}

/** The last draw's settlement: the sales-history record and its winners; the held row completed. */
function settlementOf(round: Round, drawn: number[]): NonNullable<DrawWrite['settlement']> {
  const entries = entriesOf(round).map(plainEntry);
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
 * Ends a game that is not settled. Before the freeze nothing was held or revealed: the shop (or
 * its upline, or an admin) discards it. After the freeze its outcome is fixed, so the shop can no
 * longer stop it (403): only its upline or an admin may void it, with a reason — the held pool goes
 * back to the shop's balance (the ledger row ends as `voided`) and the game stays on record with
 * the draws it would have made, none paid (decision 033). One statement, as a draw (decision 030).
 */
export async function voidGame(ctx: GamesContext, caller: Caller, id: number, reason: string): Promise<Game> {
  const { db } = ctx;
  for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
    const round = await readActingRound(db, caller, id);
    if (round.status !== 'open' && round.status !== 'drawing') throw ended(round);
    const frozen = round.status === 'drawing';
    if (frozen && round.userId === caller.id) throw new AppError('FORBIDDEN', OPERATOR_CANNOT_VOID_FROZEN);
    if (frozen && round.transactionId === null) throw new Error('a drawing game has no held pool');
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
            status: frozen ? 'voided' : 'discarded',
            ...(frozen && { returned: formatCents(poolOf(round)), drawn: drawsOf(round).length }),
          },
        },
      }),
    );
    if (!row?.done) continue;
    gameChanged(db, round.code);
    // R already due but never fetched (a shop that stopped before drawing): fetched now, so the
    // answer shows the draws the game would have made.
    if (frozen) await completeVoidedBeacon(ctx, { ...round, status: 'voided' });
    return readGame(ctx, eq(gameRounds.id, id));
  }
  throw stillMoving();
}

/** The games of a list or its export: the caller's scope, the status (any but discarded) and the dates. */
function gamesWhere(caller: Caller, query: Omit<GamesQuery, 'limit' | 'offset'>): SQL | undefined {
  return and(
    readableBy(caller),
    query.status ? eq(gameRounds.status, query.status) : sql`${gameRounds.status} <> 'discarded'`,
    query.from ? gte(gameRounds.createdAt, new Date(query.from)) : undefined,
    query.to ? lt(gameRounds.createdAt, new Date(Date.parse(query.to) + 1)) : undefined,
  );
}

/**
 * Games in the caller's scope by status (the Voided games tab of the history screens), newest first,
 * with the count and the pools of the whole filtered set (docs/product/screens.md#voided-games).
 */
export async function listGames(
  db: Db,
  caller: Caller,
  query: GamesQuery,
): Promise<{ items: GameSummary[]; total: number; totalPool: string }> {
  const where = gamesWhere(caller, query);
  const [totalRow] = await db
    .select({
      total: count(),
      pool: sql<string>`coalesce(sum(jsonb_array_length(${gameRounds.entries}) * ${gameRounds.betAmount}), 0)::text`,
    })
    .from(gameRounds)
    .where(where);
  const rows = await selectRounds(db)
    .where(where)
    .orderBy(desc(gameRounds.createdAt), desc(gameRounds.id))
    .limit(query.limit)
    .offset(query.offset);
  const items = rows.map(({ round, player: user, voider: by, parentFullName }): GameSummary => {
    const parentId = round.parentId;
    return {
      id: round.id,
      number: round.number,
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
      protocol: round.protocol,
      voidReason: round.voidReason,
      voidedBy: by?.id ? { id: by.id, username: by.username, fullName: by.fullName } : null,
      user: {
        id: user.id,
        username: user.username,
        fullName: user.fullName,
        parent: parentId !== null && parentFullName !== null ? { id: parentId, fullName: parentFullName } : null,
      },
    };
  });
  return { items, total: totalRow?.total ?? 0, totalPool: formatCents(BigInt(totalRow?.pool ?? 0)) };
}

/** The columns of a games export (the Voided games tab's): what its table shows, one cell per fact. */
export const GAME_EXPORT_COLUMNS: ExportColumn<GameExportRow>[] = [
  { header: 'Date', type: 'time', value: (row) => row.created_at },
  { header: 'Game no.', type: 'integer', value: (row) => row.number },
  { header: 'Game code', type: 'text', value: (row) => row.code },
  { header: 'User', type: 'text', value: (row) => row.full_name },
  { header: 'Username', type: 'text', value: (row) => row.username },
  { header: 'Parent', type: 'text', value: (row) => row.parent_name },
  { header: 'Range', type: 'text', value: (row) => `${row.start_range}-${row.end_range}` },
  { header: 'Bet', type: 'money', value: (row) => row.bet_amount },
  { header: 'Pool', type: 'money', value: (row) => row.pool },
  { header: 'Drawn', type: 'integer', value: (row) => row.drawn },
  { header: 'Prizes', type: 'integer', value: (row) => row.prizes },
  { header: 'Status', type: 'text', value: (row) => row.status },
  { header: 'Reason', type: 'text', value: (row) => row.void_reason },
  { header: 'Voided by', type: 'text', value: (row) => row.voided_by },
  { header: 'Ended', type: 'time', value: (row) => row.ended_at },
  { header: 'Protocol', type: 'text', value: (row) => row.protocol },
];

/** GET /api/games/export: every game of the list's filtered set, newest first, a keyset page at a time. */
export function gameExportPages(
  db: Db,
  caller: Caller,
  query: Omit<GamesQuery, 'limit' | 'offset'>,
): AsyncIterable<GameExportRow[]> {
  const where = gamesWhere(caller, query);
  return keysetPages(
    (after: TimeKey | undefined, limit: number) => gameExportPage(db, where, after, limit),
    (row) => ({ at: row.created_at, id: row.id }),
  );
}

/**
 * A LOT-DRAW-2 game voided before round R was fetched: once R exists, it is fetched (verified) and
 * kept with the game, so the proof can show the outcome the game would have had.
 */
async function completeVoidedBeacon(ctx: GamesContext, round: Round): Promise<Round> {
  const pin = beaconOf(round);
  if (!pin || round.status !== 'voided' || round.beaconRound === null || round.beaconSignature !== null) return round;
  const state = await ctx.beacon.round(pin, round.beaconRound);
  if (!state.ready) return round;
  await ctx.db
    .update(gameRounds)
    .set({ beaconSignature: state.round.signature, beaconRandomness: state.round.randomness })
    .where(and(eq(gameRounds.id, round.id), isNull(gameRounds.beaconSignature)));
  return { ...round, beaconSignature: state.round.signature, beaconRandomness: state.round.randomness };
}

/**
 * The public proof of a game (GET /api/verify/{code}): names and phones masked (fixed shape), entry
 * hashes salted with each person's nonce, the beacon and its round, the seed once ended.
 */
export async function gameProof(ctx: GamesContext, code: string): Promise<GameProof> {
  const [found] = await selectRounds(ctx.db).where(eq(gameRounds.code, code));
  if (!found) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const row = { ...found, round: await completeVoidedBeacon(ctx, found.round) };
  const game = await withClaims(ctx.db, row.round, await toGame(row, ctx.seeds));
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
  const maskDraw = (d: GameDraw) => ({ ...d, winner: d.winner && mask(d.winner), claim: d.claim ?? null });
  return {
    algorithm: round.protocol,
    code: round.code,
    shopName: row.player.shopName?.trim() || row.player.fullName,
    number: round.number,
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
    beacon: game.beacon,
    frozenAt: game.frozenAt,
    draws: game.draws.map(maskDraw),
    unplayedDraws: game.unplayedDraws.map(maskDraw),
    pool: game.pool,
    totalPrize: game.totalPrize,
    commission: game.commission,
    voidReason: round.voidReason,
    voidedBy: row.voider?.id ? { role: row.voider.role, name: maskName(row.voider.fullName) } : null,
    serverSeed: game.serverSeed,
  };
}
