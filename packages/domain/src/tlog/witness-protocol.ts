import { type Checkpoint, parseCheckpoint } from './checkpoint.ts';
import { base64Decode, base64Encode, parseDecimal, TlogFormatError } from './encoding.ts';
import { HASH_SIZE } from './merkle.ts';
import { type Note, parseNote, parseSignatureLines, type NoteSignature } from './note.ts';

/**
 * The bodies of C2SP tlog-witness `add-checkpoint` (https://c2sp.org/tlog-witness), both ways: the
 * request a log sends (`old <size>`, consistency proof lines, an empty line, the signed
 * checkpoint), the 409 answer (`text/x.tlog.size`: the size the witness last cosigned) and the
 * 200 answer (cosignature lines). The witness (server/src/witness) and the log's client share them.
 */

/** The spec's limit on consistency proof lines. */
export const MAX_PROOF_LINES = 63;

/** The Content-Type of a 409 answer. */
export const TLOG_SIZE_CONTENT_TYPE = 'text/x.tlog.size';

export type AddCheckpointRequest = { oldSize: number; proof: Uint8Array[]; note: Note; checkpoint: Checkpoint };

/** The request body: old size line, proof lines, empty line, the signed checkpoint note as is. */
export function formatAddCheckpointRequest(
  oldSize: number,
  proof: readonly Uint8Array[],
  signedCheckpoint: string,
): string {
  if (!Number.isSafeInteger(oldSize) || oldSize < 0) throw new RangeError(`not a tree size: ${oldSize}`);
  if (proof.length > MAX_PROOF_LINES) throw new RangeError(`more than ${MAX_PROOF_LINES} proof hashes`);
  return `old ${oldSize}\n${proof.map((hash) => `${base64Encode(hash)}\n`).join('')}\n${signedCheckpoint}`;
}

/**
 * The request body, strictly: `old <size>`, up to 63 base64 32-byte hash lines, an empty line, a
 * signed checkpoint (parsed, its signatures not checked). Throws TlogFormatError naming the fault.
 */
export function parseAddCheckpointRequest(body: string): AddCheckpointRequest {
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

/** A 409 answer's body: the size the witness last cosigned, a decimal and a newline. */
export function parseTlogSize(body: string): number {
  if (!body.endsWith('\n')) throw new TlogFormatError('a tlog size ends with a newline');
  return parseDecimal(body.slice(0, -1), 'the size the witness last cosigned');
}

/** A 200 answer's body: one or more note signature lines (cosignatures). Throws TlogFormatError. */
export function parseCosignatureLines(body: string): NoteSignature[] {
  return parseSignatureLines(body);
}
