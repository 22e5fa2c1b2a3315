import { createHash } from 'node:crypto';
import { type Checkpoint, parseCheckpoint } from '@lot/domain/tlog/checkpoint';
import { base64Decode, base64Encode, bytesEqual, parseDecimal, TlogFormatError } from '@lot/domain/tlog/encoding';
import { EMPTY_ROOT, HASH_SIZE, verifyConsistency } from '@lot/domain/tlog/merkle';
import { formatNote, formatSignatureLine, type Note, parseNote, verifyNote } from '@lot/domain/tlog/note';
import {
  type CosignedCheckpoint,
  keepEvidence,
  logVerifiers,
  saveCosigned,
  type WitnessFiles,
} from './witness-files.ts';

/**
 * C2SP tlog-witness `add-checkpoint` (https://c2sp.org/tlog-witness): checks a log's new
 * checkpoint against what this witness last cosigned for its origin and, when it is consistent,
 * persists it and answers a cosignature/v1 line timestamped by the witness's own clock.
 *
 * The checks run in the spec's order and answer its statuses: 400 a malformed body, 404 an unknown
 * origin, 403 no valid signature of a trusted log key, 400 an old size above the checkpoint's,
 * 409 (`text/x.tlog.size`, the size last cosigned) an old size that is not the last cosigned one,
 * 422 an inconsistent checkpoint. Everything from the check to the persisted state is synchronous,
 * so two requests cannot interleave between them (the spec's rollback race).
 */

export type WitnessAnswer = {
  status: number;
  contentType: string;
  body: string;
  refusal?: Refusal;
  cosigned?: { origin: string; size: number; timestamp: number };
};

/** Why a request was refused, for the witness's own log (422s are evidence against the log). */
export type Refusal = { origin?: string; reason: string };

export type AddCheckpointRequest = { oldSize: number; proof: Uint8Array[]; note: Note; checkpoint: Checkpoint };

/** The spec's limit on consistency proof lines. */
export const MAX_PROOF_LINES = 63;

const TEXT = 'text/plain; charset=utf-8';
const answer = (status: number, body: string, refusal?: Refusal): WitnessAnswer => ({
  status,
  contentType: TEXT,
  body: body.endsWith('\n') ? body : `${body}\n`,
  ...(refusal ? { refusal } : {}),
});

/**
 * The request body: `old <size>`, up to 63 base64 hash lines, an empty line, a signed checkpoint.
 * Throws TlogFormatError naming what is wrong.
 */
export function parseAddCheckpoint(body: string): AddCheckpointRequest {
  const blank = body.indexOf('\n\n');
  if (blank < 0) throw new TlogFormatError('the body is an old size line, proof lines, an empty line and a checkpoint');
  const [oldLine, ...proofLines] = body.slice(0, blank).split('\n') as [string, ...string[]];
  const old = /^old (.*)$/s.exec(oldLine);
  if (!old) throw new TlogFormatError('the first line is "old <size>"');
  const oldSize = parseDecimal(old[1]!, 'the old size');
  if (proofLines.length > MAX_PROOF_LINES) throw new TlogFormatError(`more than ${MAX_PROOF_LINES} proof lines`);
  const proof = proofLines.map((line, i) => {
    const hash = base64Decode(line, `proof line ${i + 1}`);
    if (hash.length !== HASH_SIZE) throw new TlogFormatError(`proof line ${i + 1} is not a 32-byte hash`);
    return hash;
  });
  const note = parseNote(body.slice(blank + 2));
  return { oldSize, proof, note, checkpoint: parseCheckpoint(note.text) };
}

/**
 * Handles one add-checkpoint body (already decoded as UTF-8) at `now` (ms, the witness's clock):
 * persists before it answers 200.
 */
export function addCheckpoint(files: WitnessFiles, body: string, now: number): WitnessAnswer {
  let request: AddCheckpointRequest;
  try {
    request = parseAddCheckpoint(body);
  } catch (error) {
    if (!(error instanceof TlogFormatError)) throw error;
    return answer(400, `Malformed add-checkpoint request: ${error.message}.`, { reason: error.message });
  }
  const { oldSize, proof, note, checkpoint } = request;
  const { origin } = checkpoint;
  const log = files.config.logs.find((l) => l.origin === origin);
  if (!log) return answer(404, `Unknown log origin: ${origin}.`, { origin, reason: 'unknown origin' });
  const check = verifyNote(note, logVerifiers(log));
  if (!check.ok) {
    return answer(403, `The checkpoint is not signed by a trusted key of ${origin}: ${check.message}.`, {
      origin,
      reason: check.message,
    });
  }
  if (oldSize > checkpoint.size) {
    return answer(400, `The old size ${oldSize} is above the checkpoint size ${checkpoint.size}.`, {
      origin,
      reason: 'old size above the checkpoint size',
    });
  }
  const last = files.state[origin];
  const lastSize = last?.size ?? 0;
  if (oldSize !== lastSize) {
    return { status: 409, contentType: 'text/x.tlog.size', body: `${lastSize}\n` };
  }
  const lastRoot = last ? base64Decode(last.rootHash) : EMPTY_ROOT;
  const emptyOk = checkpoint.size !== 0 || bytesEqual(checkpoint.rootHash, EMPTY_ROOT);
  if (!emptyOk || !verifyConsistency(oldSize, checkpoint.size, lastRoot, checkpoint.rootHash, proof)) {
    const reason = emptyOk
      ? `not consistent with the checkpoint of size ${lastSize} it cosigned`
      : 'a checkpoint of size 0 must have the root of the empty tree';
    const stamp = `${createHash('sha256').update(origin).digest('hex').slice(0, 16)}-${checkpoint.size}-${now}.txt`;
    const kept = keepEvidence(files, stamp, body);
    return answer(422, `The checkpoint of ${origin} at size ${checkpoint.size} is ${reason}.`, {
      origin,
      reason: kept ? `${reason} (request kept in ${kept})` : reason,
    });
  }
  // Never a time before the last cosignature of this log: a clock set back cannot date a larger
  // tree before a smaller one (decision 078). Never zero either (the spec forbids it).
  const timestamp = Math.max(Math.floor(now / 1000), last?.timestamp ?? 1, 1);
  const cosignature = files.cosigner.cosign(note.text, timestamp);
  const logSignatures = check.note.verified.map((v) => v.signature);
  const entry: CosignedCheckpoint = {
    size: checkpoint.size,
    rootHash: base64Encode(checkpoint.rootHash),
    checkpoint: formatNote({ text: note.text, signatures: [...logSignatures, cosignature] }),
    timestamp,
  };
  saveCosigned(files, origin, entry);
  return { ...answer(200, formatSignatureLine(cosignature)), cosigned: { origin, size: checkpoint.size, timestamp } };
}
