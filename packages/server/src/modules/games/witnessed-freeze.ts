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
 * 2. The checkpoint goes to every witness (tlog-witness add-checkpoint; a 409 is answered from the
 *    size the witness names, and one naming a later checkpoint of this log — a freeze at the same
 *    time got there first — has every witness asked again with the latest, decision 092).
 * 3. With a quorum in time, the freeze's own statement runs (pool held, R named) and keeps the
 *    leaf's index and the cosigned checkpoint with the game. Otherwise the leaf is marked an
 *    attempt, nothing is held, the game stays open, and the answer (503) names each witness that
 *    failed and why. A 422 — the log is not the one a witness saw (a database restored from an
 *    older backup, a rewritten log) — refuses every freeze from then on, until an admin names a new
 *    log (LOG_ORIGIN), and says so to the admin.
 */

/**
 * What one witness answered; `later`: it already cosigned a later checkpoint of this log than the
 * one sent (a freeze at the same time, in this process or another, got there first).
 */
type Answer = WitnessAnswer | { kind: 'later'; size: number };
/** What one witness did, as the refusal says it. */
type Outcome = { witness: WitnessConfig; answer: Answer };

/** How long a witness may take at most; less when round R leaves less room. */
export const WITNESS_TIMEOUT_MS = 5_000;
/** How many times the witnesses are asked when one has cosigned a later checkpoint meanwhile. */
const WITNESS_ROUNDS = 3;
/**
 * How many times one checkpoint is sent to a witness: a 409 names the size it has, and freezes at
 * the same time (in this process or another) can move it again before the next send arrives.
 */
const WITNESS_SENDS = 4;

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
  const due = roundTimeMs(pin, leaf.round ?? 0);
  // Counted: a cosignature timestamped (by the witness's clock) at least 1 s before R is published.
  const countedOf = (outcomes: Outcome[]) =>
    outcomes.filter((o) => o.answer.kind === 'cosigned' && o.answer.timestamp * 1000 + 1000 <= due);
  // A witness that cosigned a later checkpoint meanwhile holds the leaf too: short of a quorum, all
  // are asked again with the log's latest checkpoint, so every counted cosignature is on the one kept.
  // A witness has at most WITNESS_TIMEOUT_MS in all, and never past 1 s before R.
  const deadline = Math.min(ctx.clock() + WITNESS_TIMEOUT_MS, due - 1_000);
  let asked = await askWitnesses(ctx, deadline);
  for (
    let rounds = 1;
    rounds < WITNESS_ROUNDS &&
    countedOf(asked.outcomes).length < ctx.witnesses.quorum &&
    asked.outcomes.some((o) => o.answer.kind === 'later');
    rounds++
  )
    asked = await askWitnesses(ctx, deadline);
  const { note, outcomes } = asked;
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

/** The log's latest checkpoint, signed, sent to every witness at once: the note and what each answered. */
async function askWitnesses(ctx: AppContext, deadline: number): Promise<{ note: string; outcomes: Outcome[] }> {
  const head = await readLogHead(ctx.db);
  const note = ctx.gameLog.signCheckpoint(head.size, rootOf(head));
  const checkpointText = note.slice(0, note.indexOf('\n\n') + 1);
  const outcomes = await Promise.all(
    ctx.witnesses.list.map(async (witness) => ({
      witness,
      answer: await witnessOne(ctx, witness, { size: head.size, note, checkpointText }, deadline),
    })),
  );
  return { note, outcomes };
}

/**
 * One witness: the checkpoint from the size it last cosigned; on a 409, again from the size it
 * names (up to WITNESS_SENDS sends in all). A size above the checkpoint's is a later checkpoint of this log when the log holds that
 * many leaves now (its consistency is the witness's to check on the next request: a 422 if the log
 * forked), and a fork when the log holds fewer.
 */
async function witnessOne(
  ctx: AppContext,
  witness: WitnessConfig,
  checkpoint: { size: number; note: string; checkpointText: string },
  deadline: number,
): Promise<Answer> {
  let oldSize = Math.min(ctx.witnesses.sizes.get(witness.vkey) ?? 0, checkpoint.size);
  for (let sent = 0; ; sent++) {
    const timeoutMs = deadline - ctx.clock();
    if (timeoutMs <= 0) return { kind: 'failed', reason: 'round R comes too soon to be cosigned 1 s before it' };
    const proof = await consistencyProofOf(ctx.db, oldSize, checkpoint.size);
    const answer = await submitCheckpoint(
      witness,
      { oldSize, proof, signedCheckpoint: checkpoint.note, checkpointText: checkpoint.checkpointText },
      timeoutMs,
    );
    if (answer.kind === 'cosigned') ctx.witnesses.sizes.set(witness.vkey, checkpoint.size);
    if (answer.kind !== 'conflict') return answer;
    if (answer.size > checkpoint.size) {
      const now = (await readLogHead(ctx.db)).size;
      if (answer.size > now)
        return {
          kind: 'fork',
          reason: `it cosigned ${answer.size} leaves and this log has ${now} (a database restored from an older backup?)`,
        };
      ctx.witnesses.sizes.set(witness.vkey, answer.size);
      return { kind: 'later', size: answer.size };
    }
    if (sent + 1 >= WITNESS_SENDS)
      return { kind: 'failed', reason: `answered 409 ${WITNESS_SENDS} times (its size ${answer.size})` };
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
