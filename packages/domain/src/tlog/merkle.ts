import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { bytesEqual } from './encoding.ts';

/**
 * The Merkle tree of RFC 6962 §2.1 (and RFC 9162 §2.1) over SHA-256: leaf and node hashes, the
 * root, inclusion and consistency proofs — verified, and generated from stored hashes.
 *
 * Proof generation never needs the whole tree. Every hash a proof or root holds is either the hash
 * of a *complete subtree* — 2^level leaves starting at a multiple of 2^level, named by its
 * `NodeRef` { level, index } (leaves index·2^level … (index+1)·2^level − 1) — or, on the tree's
 * right edge, the hash of a run of complete subtrees of decreasing size folded from the right.
 * So a store answers one question, `hashAt(level, index)`, for complete subtrees only:
 *
 * - a node table keeps one row per complete subtree (what `appendedNodes` returns);
 * - a tile store (C2SP tlog-tiles) holds levels 0, 8, 16 … directly and computes a level in between
 *   from at most 128 hashes of the tile below it.
 *
 * The `…Refs` functions list the complete subtrees a proof needs (O(log n) of them: at most one
 * element of a proof is an edge run), so a server can read them in one query before it assembles
 * the proof with a synchronous `hashAt` over what it read.
 *
 * Sizes and indexes are safe integers; arithmetic avoids 32-bit shifts so logs past 2^32 work.
 */

export type Hash = Uint8Array;

/** A complete subtree: 2^level leaves, from leaf index·2^level. */
export type NodeRef = { level: number; index: number };

/** Reads the hash of a complete subtree the tree holds; it may throw when the store lacks it. */
export type HashAt = (level: number, index: number) => Hash;

export const HASH_SIZE = 32;

/** The root of the empty tree: SHA-256 of the empty string (RFC 6962 §2.1). */
export const EMPTY_ROOT: Hash = sha256(new Uint8Array(0));

/** A leaf's hash: SHA-256(0x00 ‖ data). */
export function leafHash(data: Uint8Array): Hash {
  return sha256(concatBytes(new Uint8Array([0]), data));
}

/** An interior node's hash: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Hash, right: Hash): Hash {
  return sha256(concatBytes(new Uint8Array([1]), left, right));
}

const isSize = (n: number) => Number.isSafeInteger(n) && n >= 0;
const half = (n: number) => Math.floor(n / 2);
const isOdd = (n: number) => n % 2 === 1;

/** The largest power of two strictly below n (n ≥ 2): where RFC 6962 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees that make up leaves [start, end), left to right, largest first. `start`
 * must be a multiple of the first one's size, as it is for every range RFC 6962's recursion reaches.
 */
export function rangeRefs(start: number, end: number): NodeRef[] {
  const refs: NodeRef[] = [];
  let at = start;
  while (at < end) {
    let level = 0;
    while (at % 2 ** (level + 1) === 0 && at + 2 ** (level + 1) <= end) level++;
    refs.push({ level, index: at / 2 ** level });
    at += 2 ** level;
  }
  return refs;
}

/** The hash of a run of complete subtrees (`rangeRefs`): folded from the right, as MTH splits it. */
export function foldRefs(refs: readonly NodeRef[], hashAt: HashAt): Hash {
  if (refs.length === 0) return EMPTY_ROOT;
  let hash = hashAt(refs[refs.length - 1]!.level, refs[refs.length - 1]!.index);
  for (let i = refs.length - 2; i >= 0; i--) hash = nodeHash(hashAt(refs[i]!.level, refs[i]!.index), hash);
  return hash;
}

/** MTH(D[0:n]) from the leaves' hashes (RFC 6962 §2.1), in O(n). */
export function rootFromLeafHashes(hashes: readonly Hash[]): Hash {
  if (hashes.length === 0) return EMPTY_ROOT;
  // The complete subtrees of the tree so far, smallest last: an append merges equal sizes.
  const stack: { size: number; hash: Hash }[] = [];
  for (const hash of hashes) {
    let top = { size: 1, hash };
    while (stack.length > 0 && stack[stack.length - 1]!.size === top.size) {
      const left = stack.pop()!;
      top = { size: left.size * 2, hash: nodeHash(left.hash, top.hash) };
    }
    stack.push(top);
  }
  let root = stack.pop()!.hash;
  while (stack.length > 0) root = nodeHash(stack.pop()!.hash, root);
  return root;
}

/** The complete subtrees whose right fold is the root of a tree of `size` leaves. */
export function rootRefs(size: number): NodeRef[] {
  if (!isSize(size)) throw new RangeError(`not a tree size: ${size}`);
  return rangeRefs(0, size);
}

/** The root of a tree of `size` leaves from stored complete subtrees (at most log2(size)+1 reads). */
export function rootAt(size: number, hashAt: HashAt): Hash {
  return foldRefs(rootRefs(size), hashAt);
}

/**
 * An inclusion proof's elements, each as the complete subtrees it folds from, leaf to root
 * (RFC 6962 §2.1.1 PATH(m, D[n])).
 */
export function inclusionProofRefs(index: number, size: number): NodeRef[][] {
  if (!isSize(size) || !isSize(index) || index >= size) throw new RangeError(`no leaf ${index} in a tree of ${size}`);
  const path: NodeRef[][] = [];
  let start = 0;
  let end = size;
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (index < start + k) {
      path.push(rangeRefs(start + k, end));
      end = start + k;
    } else {
      path.push(rangeRefs(start, start + k));
      start += k;
    }
  }
  return path.reverse();
}

/** The inclusion proof of leaf `index` in a tree of `size` leaves, from stored subtree hashes. */
export function inclusionProof(index: number, size: number, hashAt: HashAt): Hash[] {
  return inclusionProofRefs(index, size).map((refs) => foldRefs(refs, hashAt));
}

/**
 * A consistency proof's elements from `oldSize` to `newSize`, each as the complete subtrees it folds
 * from (RFC 6962 §2.1.2 PROOF(m, D[n])). Empty when oldSize is 0 or equals newSize.
 */
export function consistencyProofRefs(oldSize: number, newSize: number): NodeRef[][] {
  if (!isSize(oldSize) || !isSize(newSize) || oldSize > newSize) {
    throw new RangeError(`no consistency proof from ${oldSize} to ${newSize}`);
  }
  if (oldSize === 0 || oldSize === newSize) return [];
  // SUBPROOF(m, D[start:end], whole), unrolled: the recursion only ever descends one side.
  const proof: NodeRef[][] = [];
  let m = oldSize;
  let start = 0;
  let end = newSize;
  let whole = true;
  while (m !== end - start) {
    const k = splitPoint(end - start);
    if (m <= k) {
      proof.push(rangeRefs(start + k, end));
      end = start + k;
    } else {
      proof.push(rangeRefs(start, start + k));
      m -= k;
      start += k;
      whole = false;
    }
  }
  if (!whole) proof.push(rangeRefs(start, end));
  return proof.reverse();
}

/** The consistency proof from `oldSize` to `newSize`, from stored subtree hashes. */
export function consistencyProof(oldSize: number, newSize: number, hashAt: HashAt): Hash[] {
  return consistencyProofRefs(oldSize, newSize).map((refs) => foldRefs(refs, hashAt));
}

/**
 * The complete subtrees that appending leaf number `size` (the tree had `size` leaves) completes,
 * with their hashes: the leaf itself, then each parent it closes. It reads the left siblings, all
 * complete subtrees the tree already holds, with `hashAt` (at most log2(size) reads).
 */
export function appendedNodes(size: number, leaf: Hash, hashAt: HashAt): (NodeRef & { hash: Hash })[] {
  if (!isSize(size)) throw new RangeError(`not a tree size: ${size}`);
  const nodes = [{ level: 0, index: size, hash: leaf }];
  let { level, index, hash } = nodes[0]!;
  while (isOdd(index)) {
    hash = nodeHash(hashAt(level, index - 1), hash);
    level += 1;
    index = half(index);
    nodes.push({ level, index, hash });
  }
  return nodes;
}

/**
 * RFC 9162 §2.1.3.2: does `proof` show that `leaf` is leaf `index` of the tree of `size` leaves
 * whose root is `root`? False for any malformed input, never a throw.
 */
export function verifyInclusion(leaf: Hash, index: number, size: number, proof: readonly Hash[], root: Hash): boolean {
  if (!isSize(size) || !isSize(index) || index >= size) return false;
  if (leaf.length !== HASH_SIZE || proof.some((p) => p.length !== HASH_SIZE)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && bytesEqual(r, root);
}

/**
 * RFC 9162 §2.1.4.2: does `proof` show that the tree of `oldSize` leaves with root `oldRoot` is a
 * prefix of the tree of `newSize` leaves with root `newRoot`? The empty tree (root EMPTY_ROOT) is a
 * prefix of every tree with an empty proof; equal sizes need equal roots and an empty proof, as
 * C2SP tlog-witness requires. False for any malformed input, never a throw.
 */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Hash,
  newRoot: Hash,
  proof: readonly Hash[],
): boolean {
  if (!isSize(oldSize) || !isSize(newSize) || oldSize > newSize) return false;
  if (oldRoot.length !== HASH_SIZE || newRoot.length !== HASH_SIZE || proof.some((p) => p.length !== HASH_SIZE)) {
    return false;
  }
  if (oldSize === 0) return proof.length === 0 && bytesEqual(oldRoot, EMPTY_ROOT);
  if (oldSize === newSize) return proof.length === 0 && bytesEqual(oldRoot, newRoot);
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && bytesEqual(fr, oldRoot) && bytesEqual(sr, newRoot);
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}
