import { drawAt, entriesDigest, entryHash, toHex, type DrawCrypto } from '@lot/domain/draw';
import { roundTimeMs } from '@lot/domain/beacon';
import { AppError } from '@lot/domain/errors';
import { formatBps, prizeFor, type Participant } from '@lot/domain/game';
import { maskName, maskPhone } from '@lot/domain/mask';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { formatCents } from '@lot/domain/money';
import type {
  ClaimStatusInfo,
  DrawResult,
  DrawWaiting,
  Game,
  GameBeacon,
  GameDraw,
  GameProof,
  GameStatus,
} from '@lot/domain/schemas/games';
import type { AppContext } from '../../lib/context.ts';
import type { SeedBox } from '../../lib/seed-box.ts';
import { freezeEvidence } from '../log/log-proofs.ts';
import { claimStatusesOf } from '../claims/claims.repository.ts';
import {
  beaconOf,
  drawsOf,
  entriesOf,
  findRoundRow,
  findRoundRowByCode,
  poolOf,
  prizesOf,
  storeVoidedBeacon,
  type Round,
  type RoundRow,
  type Tx,
} from './games.repository.ts';

/**
 * A game as the API shows it (the `Game` of @lot/domain/schemas/games), built from its row: what a
 * read, a draw's answer, the proof and the display share.
 */

const ENDED: readonly GameStatus[] = ['settled', 'voided', 'discarded'];

/** The seed, opened with SEED_KEY (decision 034): only for a draw, or to reveal it once the game has ended. */
export const seedHex = (round: Round, seeds: SeedBox) => toHex(seeds.open(round.code, round.seed));

/** What reading a game needs besides the database: the seed key (decision 034) and the draw's hashes. */
export type Reading = Pick<AppContext, 'seeds' | 'drawCrypto'>;

/** The winner of the k-th draw (k from 1) and what it pays. */
function drawOutcome(round: Round, index: number, number: number) {
  const entry = entriesOf(round).find((e) => e.number === number) ?? null;
  const prize = prizesOf(round)[index];
  return { winner: entry, prizeAmount: entry && prize ? prizeFor(poolOf(round), prize.percentBps) : 0 };
}

/**
 * The winners the game's draws have announced so far and what their prizes add up to: what an
 * upline voiding the game takes back from them (the void dialog says so).
 */
export function announcedWinners(round: Round): { count: number; amount: number } {
  let count = 0;
  let amount = 0;
  for (const [index, draw] of drawsOf(round).entries()) {
    const { winner, prizeAmount } = drawOutcome(round, index, draw.number);
    if (!winner) continue;
    count += 1;
    amount += prizeAmount;
  }
  return { count, amount };
}

/**
 * A void after a draw named a winner (decision 094): refused (422, nothing changes) unless the
 * voider says so with `afterWinner`; then what was announced, for the void's audit row (the bell
 * and the dashboards read it there). Null when no draw named a winner.
 */
export function voidAfterWinner(
  round: Round,
  afterWinner: boolean | undefined,
): { winners: number; prizes: string } | null {
  const announced = announcedWinners(round);
  if (announced.count === 0) return null;
  if (afterWinner !== true) {
    throw new AppError('WINNER_ANNOUNCED', SERVER_MESSAGES.voidAfterWinnerRequired, {
      fieldErrors: { afterWinner: SERVER_MESSAGES.voidAfterWinnerRequired },
    });
  }
  return { winners: announced.count, prizes: formatCents(announced.amount) };
}

export const plainEntry = (e: Participant) => ({ number: e.number, name: e.name, phoneNumber: e.phoneNumber });

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
    latestRound: round.beaconLatestRound,
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

export async function toGame({ round, player: user, voider: by }: RoundRow, ctx: Reading): Promise<Game> {
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
export async function withClaims(db: AppContext['db'] | Tx, round: Round, game: Game): Promise<Game> {
  if (round.status !== 'settled') return game;
  return claimsOn(round, game, await claimStatusesOf(db, round.id));
}

/** `game`'s draws, each with its prize's claim from `claims` (by prize position). */
export function claimsOn(round: Round, game: Game, claims: Map<number, ClaimStatusInfo>): Game {
  const prizes = prizesOf(round);
  const claimOf = (d: GameDraw) => {
    const prize = prizes[d.position - 1];
    return { ...d, claim: (prize && claims.get(prize.position)) ?? null };
  };
  return { ...game, draws: game.draws.map(claimOf) };
}

export async function readGame(ctx: AppContext, id: number, db: AppContext['db'] | Tx = ctx.db): Promise<Game> {
  const row = await findRoundRow(db, id);
  if (!row) throw new AppError('NOT_FOUND', MESSAGES.gameNotFound);
  return withClaims(db, row.round, await toGame(row, ctx));
}

/** The entries digest the freeze fixes and the proof shows (docs/lot-draw-2.md#entries). */
export async function digestOf(round: Round, crypto: DrawCrypto): Promise<string> {
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

/** A draw's answer: the position's draw in the game as it now stands. */
export function drawResult(game: Game, position: number): DrawResult {
  const draw = game.draws[position - 1];
  if (!draw) throw new Error(`draw ${position} missing`);
  return { position, number: draw.number, winner: draw.winner, prizeAmount: draw.prizeAmount, game };
}

/** The answer of a draw that waits for round R (decision 036): when to ask again, and the game. */
export async function waitingAnswer(
  ctx: Reading,
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

/**
 * A LOT-DRAW-2 game voided before round R was fetched: once R exists, it is fetched (verified) and
 * kept with the game, so the proof can show the outcome the game would have had.
 */
export async function completeVoidedBeacon(ctx: AppContext, round: Round): Promise<Round> {
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
  const log = await freezeEvidence(ctx, round);
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
    ...(log && { log }),
  };
}
