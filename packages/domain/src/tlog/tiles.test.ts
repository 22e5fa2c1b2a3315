import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { TlogFormatError } from './encoding.ts';
import {
  appendedNodes,
  consistencyProof,
  type Hash,
  inclusionProof,
  leafHash,
  rootAt,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';
import {
  entriesPath,
  formatEntryBundle,
  formatTileIndex,
  hashAtFromTiles,
  parseEntryBundle,
  parseTilePath,
  tileBytes,
  tilePath,
  tilesOf,
  tileWidth,
} from './tiles.ts';

describe('tile paths (C2SP tlog-tiles)', () => {
  it("spells the spec's example index 1234067 as x001/x234/067", () => {
    expect(formatTileIndex(1_234_067)).toBe('x001/x234/067');
    expect(formatTileIndex(0)).toBe('000');
    expect(formatTileIndex(1000)).toBe('x001/000');
    expect(tilePath({ level: 0, index: 1_234_067, width: 256 })).toBe('tile/0/x001/x234/067');
    expect(tilePath({ level: 2, index: 0, width: 1 })).toBe('tile/2/000.p/1');
    expect(entriesPath(5, 112)).toBe('tile/entries/005.p/112');
  });

  it('parses what it formats, and nothing spelled another way', () => {
    for (const index of [0, 7, 999, 1000, 1_234_067, 10_000_000]) {
      for (const width of [1, 255, 256]) {
        expect(parseTilePath(tilePath({ level: 3, index, width }))).toEqual({ level: 3, index, width });
        expect(parseTilePath(entriesPath(index, width))).toEqual({ level: 'entries', index, width });
      }
    }
    for (const bad of [
      'tile/0/1',
      'tile/00/000',
      'tile/64/000',
      'tile/0/x000/001',
      'tile/0/001/002',
      'tile/0/000.p/0',
      'tile/0/000.p/256',
      'tile/0/000.p/010',
      'tile/0/000.p/',
      'tile/entries/000.p/1/',
      '/tile/0/000',
    ]) {
      expect(parseTilePath(bad), bad).toBeNull();
    }
  });

  it("a tree of 70,000 has the spec's tiles: 273 full + 1 of 112 at level 0, 1 full + 1 of 17 at level 1, 1 of 1 at level 2", () => {
    const tiles = tilesOf(70_000);
    const at = (level: number) => tiles.filter((t) => t.level === level).map((t) => t.width);
    expect(at(0)).toEqual([...Array(273).fill(256), 112]);
    expect(at(1)).toEqual([256, 17]);
    expect(at(2)).toEqual([1]);
    expect(tiles).toHaveLength(273 + 1 + 2 + 1);
  });

  it('a tree of 256 has one full level-0 tile and a level-1 tile of width 1; an empty tree none', () => {
    expect(tilesOf(256)).toEqual([
      { level: 0, index: 0, width: 256 },
      { level: 1, index: 0, width: 1 },
    ]);
    expect(tilesOf(0)).toEqual([]);
    expect(tileWidth(0, 1, 256)).toBe(0);
  });
});

describe('proofs over a tile store', () => {
  const size = 70_000;
  const table = new Map<string, Hash>();
  const nodeAt = (level: number, index: number) => table.get(`${level}/${index}`)!;
  for (let i = 0; i < size; i++) {
    const leaf = leafHash(utf8ToBytes(`entry ${i}`));
    for (const node of appendedNodes(i, leaf, nodeAt)) table.set(`${node.level}/${node.index}`, node.hash);
  }
  // The tiles of the final tree, as a tile store keeps them (the partial ones of this size).
  const store = new Map(tilesOf(size).map((tile) => [`${tile.level}/${tile.index}`, tileBytes(tile, nodeAt)]));
  const fromTiles = hashAtFromTiles((level, index) => store.get(`${level}/${index}`)!);

  it('every complete subtree read from the tiles is the one the node table holds', () => {
    for (const [key, hash] of [...table].filter((_, i) => i % 97 === 0)) {
      const [level, index] = key.split('/').map(Number) as [number, number];
      expect(bytesToHex(fromTiles(level, index))).toBe(bytesToHex(hash));
    }
  });

  it('roots, inclusion and consistency proofs from the tiles verify, for sizes across tile edges', () => {
    for (const n of [1, 255, 256, 257, 65_535, 65_536, 65_537, 69_999, 70_000]) {
      const root = rootAt(n, fromTiles);
      expect(root).toEqual(rootAt(n, nodeAt));
      const index = n - 1;
      expect(verifyInclusion(nodeAt(0, index), index, n, inclusionProof(index, n, fromTiles), root)).toBe(true);
      const old = Math.floor(n / 3);
      const proof = consistencyProof(old, n, fromTiles);
      expect(verifyConsistency(old, n, rootAt(old, fromTiles), root, proof)).toBe(true);
    }
  });

  it('a tile that lacks the asked hashes is an error, not a wrong hash', () => {
    const short = hashAtFromTiles(() => new Uint8Array(32 * 3));
    expect(() => short(2, 0)).toThrow(RangeError);
  });
});

describe('entry bundles', () => {
  it('are uint16-length-prefixed entries, read back strictly', () => {
    const entries = [utf8ToBytes('a'), new Uint8Array(0), utf8ToBytes('game LX7Q frozen')];
    const bundle = formatEntryBundle(entries);
    expect([...bundle.slice(0, 3)]).toEqual([0, 1, 0x61]);
    expect(parseEntryBundle(bundle)).toEqual(entries);
    expect(() => parseEntryBundle(bundle.slice(0, -1))).toThrow(TlogFormatError);
    expect(() => parseEntryBundle(new Uint8Array([0]))).toThrow(TlogFormatError);
    expect(() => parseEntryBundle(formatEntryBundle(Array(257).fill(new Uint8Array(0))))).toThrow(TlogFormatError);
    expect(() => formatEntryBundle([new Uint8Array(65_536)])).toThrow(RangeError);
  });
});
