import { base64Decode, base64Encode, hasControl, parseDecimal, TlogFormatError } from './encoding.ts';
import { HASH_SIZE } from './merkle.ts';

/**
 * C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the text of a signed note that names a
 * log (origin), its size and its RFC 6962 root hash, then optional extension lines. Strict both ways:
 * what formatCheckpoint writes, parseCheckpoint reads back identically, and nothing else is read.
 */

export type Checkpoint = {
  origin: string;
  size: number;
  rootHash: Uint8Array;
  /** Opaque, non-empty extension lines (not recommended by the spec; LOT writes none). */
  extensions?: string[];
};

/** The checkpoint's note text: origin, size, base64 root, extensions, each line ending in a newline. */
export function formatCheckpoint({ origin, size, rootHash, extensions = [] }: Checkpoint): string {
  if (origin.length === 0 || hasControl(origin, false)) {
    throw new TlogFormatError('a checkpoint origin is one non-empty line');
  }
  if (!Number.isSafeInteger(size) || size < 0) throw new TlogFormatError(`not a tree size: ${size}`);
  if (rootHash.length !== HASH_SIZE) throw new TlogFormatError('a root hash is 32 bytes');
  if (extensions.some((line) => line.length === 0 || hasControl(line, false))) {
    throw new TlogFormatError('an extension line is one non-empty line');
  }
  return [origin, String(size), base64Encode(rootHash), ...extensions].map((line) => `${line}\n`).join('');
}

/**
 * A checkpoint's note text (as parseNote returns it, final newline included), strictly: a
 * non-empty origin, a decimal size with no leading zeroes, the base64 of a 32-byte hash, and
 * non-empty extension lines. Throws TlogFormatError naming the line at fault.
 */
export function parseCheckpoint(text: string): Checkpoint {
  if (!text.endsWith('\n')) throw new TlogFormatError('a checkpoint ends with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) throw new TlogFormatError('a checkpoint has an origin, a size and a root hash line');
  const [origin, sizeLine, rootLine, ...extensions] = lines as [string, string, string, ...string[]];
  if (origin.length === 0 || hasControl(origin, false)) throw new TlogFormatError('the checkpoint origin is empty');
  const size = parseDecimal(sizeLine, 'the checkpoint size');
  const rootHash = base64Decode(rootLine, 'the checkpoint root hash');
  if (rootHash.length !== HASH_SIZE) throw new TlogFormatError('the checkpoint root hash is not 32 bytes');
  if (extensions.some((line) => line.length === 0)) {
    throw new TlogFormatError('a checkpoint extension line is empty');
  }
  return extensions.length > 0 ? { origin, size, rootHash, extensions } : { origin, size, rootHash };
}
