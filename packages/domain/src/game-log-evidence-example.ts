import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { frozenLeafOf, gameLogLeafText } from './game-log.ts';
import type { GameProof } from './schemas/games.ts';
import { formatCheckpoint } from './tlog/checkpoint.ts';
import { cosignatureMessage, timestampedSignature } from './tlog/cosignature.ts';
import { base64Encode } from './tlog/encoding.ts';
import { inclusionProof, leafHash, rootFromLeafHashes, type HashAt, nodeHash } from './tlog/merkle.ts';
import {
  formatNote,
  formatSignatureLine,
  formatVerifierKey,
  keyIdOf,
  SIG_TYPE_COSIGNATURE_V1,
  SIG_TYPE_ED25519,
} from './tlog/note.ts';

/**
 * A game's log evidence built the way the server and its witnesses build it, with real Ed25519
 * keys and a real tree: for the verifiers' tests (the domain's, the page's, scripts/verify-game.mjs)
 * and the documentation's example. Never used to sign anything real.
 */

/** A key from a label: the Ed25519 seed is SHA-256 of it. */
export function exampleKey(name: string, type: number, label = name) {
  const secret = sha256(utf8ToBytes(label));
  const publicKey = ed25519.getPublicKey(secret);
  return {
    name,
    secret,
    vkey: formatVerifierKey(name, type, publicKey),
    keyId: keyIdOf(name, type, publicKey),
  };
}

export type ExampleWitness = { name: string; label?: string; timestamp: number };

export type EvidenceOptions = {
  origin?: string;
  /** The log key's label (its seed is SHA-256 of it). */
  logLabel?: string;
  /** How many other leaves come before and after the freeze in the tree. */
  before?: number;
  after?: number;
  /** Witnesses that cosign the checkpoint, each at its own time (unix seconds). */
  witnesses?: readonly ExampleWitness[];
};

export const EXAMPLE_ORIGIN = 'lot.example/games';

/** The proof with a `log` field: its `frozen` leaf in a tree of filler leaves, signed and cosigned. */
export function withLogEvidence(proof: GameProof, options: EvidenceOptions = {}): GameProof {
  const origin = options.origin ?? EXAMPLE_ORIGIN;
  const log = exampleKey(origin, SIG_TYPE_ED25519, options.logLabel ?? `log ${origin}`);
  const before = options.before ?? 5;
  const after = options.after ?? 3;
  const data = gameLogLeafText(frozenLeafOf(proof));
  const filler = (i: number) => utf8ToBytes(`lot-game-log/v1\nevent opened\ncode filler${i}\n`);
  const leaves = [
    ...Array.from({ length: before }, (_, i) => filler(i)),
    utf8ToBytes(data),
    ...Array.from({ length: after }, (_, i) => filler(before + i)),
  ].map(leafHash);
  const hashAt: HashAt = (level, index) => {
    const from = index * 2 ** level;
    if (level === 0) return leaves[from]!;
    return nodeHash(hashAt(level - 1, index * 2), hashAt(level - 1, index * 2 + 1));
  };
  const size = leaves.length;
  const text = formatCheckpoint({ origin, size, rootHash: rootFromLeafHashes(leaves) });
  const signed = formatNote({
    text,
    signatures: [{ name: origin, keyId: log.keyId, signature: ed25519.sign(utf8ToBytes(text), log.secret) }],
  });
  const cosignatures = (options.witnesses ?? []).map((w) => {
    const key = exampleKey(w.name, SIG_TYPE_COSIGNATURE_V1, w.label ?? `witness ${w.name}`);
    const signature = ed25519.sign(cosignatureMessage(text, w.timestamp), key.secret);
    return formatSignatureLine({
      name: key.name,
      keyId: key.keyId,
      signature: timestampedSignature(w.timestamp, signature),
    });
  });
  return {
    ...proof,
    log: {
      origin,
      freeze: {
        index: before,
        data,
        inclusion: inclusionProof(before, size, hashAt).map(base64Encode),
        checkpoint: signed + cosignatures.join(''),
      },
    },
  };
}

/** The vkeys a verifier pins for `withLogEvidence`'s keys. */
export const exampleLogVkey = (origin = EXAMPLE_ORIGIN, label = `log ${origin}`) =>
  exampleKey(origin, SIG_TYPE_ED25519, label).vkey;
export const exampleWitnessVkey = (name: string, label = `witness ${name}`) =>
  exampleKey(name, SIG_TYPE_COSIGNATURE_V1, label).vkey;
