import { roundTimeMs } from '@lot/domain/beacon';
import type { BeaconPin } from '@lot/domain/draw';
import { AppError } from '@lot/domain/errors';
import { freezeNotWitnessed, freezesRefusedForked } from '@lot/domain/server-messages';
import type { FrozenLeaf } from '@lot/domain/game-log';
import type { AppContext } from '../../lib/context.ts';
import { appendUnlessForked, markAttempt, recordLogFork } from '../../lib/game-log.ts';
import { runDraw, type DrawAnswer, type DrawWrite } from './draw.repository.ts';
import type { Round } from './games.repository.ts';
import { cosignaturesFor, WITNESS_TIMEOUT_MS, type Outcome } from './witness-rounds.ts';

/**
 * The witnessed freeze (decision 080): a LOT-DRAW-2 freeze with witnesses configured stands only
 * once a quorum of them cosigned a checkpoint holding its `frozen` leaf, each by its own clock at
 * least 1 s before round R is published.
 *
 * 1. The leaf is appended and committed first, the game untouched: a witness may cosign the
 *    checkpoint that holds it, so it is never taken back (a log that drops a leaf a witness saw is
 *    a fork to that witness for ever).
 * 2. A checkpoint that holds it goes to every witness (tlog-witness add-checkpoint; a 409 is
 *    answered from the size the witness names, and one naming a later checkpoint of this log — a
 *    freeze in another process got there first — has every witness asked again with the latest,
 *    decision 092). Freezes at once in this process share one round to the witnesses and its
 *    cosignatures (witness-rounds.ts, decision 093).
 * 3. With a quorum in time, the freeze's own statement runs (pool held, R named) and keeps the
 *    leaf's index and the cosigned checkpoint with the game. Otherwise the leaf is marked an
 *    attempt, nothing is held, the game stays open, and the answer (503) names each witness that
 *    failed and why. A 422 — the log is not the one a witness saw (a database restored from an
 *    older backup, a rewritten log) — refuses every freeze from then on, until an admin names a new
 *    log (LOG_ORIGIN), and says so to the admin.
 */

/** The cosigned checkpoint: the log's signed note with the counted witnesses' signature lines added. */
const cosignedNote = (note: string, lines: string[]) => note + lines.join('');

export async function runWitnessedFreeze(
  ctx: AppContext,
  round: Round,
  write: DrawWrite,
  leaf: FrozenLeaf,
  pin: BeaconPin,
): Promise<DrawAnswer | undefined> {
  const appended = await ctx.db.transaction((tx) => appendUnlessForked(tx, round.id, leaf));
  if ('forked' in appended) throw forkRefusal(appended.forked);
  const { first: index, head } = appended;
  const due = roundTimeMs(pin, leaf.round ?? 0);
  // Counted: a cosignature timestamped (by the witness's clock) at least 1 s before R is published.
  const countedOf = (outcomes: Outcome[]) =>
    outcomes.filter((o) => o.answer.kind === 'cosigned' && o.answer.timestamp * 1000 + 1000 <= due);
  // The witnesses have at most WITNESS_TIMEOUT_MS in all, and never past 1 s before R.
  const deadline = Math.min(ctx.clock() + WITNESS_TIMEOUT_MS, due - 1_000);
  const { note, outcomes } = await cosignaturesFor(
    ctx,
    { index, head },
    deadline,
    (asked) => countedOf(asked.outcomes).length >= ctx.witnesses.quorum,
  );
  const counted = countedOf(outcomes);
  const forked = outcomes.find((o) => o.answer.kind === 'fork');
  if (forked || counted.length < ctx.witnesses.quorum) {
    await markAttempt(ctx.db, index);
    if (forked) {
      const reason = `witness ${forked.witness.name} refused the game log: ${describe(forked)}`;
      await recordLogFork(ctx.db, reason);
      ctx.log.error({ witness: forked.witness.name }, reason);
      throw forkRefusal(reason);
    }
    throw new AppError(
      'UNAVAILABLE',
      freezeNotWitnessed(
        counted.length,
        ctx.witnesses.quorum,
        outcomes
          .filter((o) => !counted.includes(o))
          .map(describeWitness)
          .join('; '),
      ),
    );
  }
  const lines = counted.flatMap((o) => (o.answer.kind === 'cosigned' ? [o.answer.line] : []));
  const freeze = write.freeze && { ...write.freeze, log: { index, checkpoint: cosignedNote(note, lines) } };
  const answer = await runDraw(ctx.db, { ...write, ...(freeze && { freeze }) });
  if (!answer?.drawn) await markAttempt(ctx.db, index);
  return answer;
}

function describe({ answer }: Outcome): string {
  switch (answer.kind) {
    case 'cosigned':
      return `cosigned at ${new Date(answer.timestamp * 1000).toISOString()}, less than 1 s before round R`;
    case 'conflict':
      return `answered 409 (its size ${answer.size})`;
    case 'later':
      return `kept cosigning later checkpoints (its size ${answer.size}) than this freeze's`;
    case 'fork':
    case 'failed':
      return answer.reason;
  }
}

const describeWitness = (outcome: Outcome) => `${outcome.witness.name} ${describe(outcome)}`;

/** Every freeze refused after a witness said the log forked (decision 080), the cause named. */
const forkRefusal = (reason: string) => new AppError('UNAVAILABLE', freezesRefusedForked(reason));
