import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The drand public randomness beacon (decision 033): a chain's parameters, its round clock, its
 * chain hash, and the check of one round's BLS signature. Pure and synchronous: the server and the
 * browser verify a round with the same code and no network.
 */

/** The one scheme LOT accepts: unchained rounds, G1 signatures (48 bytes), G2 public key (96 bytes), RFC 9380 hashing. */
export const BEACON_SCHEME = 'bls-unchained-g1-rfc9380';
/** RFC 9380 hash-to-G1 domain separation tag of the scheme. */
export const BEACON_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';

export type BeaconChain = {
  /** sha256 of the other fields as drand computes it (`chainHashOf`), 64 hex. */
  chainHash: string;
  /** The group's 96-byte compressed G2 public key, 192 hex. */
  publicKey: string;
  /** Round 1's time, unix seconds. */
  genesisTime: number;
  /** Seconds between rounds. */
  period: number;
  scheme: typeof BEACON_SCHEME;
  beaconId: string;
  /** drand's genesis seed (the `groupHash` of /info), 64 hex. */
  groupHash: string;
};

/** drand quicknet, run by the League of Entropy: https://api.drand.sh/52db9ba7…e971/info. */
export const QUICKNET: BeaconChain = Object.freeze({
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisTime: 1_692_803_367,
  period: 3,
  scheme: BEACON_SCHEME,
  beaconId: 'quicknet',
  groupHash: 'f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e',
});

const HEX_32 = /^[0-9a-f]{64}$/;
const HEX_G1 = /^[0-9a-f]{96}$/;
const HEX_G2 = /^[0-9a-f]{192}$/;
const MAX_UINT32 = 0xffff_ffff;

const isRound = (round: unknown): round is number => Number.isSafeInteger(round) && (round as number) >= 1;

/** Round `round`'s time in unix milliseconds: genesis + (round − 1) × period. */
export function roundTimeMs(chain: Pick<BeaconChain, 'genesisTime' | 'period'>, round: number): number {
  if (!isRound(round)) throw new RangeError(`not a beacon round: ${round}`);
  return (chain.genesisTime + (round - 1) * chain.period) * 1000;
}

/** The first round whose time is strictly after `timeMs` (unix ms, may be fractional); round 1 before genesis. */
export function firstRoundAfter(chain: Pick<BeaconChain, 'genesisTime' | 'period'>, timeMs: number): number {
  if (!Number.isFinite(timeMs)) throw new RangeError(`not a time: ${timeMs}`);
  const sinceGenesis = timeMs - chain.genesisTime * 1000;
  if (sinceGenesis < 0) return 1;
  // Round k + 1 starts at genesis + k periods, so the round after time t is floor(t / period) + 2.
  return Math.floor(sinceGenesis / (chain.period * 1000)) + 2;
}

/**
 * drand's chain hash (Go: common/chain/info.go `Info.Hash`): sha256 over the period (uint32
 * big-endian seconds), the genesis time (int64 big-endian), the public key's bytes, the group hash's
 * bytes and, unless the beacon id is "default" or empty, the beacon id's UTF-8. The scheme is not
 * hashed: a chain hash does not commit to it, so the scheme is pinned on its own.
 */
export function chainHashOf(
  info: Pick<BeaconChain, 'period' | 'genesisTime' | 'publicKey' | 'groupHash' | 'beaconId'>,
): string {
  if (!Number.isInteger(info.period) || info.period < 1 || info.period > MAX_UINT32) {
    throw new RangeError(`period out of range: ${info.period}`);
  }
  if (!Number.isSafeInteger(info.genesisTime)) throw new RangeError(`genesis time out of range: ${info.genesisTime}`);
  const head = new Uint8Array(12);
  const view = new DataView(head.buffer);
  view.setUint32(0, info.period);
  view.setBigInt64(4, BigInt(info.genesisTime));
  const isDefault = info.beaconId === '' || info.beaconId === 'default';
  return bytesToHex(
    sha256(
      concatBytes(
        head,
        hexToBytes(info.publicKey),
        hexToBytes(info.groupHash),
        isDefault ? new Uint8Array(0) : utf8ToBytes(info.beaconId),
      ),
    ),
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A chain from drand's /info JSON: v1 (`hash`, `groupHash`, `schemeID`, `metadata.beaconID`, what
 * relays serve at /{chainHash}/info) or v2 (`chain_hash`, `genesis_seed`, `scheme`, `beacon_id`).
 * Throws on a missing or malformed field, a scheme other than bls-unchained-g1-rfc9380, a public
 * key that is not a G2 point, or a chain hash that is not the hash of the other fields.
 */
export function parseChainInfo(json: unknown): BeaconChain {
  const fail = (what: string): never => {
    throw new Error(`drand chain info: ${what}`);
  };
  if (!isObject(json)) return fail('not a JSON object');
  const v2 = 'chain_hash' in json;
  const field = (name: string) => json[name];
  const hex = (name: string, pattern: RegExp, length: number): string => {
    const value = field(name);
    return typeof value === 'string' && pattern.test(value)
      ? value
      : fail(`${name} must be ${length} lowercase hex characters`);
  };

  const scheme = field(v2 ? 'scheme' : 'schemeID');
  if (typeof scheme !== 'string') return fail(`${v2 ? 'scheme' : 'schemeID'} missing`);
  if (scheme !== BEACON_SCHEME) return fail(`unsupported scheme ${JSON.stringify(scheme)} (only ${BEACON_SCHEME})`);

  const period = field('period');
  if (!Number.isInteger(period) || (period as number) < 1 || (period as number) > MAX_UINT32) {
    return fail('period must be a positive whole number of seconds');
  }
  const genesisTime = field('genesis_time');
  if (!Number.isSafeInteger(genesisTime) || (genesisTime as number) < 0) {
    return fail('genesis_time must be a whole number of unix seconds');
  }
  const metadata = field('metadata');
  const beaconId = v2 ? field('beacon_id') : isObject(metadata) ? metadata.beaconID : undefined;
  if (typeof beaconId !== 'string' || beaconId === '')
    return fail(v2 ? 'beacon_id missing' : 'metadata.beaconID missing');

  const chain: BeaconChain = {
    chainHash: hex(v2 ? 'chain_hash' : 'hash', HEX_32, 64),
    publicKey: hex('public_key', HEX_G2, 192),
    genesisTime: genesisTime as number,
    period: period as number,
    scheme: BEACON_SCHEME,
    beaconId,
    groupHash: hex(v2 ? 'genesis_seed' : 'groupHash', HEX_32, 64),
  };
  if (!preparedKey(chain.publicKey)) return fail('public_key is not a point of G2');
  const computed = chainHashOf(chain);
  if (computed !== chain.chainHash)
    return fail(`chain hash ${chain.chainHash} is not the hash of its fields (${computed})`);
  return chain;
}

type G2Point = ReturnType<typeof bls12_381.shortSignatures.getPublicKey>;
type Lines = ReturnType<typeof bls12_381.utils.calcPairingPrecomputes>;
type PreparedKey = { point: G2Point; negatedLines: Lines };
const publicKeys = new Map<string, PreparedKey | null>();
let generatorLines: Lines | undefined;

/**
 * The public key decoded and validated once (on the curve, in the subgroup, not infinity), with
 * the Miller loop's line coefficients of its negation; null when it is not a valid key.
 */
function preparedKey(publicKey: string): PreparedKey | null {
  let prepared = publicKeys.get(publicKey);
  if (prepared === undefined) {
    try {
      const point = HEX_G2.test(publicKey) ? bls12_381.G2.Point.fromHex(publicKey) : null; // fromHex validates
      prepared =
        point && !point.is0() ? { point, negatedLines: bls12_381.utils.calcPairingPrecomputes(point.negate()) } : null;
    } catch {
      prepared = null;
    }
    if (publicKeys.size >= 16) publicKeys.clear();
    publicKeys.set(publicKey, prepared);
  }
  return prepared;
}

/** The message drand signs for an unchained round: sha256 of the round as an 8-byte big-endian integer. */
export function roundMessage(round: number): Uint8Array {
  if (!isRound(round)) throw new RangeError(`not a beacon round: ${round}`);
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round));
  return sha256(bytes);
}

/**
 * Whether `signatureHex` (48-byte compressed G1, 96 lowercase hex) is the chain's BLS signature of
 * round `round`. False, never an exception, for anything else: another round's signature, a bad
 * encoding, a point off the curve or outside the subgroup, infinity, a chain of another scheme.
 */
export function verifyBeaconRound(
  chain: Pick<BeaconChain, 'publicKey' | 'scheme'>,
  round: number,
  signatureHex: string,
): boolean {
  try {
    if (chain.scheme !== BEACON_SCHEME || !isRound(round) || typeof signatureHex !== 'string') return false;
    if (!HEX_G1.test(signatureHex)) return false;
    const key = preparedKey(chain.publicKey);
    if (!key) return false;
    const signature = bls12_381.shortSignatures.Signature.fromHex(signatureHex); // on the curve, in the subgroup
    const message = bls12_381.shortSignatures.hash(roundMessage(round), BEACON_DST);
    if (signature.is0() || message.is0()) return false;
    // e(H(m), −pk) · e(signature, g2) = 1, i.e. e(signature, g2) = e(H(m), pk): noble's
    // shortSignatures.verify, with the key's lines computed once and the checks above done once.
    generatorLines ??= bls12_381.utils.calcPairingPrecomputes(bls12_381.G2.Point.BASE);
    const h = message.toAffine();
    const s = signature.toAffine();
    const { Fp12 } = bls12_381.fields;
    const f = bls12_381.millerLoopBatch([
      [key.negatedLines, h.x, h.y],
      [generatorLines, s.x, s.y],
    ]);
    return Fp12.eql(Fp12.finalExponentiate(f), Fp12.ONE);
  } catch {
    return false;
  }
}

/** A round's randomness as drand defines it for unchained schemes: hex sha256 of the signature's bytes. */
export function randomnessOf(signatureHex: string): string {
  if (!/^(?:[0-9a-f]{2})+$/.test(signatureHex)) throw new Error('a signature is lowercase hex');
  return bytesToHex(sha256(hexToBytes(signatureHex)));
}
