import { TlogFormatError } from './encoding.ts';
import { HASH_SIZE, type Hash, type HashAt, nodeHash } from './merkle.ts';

/**
 * C2SP tlog-tiles (https://c2sp.org/tlog-tiles): the tree served as static "tiles" of up to 256
 * consecutive hashes at levels 0, 8, 16 … (tile level L holds tree level 8·L), and the entries as
 * bundles of uint16-length-prefixed leaves. Paths, the tiles a tree of a size has, a `HashAt` over
 * tiles (so merkle.ts's proofs run on a tile store), and bundles.
 */

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;

/** A tile: its tile level (0–63), its index in the level, and how many hashes (1–256) it holds. */
export type Tile = { level: number; index: number; width: number };

/** An index as the spec spells it: 3-digit groups, all but the last prefixed with `x` (1234067 → x001/x234/067). */
export function formatTileIndex(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`not a tile index: ${index}`);
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

const suffix = (width: number) => (width === TILE_WIDTH ? '' : `.p/${width}`);

/** `tile/<L>/<N>[.p/<W>]`, relative to the log's prefix. */
export function tilePath({ level, index, width }: Tile): string {
  return `tile/${level}/${formatTileIndex(index)}${suffix(width)}`;
}

/** `tile/entries/<N>[.p/<W>]`, relative to the log's prefix. */
export function entriesPath(index: number, width: number): string {
  return `tile/entries/${formatTileIndex(index)}${suffix(width)}`;
}

const PATH = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/;

/**
 * A tile or entry bundle path (relative to the prefix), strictly as the spec spells it, or null:
 * level 0–63 without leading zeroes, the index in x-prefixed groups without a superfluous leading
 * group of zeroes, a partial width 1–255.
 */
export function parseTilePath(path: string): { level: number | 'entries'; index: number; width: number } | null {
  const match = PATH.exec(path);
  if (!match) return null;
  const [, levelText, indexText, widthText] = match as unknown as [string, string, string, string | undefined];
  const level = levelText === 'entries' ? 'entries' : Number(levelText);
  if (level !== 'entries' && level > 63) return null;
  const groups = indexText.split('/');
  if (groups.length > 1 && groups[0] === 'x000') return null;
  const index = Number(groups.map((group) => group.replace('x', '')).join(''));
  if (!Number.isSafeInteger(index)) return null;
  const width = widthText === undefined ? TILE_WIDTH : Number(widthText);
  if (widthText !== undefined && width >= TILE_WIDTH) return null;
  return { level, index, width };
}

/** The hashes tile level `level` has in a tree of `size` leaves: floor(size / 256^level). */
const hashesAtTileLevel = (level: number, size: number) => Math.floor(size / TILE_WIDTH ** level);

/** The width of tile (level, index) in a tree of `size` leaves: 0 when it has none yet. */
export function tileWidth(level: number, index: number, size: number): number {
  return Math.max(0, Math.min(TILE_WIDTH, hashesAtTileLevel(level, size) - index * TILE_WIDTH));
}

/** Every tile of a tree of `size` leaves, full ones and the partial one of each level. */
export function tilesOf(size: number): Tile[] {
  const tiles: Tile[] = [];
  for (let level = 0; hashesAtTileLevel(level, size) > 0; level++) {
    const hashes = hashesAtTileLevel(level, size);
    for (let index = 0; index * TILE_WIDTH < hashes; index++) {
      tiles.push({ level, index, width: tileWidth(level, index, size) });
    }
  }
  return tiles;
}

/** The complete subtrees a tile holds: tree level 8·L, hashes index·256 … index·256 + width − 1. */
export function tileRefs({ level, index, width }: Tile): { level: number; index: number }[] {
  return Array.from({ length: width }, (_, i) => ({ level: level * TILE_HEIGHT, index: index * TILE_WIDTH + i }));
}

/** A tile's bytes: its hashes concatenated. */
export function tileBytes(tile: Tile, hashAt: HashAt): Uint8Array {
  const bytes = new Uint8Array(tile.width * HASH_SIZE);
  tileRefs(tile).forEach(({ level, index }, i) => bytes.set(hashAt(level, index), i * HASH_SIZE));
  return bytes;
}

/**
 * A `HashAt` over a tile store: the hash of a complete subtree at any level, from the tile at the
 * level at or below it (between tile levels, from up to 128 of its hashes). `readTile` returns
 * the bytes of tile (tile level, index) as stored, full or partial; it must hold the hashes asked.
 */
export function hashAtFromTiles(readTile: (level: number, index: number) => Uint8Array): HashAt {
  return (level, index) => {
    const tileLevel = Math.floor(level / TILE_HEIGHT);
    const span = 2 ** (level % TILE_HEIGHT);
    const first = index * span;
    const bytes = readTile(tileLevel, Math.floor(first / TILE_WIDTH));
    const offset = first % TILE_WIDTH;
    if (bytes.length < (offset + span) * HASH_SIZE) {
      throw new RangeError(`tile ${tileLevel}/${Math.floor(first / TILE_WIDTH)} does not hold node ${level}/${index}`);
    }
    let hashes: Hash[] = Array.from({ length: span }, (_, i) =>
      bytes.slice((offset + i) * HASH_SIZE, (offset + i + 1) * HASH_SIZE),
    );
    while (hashes.length > 1)
      hashes = hashes.filter((_, i) => i % 2 === 0).map((left, i) => nodeHash(left, hashes[2 * i + 1]!));
    return hashes[0]!;
  };
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function formatEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const size = entries.reduce((sum, entry) => sum + 2 + entry.length, 0);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const entry of entries) {
    if (entry.length > 0xffff) throw new RangeError('an entry of a bundle is at most 65,535 bytes');
    bytes[at] = entry.length >> 8;
    bytes[at + 1] = entry.length & 0xff;
    bytes.set(entry, at + 2);
    at += 2 + entry.length;
  }
  return bytes;
}

/** An entry bundle's entries, strictly (no trailing bytes, at most 256 entries). Throws TlogFormatError. */
export function parseEntryBundle(bytes: Uint8Array): Uint8Array[] {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) throw new TlogFormatError('an entry bundle ends inside a length');
    const length = (bytes[at]! << 8) | bytes[at + 1]!;
    if (at + 2 + length > bytes.length) throw new TlogFormatError('an entry bundle ends inside an entry');
    entries.push(bytes.slice(at + 2, at + 2 + length));
    at += 2 + length;
    if (entries.length > TILE_WIDTH) throw new TlogFormatError('an entry bundle holds at most 256 entries');
  }
  return entries;
}
