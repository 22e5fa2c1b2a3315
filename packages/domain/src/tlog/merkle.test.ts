import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  appendedNodes,
  consistencyProof,
  consistencyProofRefs,
  EMPTY_ROOT,
  type Hash,
  inclusionProof,
  inclusionProofRefs,
  leafHash,
  nodeHash,
  rootAt,
  rootFromLeafHashes,
  verifyConsistency,
  verifyInclusion,
} from './merkle.ts';

/** RFC 6962 §2.1 written out as the RFC states it, recursively over the leaves: the reference. */
const largestPowerBelow = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
function mth(leaves: Hash[]): Hash {
  if (leaves.length === 0) return sha256(new Uint8Array(0));
  if (leaves.length === 1) return leaves[0]!;
  const k = largestPowerBelow(leaves.length);
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}
function path(m: number, leaves: Hash[]): Hash[] {
  if (leaves.length === 1) return [];
  const k = largestPowerBelow(leaves.length);
  return m < k
    ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}
function subproof(m: number, leaves: Hash[], whole: boolean): Hash[] {
  if (m === leaves.length) return whole ? [] : [mth(leaves)];
  const k = largestPowerBelow(leaves.length);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), whole), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => leafHash(utf8ToBytes(`leaf ${i}`)));

/** A node table built by appending, as a server keeps one: every complete subtree's hash. */
function nodeTable(leaves: Hash[]) {
  const table = new Map<string, Hash>();
  const hashAt = (level: number, index: number) => {
    const hash = table.get(`${level}/${index}`);
    if (!hash) throw new Error(`no node ${level}/${index}`);
    return hash;
  };
  leaves.forEach((leaf, size) => {
    for (const node of appendedNodes(size, leaf, hashAt)) table.set(`${node.level}/${node.index}`, node.hash);
  });
  return { table, hashAt };
}

const MAX = 64;
const ALL = leavesOf(MAX);
const { table, hashAt } = nodeTable(ALL);
const hex = (hashes: Hash[]) => hashes.map(bytesToHex);

describe('hashes (RFC 6962 §2.1)', () => {
  it('a leaf is SHA-256(0x00 ‖ data), a node SHA-256(0x01 ‖ left ‖ right), the empty tree SHA-256("")', () => {
    const data = utf8ToBytes('hello');
    expect(leafHash(data)).toEqual(sha256(concatBytes(new Uint8Array([0]), data)));
    const [a, b] = [leafHash(utf8ToBytes('a')), leafHash(utf8ToBytes('b'))];
    expect(nodeHash(a, b)).toEqual(sha256(concatBytes(new Uint8Array([1]), a, b)));
    expect(bytesToHex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(rootFromLeafHashes([])).toEqual(EMPTY_ROOT);
  });

  it('the empty leaf hashes to the known value', () => {
    // SHA-256 of the single byte 0x00, as every RFC 6962 implementation has it.
    expect(bytesToHex(leafHash(new Uint8Array(0)))).toBe(
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    );
  });

  it('a tree of 3 is ((a b) c) and of 5 is ((a b)(c d)) e, by hand', () => {
    const [a, b, c, d, e] = ALL as [Hash, Hash, Hash, Hash, Hash];
    expect(rootFromLeafHashes([a, b, c])).toEqual(nodeHash(nodeHash(a, b), c));
    expect(rootFromLeafHashes([a, b, c, d, e])).toEqual(nodeHash(nodeHash(nodeHash(a, b), nodeHash(c, d)), e));
  });

  it('the root of every size up to 64 matches the recursive definition, from leaves and from the node table', () => {
    for (let n = 0; n <= MAX; n++) {
      const expected = bytesToHex(mth(ALL.slice(0, n)));
      expect(bytesToHex(rootFromLeafHashes(ALL.slice(0, n)))).toBe(expected);
      expect(bytesToHex(rootAt(n, hashAt))).toBe(expected);
    }
  });

  it('the node table holds exactly the complete subtrees: 2n − popcount(n) of them', () => {
    expect(table.size).toBe(2 * MAX - 1);
  });
});

describe('inclusion proofs (RFC 6962 §2.1.1, RFC 9162 §2.1.3.2)', () => {
  it('leaf 2 of 7 is proven by d, (a b), (e f g), by hand', () => {
    const [a, b, , d, e, f, g] = ALL as Hash[];
    expect(hex(inclusionProof(2, 7, hashAt))).toEqual(hex([d!, nodeHash(a!, b!), nodeHash(nodeHash(e!, f!), g!)]));
  });

  it('every leaf of every size up to 64: generated = the RFC path, it verifies, and a tamper fails', () => {
    for (let size = 1; size <= MAX; size++) {
      const root = rootAt(size, hashAt);
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(index, size, hashAt);
        expect(hex(proof)).toEqual(hex(path(index, ALL.slice(0, size))));
        expect(verifyInclusion(ALL[index]!, index, size, proof, root)).toBe(true);
        // Another leaf, index or root, or a proof with one bit, one hash more or less: refused.
        expect(verifyInclusion(ALL[(index + 1) % MAX]!, index, size, proof, root)).toBe(false);
        if (size > 1) expect(verifyInclusion(ALL[index]!, (index + 1) % size, size, proof, root)).toBe(false);
        expect(verifyInclusion(ALL[index]!, index, size, proof, rootAt(size - 1 || 2, hashAt))).toBe(false);
        expect(verifyInclusion(ALL[index]!, index, size, [...proof, root], root)).toBe(false);
        if (proof.length > 0) {
          const bit = proof.map((p) => p.slice());
          bit[index % proof.length]![index % 32]! ^= 1;
          expect(verifyInclusion(ALL[index]!, index, size, bit, root)).toBe(false);
          expect(verifyInclusion(ALL[index]!, index, size, proof.slice(1), root)).toBe(false);
        }
      }
    }
  });

  it('bad input is false, not a throw', () => {
    const root = rootAt(4, hashAt);
    const proof = inclusionProof(1, 4, hashAt);
    expect(verifyInclusion(ALL[1]!, 4, 4, proof, root)).toBe(false);
    expect(verifyInclusion(ALL[1]!, -1, 4, proof, root)).toBe(false);
    expect(verifyInclusion(ALL[1]!, 1.5, 4, proof, root)).toBe(false);
    expect(verifyInclusion(ALL[1]!.slice(1), 1, 4, proof, root)).toBe(false);
    expect(verifyInclusion(ALL[1]!, 1, 4, [proof[0]!, proof[1]!.slice(0, 31)], root)).toBe(false);
    expect(() => inclusionProofRefs(4, 4)).toThrow(RangeError);
  });

  it('a proof in a big tree reads O(log n) stored hashes, at most one edge run among them', () => {
    const size = 10_000_000;
    const refs = inclusionProofRefs(size - 1, size);
    expect(refs.length).toBeLessThanOrEqual(24);
    expect(refs.flat().length).toBeLessThan(24 * 2);
    expect(refs.filter((run) => run.length > 1).length).toBeLessThanOrEqual(1);
    expect(inclusionProofRefs(12_345, size).flat().length).toBeLessThan(24 * 2);
  });
});

describe('consistency proofs (RFC 6962 §2.1.2, RFC 9162 §2.1.4.2)', () => {
  it('from 3 to 7 the proof is c, d, (a b), (e f g), by hand', () => {
    const [a, b, c, d, e, f, g] = ALL as Hash[];
    expect(hex(consistencyProof(3, 7, hashAt))).toEqual(
      hex([c!, d!, nodeHash(a!, b!), nodeHash(nodeHash(e!, f!), g!)]),
    );
    // From 4 (a complete tree) the old root is left out: the verifier prepends it.
    expect(hex(consistencyProof(4, 7, hashAt))).toEqual(hex([nodeHash(nodeHash(e!, f!), g!)]));
  });

  it('every pair of sizes up to 64: generated = the RFC proof, it verifies, and a tamper fails', () => {
    for (let newSize = 0; newSize <= MAX; newSize++) {
      const newRoot = rootAt(newSize, hashAt);
      for (let oldSize = 0; oldSize <= newSize; oldSize++) {
        const oldRoot = rootAt(oldSize, hashAt);
        const proof = consistencyProof(oldSize, newSize, hashAt);
        const expected = oldSize === 0 ? [] : subproof(oldSize, ALL.slice(0, newSize), true);
        expect(hex(proof)).toEqual(hex(expected));
        expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, proof)).toBe(true);
        expect(verifyConsistency(oldSize, newSize, newRoot, oldRoot, proof)).toBe(oldSize === newSize);
        expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, [...proof, newRoot])).toBe(false);
        if (oldSize < newSize && oldSize > 0) {
          const forged = leafHash(utf8ToBytes('forged'));
          expect(verifyConsistency(oldSize, newSize, forged, newRoot, proof)).toBe(false);
          expect(verifyConsistency(oldSize, newSize, oldRoot, forged, proof)).toBe(false);
          expect(verifyConsistency(oldSize + 1, newSize, oldRoot, newRoot, proof)).toBe(false);
          const bit = proof.map((p) => p.slice());
          bit[newSize % proof.length]![oldSize % 32]! ^= 0x80;
          expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, bit)).toBe(false);
          expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, proof.slice(0, -1))).toBe(false);
          expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, [])).toBe(false);
        }
      }
    }
  });

  it('a rewritten log is not consistent with what was seen before', () => {
    const rewritten = [...ALL.slice(0, 10)];
    rewritten[4] = leafHash(utf8ToBytes('a rewritten game'));
    const { hashAt: rewrittenAt } = nodeTable(rewritten);
    const seen = rootAt(6, hashAt);
    const proof = consistencyProof(6, 10, rewrittenAt);
    expect(verifyConsistency(6, 10, seen, rootAt(10, rewrittenAt), proof)).toBe(false);
  });

  it('the empty tree is consistent with every tree only with an empty proof and the empty root', () => {
    const root = rootAt(5, hashAt);
    expect(verifyConsistency(0, 5, EMPTY_ROOT, root, [])).toBe(true);
    expect(verifyConsistency(0, 5, EMPTY_ROOT, root, [root])).toBe(false);
    expect(verifyConsistency(0, 5, root, root, [])).toBe(false);
    expect(verifyConsistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])).toBe(true);
    expect(verifyConsistency(5, 4, root, root, [])).toBe(false);
    expect(() => consistencyProofRefs(5, 4)).toThrow(RangeError);
  });

  it('random large sizes: the proof from stored hashes verifies (up to 2^12 leaves)', () => {
    // Leaves are their index's hash, complete subtrees computed on demand and memoized: enough to
    // cross-check the generator's index arithmetic far beyond 64.
    const memo = new Map<string, Hash>();
    const at = (level: number, index: number): Hash => {
      const key = `${level}/${index}`;
      let hash = memo.get(key);
      if (!hash) {
        hash =
          level === 0
            ? leafHash(hexToBytes(index.toString(16).padStart(16, '0')))
            : nodeHash(at(level - 1, 2 * index), at(level - 1, 2 * index + 1));
        memo.set(key, hash);
      }
      return hash;
    };
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    for (let i = 0; i < 200; i++) {
      const newSize = 1 + random(2 ** 12);
      const oldSize = random(newSize + 1);
      const index = random(newSize);
      const newRoot = rootAt(newSize, at);
      const proof = inclusionProof(index, newSize, at);
      expect(verifyInclusion(at(0, index), index, newSize, proof, newRoot)).toBe(true);
      const consistency = consistencyProof(oldSize, newSize, at);
      expect(verifyConsistency(oldSize, newSize, rootAt(oldSize, at), newRoot, consistency)).toBe(true);
      expect(consistency.length).toBeLessThanOrEqual(2 * 12);
    }
  });
});
