import { randomBytes } from 'node:crypto';
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
  type DrawCrypto,
} from '@lot/domain/draw';
import { roundTimeMs } from '@lot/domain/beacon';
import { AppError } from '@lot/domain/errors';
import {
  formatBps,
  heldGameDescription,
  parsePercentToBps,
  playedGameDescription,
  prizeFor,
  settleGame,
  type Participant,
} from '@lot/domain/game';
import { maskName, maskPhone } from '@lot/domain/mask';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents } from '@lot/domain/money';
import type {
  ClaimStatusInfo,
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
import type { Caller } from '../../lib/caller.ts';
import type { AppContext, Context } from '../../lib/context.ts';
import { byCaller, recordAudit } from '../../lib/audit.ts';
import { keysetPages, type ExportColumn, type TimeKey } from '../../lib/export.ts';
import type { SeedBox } from '../../lib/seed-box.ts';
import { findLiveUserById } from '../users/users.repository.ts';
import { effectiveWinners } from '../winners/winners.repository.ts';
import { claimStatusesOf } from '../claims/claims.repository.ts';
import { DrawBeacon } from '../../lib/draw-beacon.ts';
import { serverRandomnessAllowed } from './randomness.service.ts';
import {
  beaconOf,
  callerGameExportPage,
  drawsOf,
  entriesOf,
  findCurrentRoundRow,
  findReadableRoundRow,
  findRoundRow,
  findRoundRowByCode,
  gamesPage,
  type GameExportRow,
  insertRound,
  isGameReadable,
  isUniqueViolation,
  lockOwnRound as lockOwnRoundRow,
  prizesOf,
  runDraw,
  runVoid,
  setEntries,
  storeVoidedBeacon,
  type DrawWrite,
  type Prize,
  type Round,
  type RoundRow,
  type StepAudit,
  type StoredDraw,
  type StoredEntry,
  type Tx,
} from './games.repository.ts';

/**
 * The server-run BOCH BOCH game (decision 013). A step reads the game without a lock, decides, and
 * writes in one statement that locks the game's row only if it still stands as the step read it
 * (then, for the pool, the player's balance row: always in that order, so no deadlock) and answers
 * through RETURNING (decisions 030, 052), so concurrent requests for one game never draw a position
 * twice.
 *
 * LOT-DRAW-2 (docs/lot-draw-2.md, decision 033): the first draw request freezes the game (entries
 * fixed, pool held, round R named) and draws nothing; the draws wait for the public beacon's round R
 * and depend on it, so nobody — seed included — knows the outcome before R exists. Once frozen, the
 * outcome is fixed: the operator can no longer void; the upline or an admin may finish or void it.
 */

export const GAME_IN_PROGRESS = 'You already have a game in progress';
const ENDED: readonly GameStatus[] = ['settled', 'voided', 'discarded'];

const poolOf = (round: Round) => entriesOf(round).length * round.betAmount;
/** The seed, opened with SEED_KEY (decision 034): only for a draw, or to reveal it once the game has ended. */
const seedHex = (round: Round, seeds: SeedBox) => toHex(seeds.open(round.code, round.seed));

/** What reading a game needs besides the database: the seed key (decision 034) and the draw's hashes. */
type Reading = Pick<AppContext, 'seeds' | 'drawCrypto'>;

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
async function unplayedDraws(round: Round, seed: string, crypto: DrawCrypto): Promise<GameDraw[]> {
  const beacon = beaconOf(round);
  if (round.status !== 'voided' || round.frozenAt === null || round.entriesDigest === null) return [];
  if (beacon && round.beaconRandomness === null) return [];
  const drawn = drawsOf(round).map((d) => d.number);
  const unplayed: GameDraw[] = [];
  for (let k = drawn.length + 1; k <= prizesOf(round).length; k++) {
    const randomness = round.beaconRandomness ?? undefined;
    const { number } = await drawAt(seed, round.entriesDigest, k, round, drawn, randomness, crypto);
    unplayed.push(gameDraw(round, k - 1, number, ''));
    drawn.push(number);
  }
  return unplayed;
}

async function toGame({ round, player: user, voider: by }: RoundRow, ctx: Reading): Promise<Game> {
  const pool = poolOf(round);
  const settled = round.status === 'settled';
  const draws = drawsOf(round).map((draw, index) => gameDraw(round, index, draw.number, draw.drawnAt));
  const totalPrize = drawsOf(round).reduce((sum, d, i) => sum + drawOutcome(round, i, d.number).prizeAmount, 0);
  const seed = ENDED.includes(round.status) ? seedHex(round, ctx.seeds) : null;
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
    unplayedDraws: seed ? await unplayedDraws(round, seed, ctx.drawCrypto) : [],
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

/**
 * A settled game's draws with their prizes' claims (decision 038): what the result slip, the proof
 * and the display show (paid where and when, or until when it may be claimed).
 */
async function withClaims(db: AppContext['db'] | Tx, round: Round, game: Game): Promise<Game> {
  if (round.status !== 'settled') return game;
  return claimsOn(round, game, await claimStatusesOf(db, round.id));
}

/** `game`'s draws, each with its prize's claim from `claims` (by prize position). */
function claimsOn(round: Round, game: Game, claims: Map<number, ClaimStatusInfo>): Game {
  const prizes = prizesOf(round);
  const claimOf = (d: GameDraw) => {
    const prize = prizes[d.position - 1];
    return { ...d, claim: (prize && claims.get(prize.position)) ?? null };
  };
  return { ...game, draws: game.draws.map(claimOf) };
}

async function readGame(ctx: AppContext, id: number, db: AppContext['db'] | Tx = ctx.db): Promise<Game> {
  const row = await findRoundRow(db, id);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return withClaims(db, row.round, await toGame(row, ctx));
}

/** A game as the caller may read it; one voided before its beacon round came gets the round once it exists. */
export async function getGame(ctx: Context, id: number): Promise<Game> {
  const found = await findReadableRoundRow(ctx.db, ctx.caller, id);
  if (!found) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const round = await completeVoidedBeacon(ctx, found.round);
  return withClaims(ctx.db, round, await toGame({ ...found, round }, ctx));
}

/** 404 unless the game with this code is one the caller may read (its display tickets, decision 046). */
export async function assertGameReadable(ctx: Context, code: string): Promise<void> {
  if (!(await isGameReadable(ctx.db, ctx.caller, code))) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
}

/**
 * The caller's game in progress (open or drawing), so any device carries on with it; null when
 * there is none (no game is an ordinary state of the play screen, not a missing resource).
 */
export async function currentGame(ctx: Context): Promise<Game | null> {
  const row = await findCurrentRoundRow(ctx.db, ctx.caller.id);
  return row ? toGame(row, ctx) : null;
}

/**
 * Opens a game: the range and bet, the player's effective active winner settings sorted by
 * position (copied, so later changes never touch it), the protocol and beacon (decision 033), a
 * secret 32-byte seed sealed with SEED_KEY (decision 034) and its commitment, which covers the
 * protocol and the beacon too.
 */
export async function openGame(ctx: Context, input: OpenGameInput): Promise<Game> {
  const { db, caller } = ctx;
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
  const pin = await ctx.beacon.pinForNewGame(() => serverRandomnessAllowed(ctx));
  const seed = randomBytes(SEED_BYTES);
  const commitment = pin
    ? await commitmentOf2(toHex(seed), pin, ctx.drawCrypto)
    : await commitmentOf(toHex(seed), ctx.drawCrypto);
  if (!commitment) throw new Error('seed of the wrong length');
  const code = randomBytes(16).toString('base64url');
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const roundId = await insertRound(tx, {
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
      });
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'game.opened',
        targetKind: 'game',
        targetId: roundId,
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
      return roundId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', GAME_IN_PROGRESS);
    throw error;
  }
  return readGame(ctx, id);
}

/** Locks the caller's own game for the rest of the transaction (someone else's is a 404). */
async function lockOwnRound(tx: Tx, caller: Caller, id: number): Promise<Round> {
  const round = await lockOwnRoundRow(tx, caller.id, id);
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
export async function replaceEntries(ctx: Context, id: number, input: GameEntriesInput): Promise<Game> {
  const { caller } = ctx;
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
    await setEntries(tx, id, entries);
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
    return readGame(ctx, id, tx);
  });
  ctx.events.gameChanged(game.code);
  return game;
}

async function digestOf(round: Round, crypto: DrawCrypto): Promise<string> {
  const entries = await Promise.all(
    entriesOf(round).map(async (e) => ({ number: e.number, entryHash: await entryHash(e, crypto) })),
  );
  return entriesDigest(
    {
      code: round.code,
      startRange: round.startRange,
      endRange: round.endRange,
      betCents: round.betAmount,
      prizes: prizesOf(round),
      entries,
    },
    crypto,
  );
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
async function readActingRound(ctx: Context, id: number): Promise<RoundRow> {
  const row = await findReadableRoundRow(ctx.db, ctx.caller, id);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return row;
}

/**
 * The draw's memory (decision 052): a drawing game as this process last read or wrote it. Only a
 * game that draws is kept; one that ended, or that another process moved, is forgotten.
 */
function rememberDrawing(ctx: AppContext, row: RoundRow): void {
  if (row.round.status === 'drawing') ctx.games.set(row.round.id, row);
  else ctx.games.delete(row.round.id);
}

/**
 * The remembered game, only when the next draw can be written from it alone: it draws, the
 * position is the next one, and (LOT-DRAW-2) round R is stored. Anything else — a replay, an
 * error to answer, a beacon to wait for — is decided on a read.
 */
function rememberedFor(ctx: AppContext, id: number, position: number): RoundRow | undefined {
  const row = ctx.games.get(id) as RoundRow | undefined;
  if (!row) return undefined;
  const { round } = row;
  const usable =
    round.status === 'drawing' &&
    position === drawsOf(round).length + 1 &&
    drawsOf(round).length < prizesOf(round).length &&
    (beaconOf(round) === null || round.beaconRandomness !== null);
  return usable ? row : undefined;
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
export async function drawNext(ctx: Context, id: number, position: number): Promise<DrawOutcomeAnswer> {
  const { db, caller } = ctx;
  for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
    // The game as this process last left it, when that is enough to write the next draw (decision
    // 052); the statement's conditions decide whether it still stands, else it is read.
    const known = attempt === 0 ? rememberedFor(ctx, id, position) : undefined;
    const row = known ?? (await readActingRound(ctx, id));
    if (!known) rememberDrawing(ctx, row);
    const { round } = row;
    const own = round.userId === caller.id;
    if (!own && round.status === 'open') throw new AppError('FORBIDDEN', UPLINE_CANNOT_START);
    const draws = drawsOf(round);
    if (position <= draws.length) {
      const game = await withClaims(db, round, await toGame(row, ctx));
      return { kind: 'drawn', result: drawResult(game, position), replayed: true };
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
    const digest = freezing ? await digestOf(round, ctx.drawCrypto) : round.entriesDigest;
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
        if (!state.ready) return { kind: 'waiting', waiting: await waiting(ctx, row, targetRound, state) };
        randomness = state.round.randomness;
        storeBeacon = { signature: state.round.signature, randomness };
      }
    }
    const drawsNow = !(pin && freezing);
    const drawn = draws.map((d) => d.number);
    const number = drawsNow
      ? (await drawAt(seedHex(round, ctx.seeds), digest, position, round, drawn, randomness, ctx.drawCrypto)).number
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
    const answer = await runDraw(db, {
      read: { id, status: round.status, drawn: draws.length, entries: round.entries, ...(known && { caller }) },
      userId: round.userId,
      actorId: caller.id,
      pool: poolOf(round),
      transactionId: round.transactionId,
      draws: nextDraws,
      digest,
      freeze: freezing ? { at: freezeAt, beaconRound: targetRound } : undefined,
      beacon: storeBeacon,
      holdDescription: heldGameDescription(entries.length),
      settlement:
        last && number !== undefined
          ? settlementOf(
              round,
              nextDraws.map((d) => d.number),
            )
          : undefined,
      audit: { address: caller.address ?? null, rows: audits },
    });
    if (!answer?.locked) {
      ctx.games.delete(id);
      continue;
    }
    if (!answer.drawn) {
      throw new AppError('UNPROCESSABLE', MESSAGES.insufficientBalance, {
        fieldErrors: { betAmount: MESSAGES.insufficientBalance },
      });
    }
    // The game as the statement left it: the round as read, with what the statement wrote (decision 052).
    const written: RoundRow = {
      ...row,
      ...(answer.player && { player: { id: row.player.id, ...answer.player } }),
      round: {
        ...round,
        status: last && number !== undefined ? 'settled' : 'drawing',
        draws: nextDraws,
        entriesDigest: digest,
        transactionId: answer.transactionId,
        saleId: answer.saleId,
        shiftId: answer.shiftId,
        endedAt: answer.endedAt,
        ...(freezing && { frozenAt: freezeAt, beaconRound: targetRound }),
        ...(storeBeacon && { beaconSignature: storeBeacon.signature, beaconRandomness: storeBeacon.randomness }),
      },
    };
    rememberDrawing(ctx, written);
    ctx.events.gameChanged(round.code);
    if (pin && freezing && targetRound !== null) {
      ctx.beacon.prefetch(pin, targetRound);
      const state = await ctx.beacon.round(pin, targetRound);
      const notYet = state.ready
        ? { expectedAt: roundTimeMs(pin, targetRound), retryAfterMs: 0, unreachable: false }
        : state;
      return { kind: 'waiting', waiting: await waiting(ctx, written, targetRound, notYet) };
    }
    // The settling draw's claims are the ones its statement wrote and answered (decision 052).
    const drawnGame = await toGame(written, ctx);
    const game = answer.claims ? claimsOn(written.round, drawnGame, answer.claims) : drawnGame;
    if (game.status === 'settled') ctx.metrics.games.inc({ outcome: 'settled' });
    return { kind: 'drawn', result: drawResult(game, position), replayed: false };
  }
  throw stillMoving();
}

async function waiting(
  ctx: Context,
  row: RoundRow,
  round: number,
  state: { expectedAt: number; retryAfterMs: number; unreachable: boolean },
): Promise<DrawWaiting> {
  return {
    waitingForRound: round,
    expectedAt: new Date(state.expectedAt).toISOString(),
    retryAfterMs: Math.max(0, Math.ceil(state.retryAfterMs)),
    beaconUnreachable: state.unreachable,
    game: await toGame(row, ctx),
  };
}

/** The last draw's settlement: the sales-history record and its winners; the held row completed. */
function settlementOf(round: Round, drawn: number[]): NonNullable<DrawWrite['settlement']> {
  const entries = entriesOf(round).map(plainEntry);
  const settlement = settleGame({ selected: entries, drawn, settings: prizesOf(round), betCents: round.betAmount });
  return {
    description: playedGameDescription(entries.length, settlement.winners.length),
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
export async function voidGame(ctx: Context, id: number, reason: string): Promise<Game> {
  const { db, caller } = ctx;
  for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
    const { round } = await readActingRound(ctx, id);
    ctx.games.delete(id);
    if (round.status !== 'open' && round.status !== 'drawing') throw ended(round);
    const frozen = round.status === 'drawing';
    if (frozen && round.userId === caller.id) throw new AppError('FORBIDDEN', OPERATOR_CANNOT_VOID_FROZEN);
    if (frozen && round.transactionId === null) throw new Error('a drawing game has no held pool');
    const done = await runVoid(db, {
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
    });
    if (!done) continue;
    ctx.events.gameChanged(round.code);
    // R already due but never fetched (a shop that stopped before drawing): fetched now, so the
    // answer shows the draws the game would have made.
    if (frozen) await completeVoidedBeacon(ctx, { ...round, status: 'voided' });
    const game = await readGame(ctx, id);
    ctx.metrics.games.inc({ outcome: game.status });
    return game;
  }
  throw stillMoving();
}

/**
 * Games in the caller's scope by status (the Voided games tab of the history screens), newest first,
 * with the count and the pools of the whole filtered set (docs/product/screens.md#voided-games).
 */
export async function listGames(
  ctx: Context,
  query: GamesQuery,
): Promise<{ items: GameSummary[]; total: number; totalPool: string }> {
  const { rows, total, pool } = await gamesPage(ctx.db, ctx.caller, query);
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
  return { items, total, totalPool: formatCents(BigInt(pool)) };
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
  ctx: Context,
  query: Omit<GamesQuery, 'limit' | 'offset'>,
): AsyncIterable<GameExportRow[]> {
  return keysetPages(
    (after: TimeKey | undefined, limit: number) => callerGameExportPage(ctx.db, ctx.caller, query, after, limit),
    (row) => ({ at: row.created_at, id: row.id }),
  );
}

/**
 * A LOT-DRAW-2 game voided before round R was fetched: once R exists, it is fetched (verified) and
 * kept with the game, so the proof can show the outcome the game would have had.
 */
async function completeVoidedBeacon(ctx: AppContext, round: Round): Promise<Round> {
  const pin = beaconOf(round);
  if (!pin || round.status !== 'voided' || round.beaconRound === null || round.beaconSignature !== null) return round;
  const state = await ctx.beacon.round(pin, round.beaconRound);
  if (!state.ready) return round;
  await storeVoidedBeacon(ctx.db, round.id, state.round);
  return { ...round, beaconSignature: state.round.signature, beaconRandomness: state.round.randomness };
}

/**
 * The public proof of a game (GET /api/verify/{code}): names and phones masked (fixed shape), entry
 * hashes salted with each person's nonce, the beacon and its round, the seed once ended.
 */
export async function gameProof(ctx: AppContext, code: string): Promise<GameProof> {
  const found = await findRoundRowByCode(ctx.db, code);
  if (!found) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  const row = { ...found, round: await completeVoidedBeacon(ctx, found.round) };
  const game = await withClaims(ctx.db, row.round, await toGame(row, ctx));
  const { round } = row;
  const mask = (e: Participant) => ({
    number: e.number,
    name: maskName(e.name),
    phoneNumber: maskPhone(e.phoneNumber),
  });
  const entries = await Promise.all(
    [...entriesOf(round)]
      .sort((a, b) => a.number - b.number)
      .map(async (e) => ({ ...mask(e), entryHash: await entryHash(e, ctx.drawCrypto) })),
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
    entriesDigest: round.entriesDigest ?? (await digestOf(round, ctx.drawCrypto)),
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
