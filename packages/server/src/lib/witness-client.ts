import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { verifyCosignature } from '@lot/domain/tlog/cosignature';
import { parseSignatureLines, formatSignatureLine, type NoteSignature } from '@lot/domain/tlog/note';
import { formatAddCheckpointRequest, parseTlogSize } from '@lot/domain/tlog/witness-protocol';
import type { WitnessConfig } from '../config.ts';
import type { LogHead } from './game-log.ts';
import { nodeEd25519 } from './note-signer.ts';

/**
 * The log's side of C2SP tlog-witness `add-checkpoint` (decision 080): a checkpoint sent to one
 * witness with the consistency proof from the size it last cosigned, and what it answered. A 409
 * names the size the witness has: the caller sends again from there.
 */

/** What one witness answered, as the freeze decides on it. */
export type WitnessAnswer =
  | { kind: 'cosigned'; signature: NoteSignature; line: string; timestamp: number }
  | { kind: 'conflict'; size: number }
  | { kind: 'fork'; reason: string }
  | { kind: 'failed'; reason: string };

/**
 * One add-checkpoint request: at most `timeoutMs`, then it counts as failed; sooner when `signal`
 * aborts (nobody waits for the answer any more).
 */
export async function submitCheckpoint(
  witness: WitnessConfig,
  request: { oldSize: number; proof: readonly Uint8Array[]; signedCheckpoint: string; checkpointText: string },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<WitnessAnswer> {
  const ends = AbortSignal.any([AbortSignal.timeout(Math.max(1, timeoutMs)), ...(signal ? [signal] : [])]);
  let answer: { status: number; body: string };
  try {
    answer = await post(
      `${witness.url}/add-checkpoint`,
      formatAddCheckpointRequest(request.oldSize, request.proof, request.signedCheckpoint),
      ends,
    );
  } catch {
    return { kind: 'failed', reason: ends.aborted ? `no answer within ${timeoutMs} ms` : 'unreachable' };
  }
  return readAnswer(witness, answer.status, answer.body, request.checkpointText);
}

/**
 * A POST with Node's own client and its keep-alive agent, which reuses the connection to the
 * witness from one freeze to the next: fetch's costs a few milliseconds more a request (decision
 * 093). A redirect is answered as it comes, a status the witness does not use.
 */
function post(url: string, body: string, signal: AbortSignal): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const headers = { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) };
    const sent = send(url, { method: 'POST', headers, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
      response.on('close', () => {
        if (!response.complete) reject(new Error('the answer was cut off'));
      });
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

function readAnswer(witness: WitnessConfig, status: number, body: string, checkpointText: string): WitnessAnswer {
  const said = body.trim().slice(0, 200);
  if (status === 409) {
    try {
      return { kind: 'conflict', size: parseTlogSize(body) };
    } catch {
      return { kind: 'failed', reason: 'answered 409 without the size it has' };
    }
  }
  if (status === 422) return { kind: 'fork', reason: said || 'the log is not consistent with what it saw' };
  if (status !== 200) return { kind: 'failed', reason: `answered ${status}${said ? `: ${said}` : ''}` };
  let signatures: NoteSignature[];
  try {
    signatures = parseSignatureLines(body);
  } catch {
    return { kind: 'failed', reason: 'answered 200 without cosignature lines' };
  }
  for (const signature of signatures) {
    const checked = verifyCosignature(signature, checkpointText, witness.vkey, nodeEd25519);
    if (checked)
      return { kind: 'cosigned', signature, line: formatSignatureLine(signature), timestamp: checked.timestamp };
  }
  return { kind: 'failed', reason: 'answered a cosignature that does not verify with its key' };
}

/**
 * What one witness answered in a round; `later`: it already cosigned a later checkpoint of this log
 * than the one sent (a freeze in another process got there first).
 */
export type RoundAnswer = WitnessAnswer | { kind: 'later'; size: number };

/**
 * One round of submissions (decision 093): the log's checkpoint of `size` leaves, signed (`note`),
 * sent to every witness at once. It holds every leaf below `size`, so every freeze whose leaf it
 * holds takes its cosignatures from it.
 */
export type WitnessRound = {
  size: number;
  note: string;
  /** What each witness answered so far, by vkey. */
  answers: Map<string, RoundAnswer>;
  /** Settles once every witness answered (never rejects: a failure to read the log is `error`). */
  done: Promise<void>;
  error?: unknown;
  /** How many freezes wait on it: when the last gives up (its round R too near), the round ends. */
  waiting: number;
  abort: AbortController;
};

/**
 * This process's submissions to its witnesses (decision 093): one round in flight at a time; the
 * least head the next round signs (the largest a freeze waiting for it appended, or read back
 * after a witness named a later size); and the size each witness last cosigned as this process
 * knows it (a 409 corrects it).
 */
export type WitnessRounds = {
  inFlight: WitnessRound | null;
  next: LogHead | null;
  sizes: Map<string, number>;
};

export const noWitnessRounds = (): WitnessRounds => ({ inFlight: null, next: null, sizes: new Map() });
