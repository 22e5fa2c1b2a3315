import { createHash } from 'node:crypto';
import { base64Decode, base64Encode, bytesEqual, TlogFormatError } from '@lot/domain/tlog/encoding';
import { EMPTY_ROOT, verifyConsistency } from '@lot/domain/tlog/merkle';
import { formatNote, formatSignatureLine, verifyNote } from '@lot/domain/tlog/note';
import {
  type AddCheckpointRequest,
  parseAddCheckpointRequest,
  TLOG_SIZE_CONTENT_TYPE,
} from '@lot/domain/tlog/witness-protocol';
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

const TEXT = 'text/plain; charset=utf-8';
const answer = (status: number, body: string, refusal?: Refusal): WitnessAnswer => ({
  status,
  contentType: TEXT,
  body: body.endsWith('\n') ? body : `${body}\n`,
  ...(refusal ? { refusal } : {}),
});

/**
 * Handles one add-checkpoint body (already decoded as UTF-8) at `now` (ms, the witness's clock):
 * persists before it answers 200.
 */
export function addCheckpoint(files: WitnessFiles, body: string, now: number): WitnessAnswer {
  let request: AddCheckpointRequest;
  try {
    request = parseAddCheckpointRequest(body);
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
    return { status: 409, contentType: TLOG_SIZE_CONTENT_TYPE, body: `${lastSize}\n` };
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
