import { roundTimeMs } from '@lot/domain/beacon';
import type { BeaconPin } from '@lot/domain/draw';
import { AppError } from '@lot/domain/errors';
import { freezeNotWitnessed, freezesRefusedForked } from '@lot/domain/server-messages';
import type { FrozenLeaf } from '@lot/domain/game-log';
import type { WitnessConfig } from '../../config.ts';
import type { AppContext } from '../../lib/context.ts';
import { appendGameLeaves, logFork, markAttempt, recordLogFork, rootOf } from '../../lib/game-log.ts';
import { submitCheckpoint, type WitnessAnswer } from '../../lib/witness-client.ts';
import { runDraw, type DrawAnswer, type DrawWrite } from './draw.repository.ts';
import type { Round } from './games.repository.ts';
import { consistencyProofOf } from '../log/log-proofs.ts';
import { readLogHead } from '../log/log.repository.ts';

/**
 * The witnessed freeze (decision 080): a LOT-DRAW-2 freeze with witnesses configured stands only
 * once a quorum of them cosigned a checkpoint holding its `frozen` leaf, each by its own clock at
 * least 1 s before round R is published.
 *
 * 1. The leaf is appended and committed first, the game untouched: a witness may cosign the
 *    checkpoint that holds it, so it is never taken back (a log that drops a leaf a witness saw is
 *    a fork to that witness for ever).
 * 2. The checkpoint goes to every witness (tlog-witness add-checkpoint; a 409 is answered once
 *    from the size the witness names).
 * 3. With a quorum in time, the freeze's own statement runs (pool held, R named) and keeps the
 *    leaf's index and the cosigned checkpoint with the game. Otherwise the leaf is marked an
 *    attempt, nothing is held, the game stays open, and the answer (503) names each witness that
 *    failed and why. A 422 — the log is not the one a witness saw (a database restored from an
 *    older backup, a rewritten log) — refuses every freeze from then on, until an admin names a new
 *    log (LOG_ORIGIN), and says so to the admin.
 */

/** What one witness did, as the refusal says it. */
type Outcome = { witness: WitnessConfig; answer: WitnessAnswer };

/** How long a witness may take at most; less when round R leaves less room. */
export const WITNESS_TIMEOUT_MS = 5_000;

/** The cosigned checkpoint: the log's signed note with the counted witnesses' signature lines added. */
const cosignedNote = (note: string, lines: string[]) => note + lines.join('');

export async function runWitnessedFreeze(
  ctx: AppContext,
  round: Round,
  write: DrawWrite,
  leaf: FrozenLeaf,
  pin: BeaconPin,
): Promise<DrawAnswer | undefined> {
  const fork = await logFork(ctx.db);
  if (fork) throw forkRefusal(fork.reason);
  const index = await ctx.db.transaction((tx) => appendGameLeaves(tx, round.id, [leaf]));
  const head = await readLogHead(ctx.db);
  const note = ctx.gameLog.signCheckpoint(head.size, rootOf(head));
  const checkpointText = note.slice(0, note.indexOf('\n\n') + 1);
  const due = roundTimeMs(pin, leaf.round ?? 0);
  const timeout = Math.min(WITNESS_TIMEOUT_MS, due - 1_000 - ctx.clock());
  const outcomes = await Promise.all(
    ctx.witnesses.list.map(async (witness) => ({
      witness,
      answer: await witnessOne(ctx, witness, { size: head.size, note, checkpointText }, timeout),
    })),
  );
  // Counted: a cosignature timestamped (by the witness's clock) at least 1 s before R is published.
  const counted = outcomes.filter((o) => o.answer.kind === 'cosigned' && o.answer.timestamp * 1000 + 1000 <= due);
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

/** One witness: the checkpoint from the size it last cosigned; on a 409, once more from the size it names. */
async function witnessOne(
  ctx: AppContext,
  witness: WitnessConfig,
  checkpoint: { size: number; note: string; checkpointText: string },
  timeoutMs: number,
): Promise<WitnessAnswer> {
  if (timeoutMs <= 0) return { kind: 'failed', reason: 'round R comes too soon to be cosigned 1 s before it' };
  let oldSize = Math.min(ctx.witnesses.sizes.get(witness.vkey) ?? 0, checkpoint.size);
  for (let sent = 0; ; sent++) {
    const proof = await consistencyProofOf(ctx.db, oldSize, checkpoint.size);
    const answer = await submitCheckpoint(
      witness,
      { oldSize, proof, signedCheckpoint: checkpoint.note, checkpointText: checkpoint.checkpointText },
      timeoutMs,
    );
    if (answer.kind === 'cosigned') ctx.witnesses.sizes.set(witness.vkey, checkpoint.size);
    if (answer.kind !== 'conflict') return answer;
    if (answer.size > checkpoint.size)
      return {
        kind: 'fork',
        reason: `it cosigned ${answer.size} leaves and this log has ${checkpoint.size} (a database restored from an older backup?)`,
      };
    if (sent >= 1) return { kind: 'failed', reason: `answered 409 twice (its size ${answer.size})` };
    ctx.witnesses.sizes.set(witness.vkey, answer.size);
    oldSize = answer.size;
  }
}

function describe({ answer }: Outcome): string {
  switch (answer.kind) {
    case 'cosigned':
      return `cosigned at ${new Date(answer.timestamp * 1000).toISOString()}, less than 1 s before round R`;
    case 'conflict':
      return `answered 409 (its size ${answer.size})`;
    case 'fork':
    case 'failed':
      return answer.reason;
  }
}

const describeWitness = (outcome: Outcome) => `${outcome.witness.name} ${describe(outcome)}`;

/** Every freeze refused after a witness said the log forked (decision 080), the cause named. */
const forkRefusal = (reason: string) => new AppError('UNAVAILABLE', freezesRefusedForked(reason));
