import { AppError } from '@lot/domain/errors';
import type { FreezeRefusal } from '@lot/domain/freeze-round';
import { drawInOrder, FREEZE_REFUSED, gameEnded } from '@lot/domain/server-messages';
import { heldGameDescription, playedGameDescription, settleGame } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import { formatCents } from '@lot/domain/money';
import type { Caller } from '../../lib/caller.ts';
import { gamesAccess } from './games.access.ts';
import { drawsOf, entriesOf, poolOf, prizesOf, type Round, type StoredDraw } from './games.repository.ts';
import type { DrawWrite, StepAudit } from './draw.repository.ts';

/**
 * What a draw request does, decided from the game as read (or remembered) and what the request
 * gathered before (decision 066): a pure function, no database, no beacon, no clock of its own.
 * docs/ARCHITECTURE.md#a-draw-step-by-step has its table.
 */

/** Who asks for which position; `remembered` when the game came from the draw's memory, not a read. */
export type DrawRequest = { caller: Caller; position: number; remembered: boolean };

/** When round R is expected and when to ask again (`DrawBeacon.round`'s answer before R exists). */
export type NotYet = { expectedAt: number; retryAfterMs: number; unreachable: boolean };

/** What the request learnt of the game's beacon round R (LOT-DRAW-2 only). */
export type BeaconFacts =
  /** The freeze names R, after L, the latest round public just before it (decision 076). */
  | { kind: 'freeze'; round: number; latest: number }
  /** The game may not freeze now: why (decision 076). */
  | { kind: 'no freeze'; reason: FreezeRefusal }
  /** R's randomness, stored with the game by an earlier draw. */
  | { kind: 'stored'; round: number; randomness: string }
  /** R, fetched and verified now: this draw stores it with the game. */
  | { kind: 'fetched'; round: number; signature: string; randomness: string }
  /** R does not exist yet (or no relay answered it). */
  | { kind: 'not yet'; round: number; notYet: NotYet };

/**
 * What the plan needs besides the game and the request, gathered before it (nothing for a replay
 * or a refusal): the request's time (`ctx.clock`), the entries digest (the stored one, or the one
 * the freeze fixes), round R, and the number the seed draws for the position when it draws one.
 */
export type DrawFacts = { now: number; digest?: string | null; beacon?: BeaconFacts | null; number?: number };

/** The game as the write leaves it: the read's round with these columns replaced (decision 052). */
export type RoundAfter = Pick<Round, 'status' | 'draws' | 'entriesDigest'> &
  Partial<Pick<Round, 'frozenAt' | 'beaconRound' | 'beaconLatestRound' | 'beaconSignature' | 'beaconRandomness'>>;

export type DrawPlan =
  /** The position is drawn already: its draw is answered again (`Idempotent-Replayed`). */
  | { kind: 'replay' }
  /** Refused: nothing is written. */
  | { kind: 'refuse'; error: AppError }
  /** LOT-DRAW-2 before round R exists: nothing is written, the answer says when to ask again (202). */
  | { kind: 'wait'; round: number; notYet: NotYet }
  /**
   * One statement: the freeze, a draw, or both, settling on the last position. `after` is the game
   * as it leaves it; `waitFor` is R when the write is a LOT-DRAW-2 freeze, whose answer is a wait.
   */
  | { kind: 'write'; write: DrawWrite; after: RoundAfter; waitFor: number | null };

const refuse = (error: AppError): DrawPlan => ({ kind: 'refuse', error });

/** A game whose draw may go on: open (not yet frozen) or drawing. */
const inPlay = (round: Round): round is Round & { status: 'open' | 'drawing' } =>
  round.status === 'open' || round.status === 'drawing';

/**
 * The answer that needs nothing but the game and the request: a replay or a refusal, in the order
 * they are checked; undefined when the draw goes on (then the request gathers its facts).
 */
export function checkDraw(round: Round, { caller, position }: DrawRequest): DrawPlan | undefined {
  const drawn = drawsOf(round).length;
  const forbidden = gamesAccess.start(caller, round);
  if (forbidden) return refuse(forbidden);
  if (position <= drawn) return { kind: 'replay' };
  if (drawn >= prizesOf(round).length) return refuse(new AppError('CONFLICT', MESSAGES.allWinnersDrawn));
  if (!inPlay(round)) return refuse(ended(round));
  if (position !== drawn + 1) {
    return refuse(new AppError('CONFLICT', drawInOrder(drawn + 1)));
  }
  if (round.status === 'open' && entriesOf(round).length === 0) {
    return refuse(new AppError('UNPROCESSABLE', MESSAGES.noNumbersSelected));
  }
  return undefined;
}

/** The refusal of a step on a game that has ended. */
export function ended(round: Round): AppError {
  return new AppError('CONFLICT', gameEnded(round.status));
}

/** Decides a draw request (decision 066). */
export function planDraw(round: Round, request: DrawRequest, facts: DrawFacts): DrawPlan {
  const checked = checkDraw(round, request);
  if (checked) return checked;
  const { beacon } = facts;
  // No evidence that R is still to come (decision 076): freezing now could name a round whose
  // randomness someone — the seed's holder included — already has. Nothing is frozen or held.
  if (beacon?.kind === 'no freeze') return refuse(new AppError('UNAVAILABLE', FREEZE_REFUSED[beacon.reason]));
  // LOT-DRAW-2: nothing is drawn before round R exists and is verified.
  if (beacon?.kind === 'not yet') return { kind: 'wait', round: beacon.round, notYet: beacon.notYet };
  return writePlan(round, request, facts);
}

/** The write: what the statement checks and writes, its audit rows and, on the last position, the settlement. */
function writePlan(round: Round, request: DrawRequest, { now, digest, beacon, number }: DrawFacts): DrawPlan {
  if (!inPlay(round)) throw new Error('a draw planned on a game that has ended');
  if (!digest) throw new Error('a drawing game has no entries digest');
  const at = new Date(now);
  const freezing = round.status === 'open';
  const draws = drawsOf(round);
  const next: StoredDraw[] = number === undefined ? draws : [...draws, { number, drawnAt: at.toISOString() }];
  const settles = number !== undefined && next.length === prizesOf(round).length;
  const named = beacon?.kind === 'freeze' ? beacon : undefined;
  const freeze = freezing ? { at, beaconRound: named?.round ?? null, latestRound: named?.latest ?? null } : undefined;
  const fetched =
    beacon?.kind === 'fetched' ? { signature: beacon.signature, randomness: beacon.randomness } : undefined;
  const { caller } = request;
  const write: DrawWrite = {
    read: {
      id: round.id,
      status: round.status,
      drawn: draws.length,
      entries: round.entries,
      ...(request.remembered && { caller }),
    },
    userId: round.userId,
    actorId: caller.id,
    pool: poolOf(round),
    transactionId: round.transactionId,
    draws: next,
    digest,
    freeze,
    beacon: fetched,
    holdDescription: heldGameDescription(entriesOf(round).length),
    settlement: settles ? settlementOf(round, next) : undefined,
    audit: { address: caller.address ?? null, rows: auditRows(round, request.position, { digest, freeze, next }) },
  };
  const after: RoundAfter = {
    status: settles ? 'settled' : 'drawing',
    draws: next,
    entriesDigest: digest,
    ...(freeze && { frozenAt: freeze.at, beaconRound: freeze.beaconRound, beaconLatestRound: freeze.latestRound }),
    ...(fetched && { beaconSignature: fetched.signature, beaconRandomness: fetched.randomness }),
  };
  const waitFor = freezing && beacon?.kind === 'freeze' ? beacon.round : null;
  return { kind: 'write', write, after, waitFor };
}

/** The step's audit rows (decision 029), in order: the freeze, the draw, the settlement. */
function auditRows(
  round: Round,
  position: number,
  step: { digest: string; freeze: DrawWrite['freeze']; next: StoredDraw[] },
): StepAudit[] {
  const { freeze, next } = step;
  const pool = formatCents(poolOf(round));
  const drawn = next.length > drawsOf(round).length ? next[next.length - 1] : undefined;
  const rows: StepAudit[] = [];
  if (freeze) {
    rows.push({
      action: 'game.frozen',
      details: {
        code: round.code,
        protocol: round.protocol,
        entries: entriesOf(round).length,
        entriesDigest: step.digest,
        pool,
        frozenAt: freeze.at.toISOString(),
        ...(freeze.beaconRound !== null && { beaconRound: freeze.beaconRound }),
        ...(freeze.latestRound !== null && { latestRound: freeze.latestRound }),
      },
    });
  }
  if (drawn) rows.push({ action: 'game.drawn', details: { code: round.code, position, number: drawn.number } });
  if (drawn && next.length === prizesOf(round).length) {
    rows.push({ action: 'game.settled', details: { code: round.code, pool, numbers: next.map((d) => d.number) } });
  }
  return rows;
}

/** The last draw's settlement: the sales-history record and its winners; the held row completed. */
function settlementOf(round: Round, draws: StoredDraw[]): NonNullable<DrawWrite['settlement']> {
  const drawn = draws.map((d) => d.number);
  const entries = entriesOf(round).map((e) => ({ number: e.number, name: e.name, phoneNumber: e.phoneNumber }));
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
