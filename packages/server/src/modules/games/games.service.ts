import { randomBytes } from 'node:crypto';
import {
  commitmentOf,
  commitmentOf2,
  drawAt,
  DRAW_ALGORITHM,
  DRAW_ALGORITHM_2,
  canonicalName,
  canonicalPhone,
  SEED_BYTES,
  toHex,
  type BeaconPin,
} from '@lot/domain/draw';
import { roundTimeMs } from '@lot/domain/beacon';
import { AppError } from '@lot/domain/errors';
import { formatBps, parsePercentToBps, type Participant } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import {
  numberOutsideRange,
  positionTakenAtOpen,
  rangeTooSmall,
  SERVER_MESSAGES,
  winnersOver100,
} from '@lot/domain/server-messages';
import { formatCents } from '@lot/domain/money';
import type { DrawResult, DrawWaiting, Game, GameEntriesInput, OpenGameInput } from '@lot/domain/schemas/games';
import type { EffectiveWinners } from '@lot/domain/schemas/winners';
import type { Caller } from '../../lib/caller.ts';
import type { Context } from '../../lib/context.ts';
import { byCaller, recordAudit } from '../../lib/audit.ts';
import { findLiveUserById } from '../users/users.repository.ts';
import { effectiveWinners } from '../winners/winners.repository.ts';
import { serverRandomnessAllowed } from './randomness.service.ts';
import { forgetGame, rememberDrawing, rememberedFor } from './draw-memory.ts';
import {
  checkDraw,
  ended,
  planDraw,
  type BeaconFacts,
  type DrawFacts,
  type DrawPlan,
  type DrawRequest,
} from './draw-plan.ts';
import { gamesAccess } from './games.access.ts';
import {
  claimsOn,
  completeVoidedBeacon,
  digestOf,
  drawResult,
  readGame,
  seedHex,
  toGame,
  voidAfterWinner,
  waitingAnswer,
  withClaims,
} from './game-view.ts';
import {
  beaconOf,
  drawsOf,
  entriesOf,
  findCurrentRoundRow,
  findReadableRoundRow,
  insertRound,
  isGameReadable,
  isUniqueViolation,
  lockOwnRound as lockOwnRoundRow,
  poolOf,
  setEntries,
  type NewRound,
  type Prize,
  type Round,
  type RoundRow,
  type StoredEntry,
  type Tx,
} from './games.repository.ts';
import { endedLeaf, runDrawLogged, runVoidLogged } from './game-log-leaves.ts';
import { appendGameLeaves } from '../../lib/game-log.ts';

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
  const prizes = prizesToDraw(winners, input);
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
  const protocol = pin ? DRAW_ALGORITHM_2 : DRAW_ALGORITHM;
  const { startRange, endRange, betAmount } = input;
  const id = await insertOpened(
    ctx,
    {
      code,
      userId: caller.id,
      parentId: me?.parentId ?? null,
      superagentId,
      startRange,
      endRange,
      betAmount,
      prizes,
      seed: ctx.seeds.seal(code, seed),
      seedSealed: true,
      commitment,
      protocol,
      beacon: pin,
    },
    pin,
  );
  return readGame(ctx, id);
}

/**
 * The prizes a game opened now draws, from the player's active winner settings, refused unless
 * drawable: one prize per position (draw k pays the k-th), at most 100% of the pool, and a range
 * with a number for every prize.
 */
function prizesToDraw(winners: EffectiveWinners['winners'], input: OpenGameInput): Prize[] {
  if (winners.length === 0) throw new AppError('UNPROCESSABLE', MESSAGES.noWinnerSettings);
  const prizes: Prize[] = winners.map((w) => ({
    position: w.position,
    percentBps: parsePercentToBps(w.percent) ?? 0,
    name: w.name,
  }));
  // Draw k pays the k-th position: a scheme with a position twice has no order to draw in.
  const twice = prizes.find((p, i) => prizes.findIndex((q) => q.position === p.position) !== i);
  if (twice) {
    throw new AppError('UNPROCESSABLE', positionTakenAtOpen(twice.position));
  }
  const totalBps = prizes.reduce((sum, p) => sum + p.percentBps, 0);
  if (totalBps > 10_000) {
    throw new AppError('UNPROCESSABLE', winnersOver100(formatBps(totalBps)));
  }
  const size = input.endRange - input.startRange + 1;
  if (size < prizes.length) {
    throw AppError.field('endRange', rangeTooSmall(prizes.length));
  }
  return prizes;
}

/** Inserts the opened game with its audit row; a second game in progress of the player is a 409. */
async function insertOpened(ctx: Context, round: NewRound, pin: BeaconPin | null): Promise<number> {
  const { caller } = ctx;
  try {
    return await ctx.db.transaction(async (tx) => {
      const roundId = await insertRound(tx, round);
      const chain = pin?.chainHash ?? null;
      const { code, protocol = DRAW_ALGORITHM, commitment } = round;
      await appendGameLeaves(tx, roundId, [{ event: 'opened', code, protocol, commitment, chain }]);
      await recordAudit(tx, {
        ...byCaller(caller),
        action: 'game.opened',
        targetKind: 'game',
        targetId: roundId,
        targetUserId: caller.id,
        details: {
          code: round.code,
          protocol: round.protocol,
          ...(pin && { beaconChain: pin.chainHash }),
          commitment: round.commitment,
          startRange: round.startRange,
          endRange: round.endRange,
          betAmount: formatCents(round.betAmount),
        },
      });
      return roundId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', SERVER_MESSAGES.gameInProgress);
    throw error;
  }
}

/** Locks the caller's own game for the rest of the transaction (someone else's is a 404). */
async function lockOwnRound(tx: Tx, caller: Caller, id: number): Promise<Round> {
  const round = await lockOwnRoundRow(tx, caller.id, id);
  if (!round) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return round;
}

/**
 * A person in a game: the same name and phone share one nonce, whatever the case, spacing, accents
 * and letters like `ø` of the name and the punctuation and `+`/`00` prefix of the phone
 * (docs/lot-draw-2.md#entries).
 */
const personKey = (e: Participant) => JSON.stringify([canonicalName(e.name), canonicalPhone(e.phoneNumber)]);

/**
 * Each entry's nonce (docs/lot-draw-2.md#entries): kept for a person already in the game, drawn at
 * random the moment a new person's first entry is added. Printed on their slips, it is what lets
 * them find their entries in the public proof — and what keeps anyone else from matching a hash
 * to a name and phone. A number already held by the same person keeps its own nonce, the one on
 * its printed slip, even where two people of an older canonical form are one person now.
 */
function withNonces(previous: StoredEntry[], entries: Participant[]): StoredEntry[] {
  const nonces = new Map<string, string>();
  const held = new Map<number, { key: string; nonce: string }>();
  for (const e of previous) {
    if (!e.nonce) continue;
    const key = personKey(e);
    if (!nonces.has(key)) nonces.set(key, e.nonce);
    held.set(e.number, { key, nonce: e.nonce });
  }
  return entries.map((entry) => {
    const key = personKey(entry);
    const kept = held.get(entry.number);
    let nonce = kept?.key === key ? kept.nonce : nonces.get(key);
    if (!nonce) {
      nonce = randomBytes(8).toString('hex');
      nonces.set(key, nonce);
    }
    return { number: entry.number, name: entry.name, phoneNumber: entry.phoneNumber, nonce, canonical: 2 };
  });
}

/** Replaces the participants while the game is open (not frozen). */
export async function replaceEntries(ctx: Context, id: number, input: GameEntriesInput): Promise<Game> {
  const { caller } = ctx;
  const game = await ctx.db.transaction(async (tx) => {
    const round = await lockOwnRound(tx, caller, id);
    if (round.status === 'drawing') {
      throw new AppError('CONFLICT', SERVER_MESSAGES.participantsLocked);
    }
    if (round.status !== 'open') throw ended(round);
    const outside = input.entries.find((e) => e.number < round.startRange || e.number > round.endRange);
    if (outside) {
      throw AppError.field('entries', numberOutsideRange(outside.number, round.startRange, round.endRange));
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

/**
 * A game the caller may act on, read without a lock: the shop's own, or — for its upline and an
 * admin — any game in their scope (someone else's out of scope is a 404, as a missing one).
 */
async function readActingRound(ctx: Context, id: number): Promise<RoundRow> {
  const row = await findReadableRoundRow(ctx.db, ctx.caller, id);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return row;
}

/** A step that found its game moved since it read it reads it again, this many times at most. */
const STEP_ATTEMPTS = 5;

/**
 * Runs a game step (a draw, a void) until it applies (decision 030): `step` answers undefined when
 * its statement found the game moved since it was read, and runs again with the next attempt; after
 * STEP_ATTEMPTS, 409.
 */
async function retryStep<T>(step: (attempt: number) => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < STEP_ATTEMPTS; attempt++) {
    const done = await step(attempt);
    if (done !== undefined) return done;
  }
  throw new AppError('CONFLICT', SERVER_MESSAGES.gameBusy);
}

export type DrawOutcomeAnswer =
  { kind: 'drawn'; result: DrawResult; replayed: boolean } | { kind: 'waiting'; waiting: DrawWaiting };

/**
 * Draws the next position (decision 066; docs/ARCHITECTURE.md#a-draw-step-by-step): the game
 * from memory or a read, `planDraw` decides, the plan runs, the answer. The first request freezes
 * the game (entries fixed, pool held, LOT-DRAW-2's round R named); a LOT-DRAW-1 game draws its
 * first number with it, a LOT-DRAW-2 game waits for R; the last draw settles. A position already
 * drawn answers its draw again. The shop starts the draw; once frozen, its upline and an admin may
 * finish it (decision 036).
 */
export async function drawNext(ctx: Context, id: number, position: number): Promise<DrawOutcomeAnswer> {
  return retryStep(async (attempt) => {
    // The game as this process last left it, when that is enough to write the next draw (decision
    // 052); the statement's conditions decide whether it still stands, else it is read.
    const known = attempt === 0 ? rememberedFor(ctx, id, position) : undefined;
    const row = known ?? (await readActingRound(ctx, id));
    if (!known) rememberDrawing(ctx, row);
    const request: DrawRequest = { caller: ctx.caller, position, remembered: known !== undefined };
    const plan = planDraw(row.round, request, await drawFacts(ctx, row.round, request));
    switch (plan.kind) {
      case 'replay': {
        const game = await withClaims(ctx.db, row.round, await toGame(row, ctx));
        return { kind: 'drawn', result: drawResult(game, position), replayed: true };
      }
      case 'refuse':
        throw plan.error;
      case 'wait':
        return { kind: 'waiting', waiting: await waitingAnswer(ctx, row, plan.round, plan.notYet) };
      case 'write':
        return runDrawPlan(ctx, row, plan, position);
    }
  });
}

/**
 * What `planDraw` needs to know besides the game, gathered only when the draw goes on: the entries
 * digest (computed at the freeze), round R (at the freeze, whether it is public already; later,
 * its randomness, stored or fetched now) and the number the seed draws.
 */
async function drawFacts(ctx: Context, round: Round, request: DrawRequest): Promise<DrawFacts> {
  if (checkDraw(round, request)) return { now: ctx.clock() };
  const freezing = round.status === 'open';
  const digest = freezing ? await digestOf(round, ctx.drawCrypto) : round.entriesDigest;
  if (!digest) throw new Error('a drawing game has no entries digest');
  const pin = beaconOf(round);
  const beacon = pin && (await beaconFacts(ctx, round, pin));
  // The step's time — a freeze's frozenAt — is read once its round R was checked (decision 076).
  const now = ctx.clock();
  if (beacon?.kind === 'freeze' || beacon?.kind === 'no freeze' || beacon?.kind === 'not yet')
    return { now, digest, beacon };
  const randomness = beacon?.randomness;
  const drawn = drawsOf(round).map((d) => d.number);
  const seed = seedHex(round, ctx.seeds);
  const { number } = await drawAt(seed, digest, request.position, round, drawn, randomness, ctx.drawCrypto);
  return { now, digest, beacon, number };
}

/**
 * Round R of a LOT-DRAW-2 game: named at the freeze from the beacon's evidence (or why the game may
 * not freeze now; decision 076), or its state since.
 */
async function beaconFacts(ctx: Context, round: Round, pin: BeaconPin): Promise<BeaconFacts> {
  if (round.status === 'open') return ctx.beacon.freezeEvidence(pin, ctx.clock);
  const target = round.beaconRound;
  if (target === null) throw new Error('a frozen LOT-DRAW-2 game has no beacon round');
  if (round.beaconRandomness !== null) return { kind: 'stored', round: target, randomness: round.beaconRandomness };
  const state = await ctx.beacon.round(pin, target);
  if (!state.ready) return { kind: 'not yet', round: target, notYet: state };
  return { kind: 'fetched', round: target, signature: state.round.signature, randomness: state.round.randomness };
}

/**
 * Runs a write plan: the draw's statement, then the answer from the game as read plus what the
 * statement wrote and answered (decision 052). Undefined when the game moved since it was read.
 */
async function runDrawPlan(
  ctx: Context,
  row: RoundRow,
  plan: Extract<DrawPlan, { kind: 'write' }>,
  position: number,
): Promise<DrawOutcomeAnswer | undefined> {
  const { round } = row;
  const answer = await runDrawLogged(ctx, round, plan.write);
  if (!answer?.locked) {
    forgetGame(ctx, round.id);
    return undefined;
  }
  if (!answer.drawn) {
    throw new AppError('UNPROCESSABLE', MESSAGES.insufficientBalance, {
      fieldErrors: { betAmount: MESSAGES.insufficientBalance },
    });
  }
  const { transactionId, saleId, shiftId, endedAt } = answer;
  const written: RoundRow = {
    ...row,
    ...(answer.player && { player: { id: row.player.id, ...answer.player } }),
    round: { ...round, ...plan.after, transactionId, saleId, shiftId, endedAt },
  };
  rememberDrawing(ctx, written);
  ctx.events.gameChanged(round.code);
  if (plan.waitFor !== null) return { kind: 'waiting', waiting: await frozenWaiting(ctx, written, plan.waitFor) };
  // The settling draw's claims are the ones its statement wrote and answered (decision 052).
  const drawnGame = await toGame(written, ctx);
  const game = answer.claims ? claimsOn(written.round, drawnGame, answer.claims) : drawnGame;
  if (game.status === 'settled') ctx.metrics.games.inc({ outcome: 'settled' });
  return { kind: 'drawn', result: drawResult(game, position), replayed: false };
}

/** A LOT-DRAW-2 game just frozen: R is fetched in the background at its time; the answer waits for it. */
async function frozenWaiting(ctx: Context, written: RoundRow, target: number): Promise<DrawWaiting> {
  const pin = beaconOf(written.round);
  if (!pin) throw new Error('a LOT-DRAW-1 game waits for no beacon round');
  ctx.beacon.prefetch(pin, target);
  const state = await ctx.beacon.round(pin, target);
  const notYet = state.ready ? { expectedAt: roundTimeMs(pin, target), retryAfterMs: 0, unreachable: false } : state;
  return waitingAnswer(ctx, written, target, notYet);
}

/**
 * Ends a game that is not settled. Before the freeze nothing was held or revealed: the shop (or
 * its upline, or an admin) discards it. After the freeze its outcome is fixed, so the shop can no
 * longer stop it (403): only its upline or an admin may void it, with a reason — the held pool goes
 * back to the shop's balance (the ledger row ends as `voided`) and the game stays on record with
 * the draws it would have made, none paid (decision 033). One statement, as a draw (decision 030).
 * After a winning draw the voider must say so (`voidAfterWinner`, decision 094).
 */
export async function voidGame(
  ctx: Context,
  id: number,
  input: { reason: string; afterWinner?: boolean },
): Promise<Game> {
  const { caller } = ctx;
  return retryStep(async () => {
    const { round } = await readActingRound(ctx, id);
    forgetGame(ctx, id);
    if (round.status !== 'open' && round.status !== 'drawing') throw ended(round);
    const frozen = round.status === 'drawing';
    const forbidden = gamesAccess.void(caller, round);
    if (forbidden) throw forbidden;
    if (frozen && round.transactionId === null) throw new Error('a drawing game has no held pool');
    const drawn = drawsOf(round).map((d) => d.number);
    const afterWinner = voidAfterWinner(round, input.afterWinner);
    const leaf = await endedLeaf(ctx, round, frozen ? 'voided' : 'discarded', drawn);
    const done = await runVoidLogged(ctx, round.id, leaf, {
      read: { id, status: round.status },
      userId: round.userId,
      actorId: caller.id,
      pool: poolOf(round),
      transactionId: round.transactionId,
      reason: input.reason,
      audit: {
        address: caller.address ?? null,
        details: {
          code: round.code,
          reason: input.reason,
          status: frozen ? 'voided' : 'discarded',
          ...(frozen && { returned: formatCents(poolOf(round)), drawn: drawn.length }),
          ...(afterWinner && { afterWinner }),
        },
      },
    });
    if (!done) return undefined;
    ctx.events.gameChanged(round.code);
    // R already due but never fetched (a shop that stopped before drawing): fetched now, so the
    // answer shows the draws the game would have made.
    if (frozen) await completeVoidedBeacon(ctx, { ...round, status: 'voided' });
    const game = await readGame(ctx, id);
    ctx.metrics.games.inc({ outcome: game.status });
    return game;
  });
}
