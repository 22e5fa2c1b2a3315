import type { WitnessConfig } from '../../config.ts';
import type { AppContext } from '../../lib/context.ts';
import { rootOf, type LogHead } from '../../lib/game-log.ts';
import { submitCheckpoint, type RoundAnswer, type WitnessRound } from '../../lib/witness-client.ts';
import { consistencyProofOf } from '../log/log-proofs.ts';
import { readLogHead } from '../log/log.repository.ts';

/**
 * The witnesses' rounds (decision 093): a process sends its witnesses one checkpoint at a time, to
 * every witness at once. A freeze whose leaf the round in flight holds takes its cosignatures from
 * it; a freeze whose leaf came after waits for it to end and is in the next one, signed from the
 * largest head the waiting freezes appended, which holds all their leaves. So freezes at once share one round trip to each witness instead of crossing
 * there (each crossing a 409 and another send), and a freeze waits at most for the round before
 * its own. A cosignature on a checkpoint of size N proves every leaf below N was in the log when
 * the witness signed, so each freeze keeps that checkpoint and its leaf's inclusion proof in it.
 */

/** What one witness did, as the refusal says it. */
export type Outcome = { witness: WitnessConfig; answer: RoundAnswer };
/** A round as one freeze saw it: the checkpoint (size, signed note) and what each witness answered. */
export type Asked = { size: number; note: string; outcomes: Outcome[] };

/** How long a witness may take at most; less when round R leaves less room. */
export const WITNESS_TIMEOUT_MS = 5_000;
/** How many rounds holding its leaf a freeze takes part in when a witness has cosigned a later checkpoint meanwhile. */
const WITNESS_ROUNDS = 3;
/**
 * How many times one checkpoint is sent to a witness: a 409 names the size it has, and freezes in
 * other processes can move it again before the next send arrives.
 */
const WITNESS_SENDS = 4;

/**
 * The cosignatures of a checkpoint that holds leaf `index`, from the rounds this process sends,
 * until `deadline` (ms): taken again, up to WITNESS_ROUNDS rounds in all, while short of `enough`
 * and a witness answered that it cosigned a later checkpoint (another process's freeze got there
 * first; the next round is signed from the log's head read back, which holds that one too).
 */
export async function cosignaturesFor(
  ctx: AppContext,
  own: { index: number; head: LogHead },
  deadline: number,
  enough: (asked: Asked) => boolean,
): Promise<Asked> {
  const { rounds } = ctx.witnesses;
  const { index } = own;
  for (let taken = 0; ;) {
    // The round in flight, if it holds the leaf (and is not ending for want of anyone waiting);
    // else, once it ends, the next one holds it. No round in flight: this freeze starts one.
    const flying = rounds.inFlight;
    const round = flying ?? startRound(ctx, own.head);
    const holds = round.size > index && !round.abort.signal.aborted;
    if (!holds) awaitNextRound(ctx, own.head);
    const waited = await waitFor(ctx, round, deadline, holds);
    // Out of time: what the witnesses answered of a round holding the leaf; nothing of another.
    if (waited !== 'ended') return late(askedOf(ctx, holds ? round : { ...round, answers: new Map() }), waited);
    if (!holds) continue;
    if (round.error) throw round.error;
    taken++;
    const asked = askedOf(ctx, round);
    if (
      enough(asked) ||
      taken >= WITNESS_ROUNDS ||
      !asked.outcomes.some((o) => o.answer.kind === 'later') ||
      asked.outcomes.some((o) => o.answer.kind === 'fork')
    )
      return asked;
  }
}

const failed = (reason: string): RoundAnswer => ({ kind: 'failed', reason });
/** A witness that has not answered the round (yet). */
const NO_ANSWER = 'no answer';

const askedOf = (ctx: AppContext, round: WitnessRound): Asked => ({
  size: round.size,
  note: round.note,
  outcomes: ctx.witnesses.list.map((witness) => ({
    witness,
    answer: round.answers.get(witness.vkey) ?? failed(NO_ANSWER),
  })),
});

/**
 * Waits for the round until `deadline`: `ended`, or why not (no answer in the time). The last
 * freeze whose leaf it holds to give up on it ends it (`holds`: this one's leaf).
 */
async function waitFor(
  ctx: AppContext,
  round: WitnessRound,
  deadline: number,
  holds: boolean,
): Promise<'ended' | string> {
  const ms = deadline - ctx.clock();
  if (ms <= 0) return 'round R comes too soon to be cosigned 1 s before it';
  const waiting = holds ? 1 : 0;
  round.waiting += waiting;
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    round.done.then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  round.waiting -= waiting;
  if (ended) return 'ended';
  if (holds && round.waiting === 0) round.abort.abort();
  return `no answer within ${ms} ms`;
}

/** A round as a freeze out of time sees it: each witness that did not answer, failed for `reason`. */
const late = (asked: Asked, reason: string): Asked => ({
  ...asked,
  outcomes: asked.outcomes.map((o) =>
    o.answer.kind === 'failed' && o.answer.reason === NO_ANSWER ? { ...o, answer: failed(reason) } : o,
  ),
});

/** The next round signs at least this head: a freeze waits for it, or a witness named a later size. */
function awaitNextRound(ctx: AppContext, head: LogHead): void {
  const { rounds } = ctx.witnesses;
  if (!rounds.next || head.size > rounds.next.size) rounds.next = head;
}

/**
 * A round from the largest head appended by the freezes that wait for it (the tree as each
 * transaction wrote it, not read back), or read back since a witness named a later size: the
 * checkpoint signed, sent to every witness at once.
 */
function startRound(ctx: AppContext, own: LogHead): WitnessRound {
  const { rounds } = ctx.witnesses;
  const head = rounds.next && rounds.next.size > own.size ? rounds.next : own;
  rounds.next = null;
  const note = ctx.gameLog.signCheckpoint(head.size, rootOf(head));
  const round: WitnessRound = {
    size: head.size,
    note,
    answers: new Map(),
    done: Promise.resolve(),
    waiting: 0,
    abort: new AbortController(),
  };
  const checkpoint = { size: head.size, note, checkpointText: note.slice(0, note.indexOf('\n\n') + 1) };
  round.done = Promise.all(
    ctx.witnesses.list.map(async (witness) =>
      round.answers.set(witness.vkey, await witnessOne(ctx, witness, checkpoint, round.abort.signal)),
    ),
  ).then(
    () => {},
    (error: unknown) => {
      round.error = error;
    },
  );
  // Ended: the next freeze to come starts the next round (before anyone waiting resumes).
  round.done = round.done.finally(() => {
    rounds.inFlight = null;
  });
  rounds.inFlight = round;
  return round;
}

/**
 * One witness: the checkpoint from the size it last cosigned; on a 409, again from the size it
 * names (up to WITNESS_SENDS sends in all), within WITNESS_TIMEOUT_MS. A size above the
 * checkpoint's is a later checkpoint of this log when the log holds that many leaves now (its
 * consistency is the witness's to check on the next request: a 422 if the log forked), and the
 * next round is signed from the head read now; a fork when the log holds fewer.
 */
async function witnessOne(
  ctx: AppContext,
  witness: WitnessConfig,
  checkpoint: { size: number; note: string; checkpointText: string },
  signal: AbortSignal,
): Promise<RoundAnswer> {
  const { sizes } = ctx.witnesses.rounds;
  const deadline = ctx.clock() + WITNESS_TIMEOUT_MS;
  let oldSize = Math.min(sizes.get(witness.vkey) ?? 0, checkpoint.size);
  for (let sent = 0; ; sent++) {
    const proof = await consistencyProofOf(ctx.db, oldSize, checkpoint.size);
    const answer = await submitCheckpoint(
      witness,
      { oldSize, proof, signedCheckpoint: checkpoint.note, checkpointText: checkpoint.checkpointText },
      Math.max(1, deadline - ctx.clock()),
      signal,
    );
    if (answer.kind === 'cosigned') sizes.set(witness.vkey, checkpoint.size);
    if (answer.kind !== 'conflict') return answer;
    if (answer.size > checkpoint.size) {
      const head = await readLogHead(ctx.db);
      if (answer.size > head.size)
        return {
          kind: 'fork',
          reason: `it cosigned ${answer.size} leaves and this log has ${head.size} (a database restored from an older backup?)`,
        };
      sizes.set(witness.vkey, answer.size);
      awaitNextRound(ctx, { size: head.size, edge: head.edge });
      return { kind: 'later', size: answer.size };
    }
    if (sent + 1 >= WITNESS_SENDS)
      return { kind: 'failed', reason: `answered 409 ${WITNESS_SENDS} times (its size ${answer.size})` };
    sizes.set(witness.vkey, answer.size);
    oldSize = answer.size;
  }
}
