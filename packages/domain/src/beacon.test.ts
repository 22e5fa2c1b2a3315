import { bls12_381 } from '@noble/curves/bls12-381.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  BEACON_DST,
  type BEACON_SCHEME,
  type BeaconChain,
  chainHashOf,
  firstRoundAfter,
  parseChainInfo,
  QUICKNET,
  randomnessOf,
  roundMessage,
  roundTimeMs,
  verifyBeaconRound,
} from './beacon.ts';
import fixtures from './beacon-fixtures/quicknet.json';

const rounds = fixtures.rounds;
const [first, second] = rounds as [(typeof rounds)[number], (typeof rounds)[number]];

/** The signature with one bit of byte `index` flipped (bit 0 by default). */
function flipBit(hex: string, index: number, bit = 0): string {
  const byte = parseInt(hex.slice(index * 2, index * 2 + 2), 16) ^ (1 << bit);
  return hex.slice(0, index * 2) + byte.toString(16).padStart(2, '0') + hex.slice(index * 2 + 2);
}

describe('real quicknet rounds', () => {
  it.each(rounds.map((r) => [r.round, r]))('round %i verifies against the real public key', (_, r) => {
    expect(verifyBeaconRound(QUICKNET, r.round, r.signature)).toBe(true);
  });

  it.each(rounds.map((r) => [r.round, r]))('round %i: randomnessOf is the randomness drand published', (_, r) => {
    expect(randomnessOf(r.signature)).toBe(r.randomness);
  });

  it('the fixtures are at least five distinct rounds', () => {
    expect(new Set(rounds.map((r) => r.round)).size).toBeGreaterThanOrEqual(5);
  });

  it.each(rounds.map((r) => [r.round, r]))('round %i under the wrong round number fails', (_, r) => {
    for (const other of [r.round - 1, r.round + 1, r.round + 1_000_000]) {
      expect(verifyBeaconRound(QUICKNET, other, r.signature)).toBe(false);
    }
  });

  it("another round's signature fails", () => {
    expect(verifyBeaconRound(QUICKNET, first.round, second.signature)).toBe(false);
    expect(verifyBeaconRound(QUICKNET, second.round, first.signature)).toBe(false);
  });

  it('a flipped bit anywhere fails (the sign bit gives a valid point: still fails)', () => {
    const sig = first.signature;
    const flips = [
      flipBit(sig, 0, 5), // the sign ("sort") flag: −signature, a valid point
      flipBit(sig, 0, 7), // the compression flag
      flipBit(sig, 0, 6), // the infinity flag
      flipBit(sig, 1),
      flipBit(sig, 24),
      flipBit(sig, 47),
      flipBit(sig, 47, 7),
    ];
    for (const flipped of flips) expect(verifyBeaconRound(QUICKNET, first.round, flipped)).toBe(false);
  });

  it('garbage never throws: false', () => {
    const sig = first.signature;
    const garbage: unknown[] = [
      '',
      'zz',
      sig.toUpperCase(), // lowercase only, as drand writes it
      ` ${sig}`,
      sig.slice(0, -2), // 47 bytes
      `${sig}00`, // 49 bytes
      sig + sig, // 96 bytes: a G2 length
      '0'.repeat(96), // not compressed
      'c0' + '0'.repeat(94), // infinity
      'ff'.repeat(48),
      '8' + 'f'.repeat(95), // x ≥ p
      undefined,
      null,
      123,
    ];
    for (const value of garbage) {
      expect(verifyBeaconRound(QUICKNET, first.round, value as string)).toBe(false);
    }
  });

  it('bad round numbers and chains fail without throwing', () => {
    for (const round of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, '123' as unknown as number]) {
      expect(verifyBeaconRound(QUICKNET, round, first.signature)).toBe(false);
    }
    const otherKey: BeaconChain = { ...QUICKNET, publicKey: fixtures.otherChains[1]!.publicKey };
    expect(verifyBeaconRound(otherKey, first.round, first.signature)).toBe(false);
    for (const publicKey of [
      '',
      'c0' + '0'.repeat(190),
      flipBit(QUICKNET.publicKey, 10),
      QUICKNET.publicKey.slice(2),
    ]) {
      expect(verifyBeaconRound({ ...QUICKNET, publicKey }, first.round, first.signature)).toBe(false);
    }
    const otherScheme = { ...QUICKNET, scheme: 'bls-unchained-on-g1' } as unknown as BeaconChain;
    expect(verifyBeaconRound(otherScheme, first.round, first.signature)).toBe(false);
  });

  it('randomnessOf refuses what is not hex', () => {
    expect(() => randomnessOf('xyz')).toThrow(/hex/);
    expect(() => randomnessOf('abc')).toThrow(/hex/);
    expect(() => randomnessOf('')).toThrow(/hex/);
  });
});

describe("the pairing check is noble's shortSignatures.verify", () => {
  const sigs = bls12_381.shortSignatures;
  const { secretKey, publicKey } = sigs.keygen(new Uint8Array(sigs.lengths.seed ?? 32).fill(7));
  const chain: BeaconChain = { ...QUICKNET, publicKey: publicKey.toHex() };
  const sign = (round: number) => sigs.sign(sigs.hash(roundMessage(round), BEACON_DST), secretKey).toHex();

  it('agrees on rounds signed by a key of our own, and on wrong rounds and keys', () => {
    for (const [signed, asked] of [
      [1, 1],
      [2, 2],
      [1_000_000, 1_000_000],
      [5, 6],
      [6, 5],
    ] as const) {
      const signature = sign(signed);
      const noble = sigs.verify(hexToBytes(signature), sigs.hash(roundMessage(asked), BEACON_DST), publicKey);
      expect(verifyBeaconRound(chain, asked, signature)).toBe(noble);
      expect(noble).toBe(signed === asked);
      expect(verifyBeaconRound(QUICKNET, asked, signature)).toBe(false);
    }
  });

  it('agrees on the real rounds', () => {
    for (const r of rounds) {
      const noble = sigs.verify(
        hexToBytes(r.signature),
        sigs.hash(roundMessage(r.round), BEACON_DST),
        hexToBytes(QUICKNET.publicKey),
      );
      expect(noble).toBe(true);
      expect(verifyBeaconRound(QUICKNET, r.round, r.signature)).toBe(noble);
    }
  });
});

describe('chain hash', () => {
  it("chainHashOf(quicknet's /info) is the quicknet chain hash", () => {
    expect(chainHashOf(QUICKNET)).toBe('52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971');
    expect(chainHashOf(parseChainInfo(fixtures.info))).toBe(fixtures.info.hash);
  });

  it.each(fixtures.otherChains.map((c) => [c.note, c]))('%s', (_, chain) => {
    expect(chainHashOf(chain)).toBe(chain.chainHash);
  });

  it('the default chain hashes no beacon id; any other id is hashed', () => {
    const mainnet = fixtures.otherChains[0]!;
    expect(chainHashOf({ ...mainnet, beaconId: '' })).toBe(mainnet.chainHash);
    expect(chainHashOf({ ...mainnet, beaconId: 'Default' })).not.toBe(mainnet.chainHash);
    expect(chainHashOf({ ...QUICKNET, beaconId: 'default' })).not.toBe(QUICKNET.chainHash);
  });

  it('every hashed field changes the hash; the scheme is not hashed', () => {
    const changed = [
      { ...QUICKNET, period: 30 },
      { ...QUICKNET, genesisTime: QUICKNET.genesisTime + 1 },
      { ...QUICKNET, publicKey: fixtures.otherChains[1]!.publicKey },
      { ...QUICKNET, groupHash: fixtures.otherChains[1]!.groupHash },
      { ...QUICKNET, beaconId: 'quicknet-t' },
    ];
    for (const chain of changed) expect(chainHashOf(chain)).not.toBe(QUICKNET.chainHash);
    const otherScheme = { ...QUICKNET, scheme: 'anything' as typeof BEACON_SCHEME };
    expect(chainHashOf(otherScheme)).toBe(QUICKNET.chainHash);
  });

  it('refuses a period or genesis that drand could not encode', () => {
    for (const period of [0, -3, 2.5, 2 ** 32]) expect(() => chainHashOf({ ...QUICKNET, period })).toThrow(/period/);
    expect(() => chainHashOf({ ...QUICKNET, genesisTime: 1.5 })).toThrow(/genesis/);
  });
});

describe('parseChainInfo', () => {
  it("reads quicknet's /info, v1 and v2, into QUICKNET", () => {
    expect(parseChainInfo(fixtures.info)).toEqual(QUICKNET);
    expect(parseChainInfo(fixtures.infoV2)).toEqual(QUICKNET);
  });

  const broken: [string, unknown, RegExp][] = [
    ['not an object', 'quicknet', /not a JSON object/],
    ['null', null, /not a JSON object/],
    ['an array', [fixtures.info], /not a JSON object/],
    ['an unsupported scheme', { ...fixtures.info, schemeID: 'pedersen-bls-chained' }, /unsupported scheme/],
    ['the deprecated G1 scheme', { ...fixtures.info, schemeID: 'bls-unchained-on-g1' }, /unsupported scheme/],
    ['no scheme', { ...fixtures.info, schemeID: undefined }, /schemeID missing/],
    ['a period in text', { ...fixtures.info, period: '3' }, /period/],
    ['a zero period', { ...fixtures.info, period: 0 }, /period/],
    ['a fractional genesis', { ...fixtures.info, genesis_time: 1692803367.5 }, /genesis_time/],
    ['no beacon id', { ...fixtures.info, metadata: {} }, /beaconID/],
    ['no metadata', { ...fixtures.info, metadata: undefined }, /beaconID/],
    ['a short public key', { ...fixtures.info, public_key: fixtures.info.public_key.slice(2) }, /public_key/],
    ['an uppercase public key', { ...fixtures.info, public_key: fixtures.info.public_key.toUpperCase() }, /public_key/],
    ['a public key off the curve', { ...fixtures.info, public_key: flipBit(fixtures.info.public_key, 95) }, /G2/],
    ['a short group hash', { ...fixtures.info, groupHash: 'f477d5c8' }, /groupHash/],
    ['no hash', { ...fixtures.info, hash: undefined }, /hash/],
    ['a hash of other fields', { ...fixtures.info, genesis_time: 1692803368 }, /not the hash of its fields/],
    ['another beacon id', { ...fixtures.info, metadata: { beaconID: 'quicknet2' } }, /not the hash of its fields/],
    ['v2 with a wrong chain hash', { ...fixtures.infoV2, chain_hash: fixtures.info.groupHash }, /not the hash/],
  ];
  it.each(broken)('throws a clear error on %s', (_, json, message) => {
    expect(() => parseChainInfo(json)).toThrow(message);
  });
});

describe('round clock', () => {
  const genesisMs = QUICKNET.genesisTime * 1000;

  it('roundTimeMs: genesis + (round − 1) × period', () => {
    expect(roundTimeMs(QUICKNET, 1)).toBe(genesisMs);
    expect(roundTimeMs(QUICKNET, 2)).toBe(genesisMs + 3000);
    expect(roundTimeMs(QUICKNET, 1000)).toBe(1_692_806_364_000);
    for (const round of [0, -1, 2.5, Number.NaN]) expect(() => roundTimeMs(QUICKNET, round)).toThrow(RangeError);
  });

  it('firstRoundAfter: exactly on a round time gives the next round', () => {
    expect(firstRoundAfter(QUICKNET, roundTimeMs(QUICKNET, 1000))).toBe(1001);
    expect(firstRoundAfter(QUICKNET, genesisMs)).toBe(2);
  });

  it('firstRoundAfter: just before and just after a round time', () => {
    const t = roundTimeMs(QUICKNET, 1000);
    expect(firstRoundAfter(QUICKNET, t - 1)).toBe(1000);
    expect(firstRoundAfter(QUICKNET, t - 0.001)).toBe(1000);
    expect(firstRoundAfter(QUICKNET, t + 0.001)).toBe(1001);
    expect(firstRoundAfter(QUICKNET, t + 2999.999)).toBe(1001);
    expect(firstRoundAfter(QUICKNET, t + 3000)).toBe(1002);
  });

  it('firstRoundAfter: round 1 before genesis', () => {
    expect(firstRoundAfter(QUICKNET, genesisMs - 0.5)).toBe(1);
    expect(firstRoundAfter(QUICKNET, 0)).toBe(1);
    expect(firstRoundAfter(QUICKNET, -1e12)).toBe(1);
    expect(() => firstRoundAfter(QUICKNET, Number.NaN)).toThrow(RangeError);
  });

  it('the round after t is always strictly after t and the one before it is not', () => {
    for (const t of [genesisMs + 1, 1_764_144_000_123.4, 1_800_000_000_000, roundTimeMs(QUICKNET, 4810423) + 1500]) {
      const round = firstRoundAfter(QUICKNET, t);
      expect(roundTimeMs(QUICKNET, round)).toBeGreaterThan(t);
      expect(roundTimeMs(QUICKNET, round - 1)).toBeLessThanOrEqual(t);
    }
  });

  it('agrees with the published rounds of the Sui tutorial: 4810223 + 200 rounds is 10 minutes', () => {
    expect(roundTimeMs(QUICKNET, 4810423) - roundTimeMs(QUICKNET, 4810223)).toBe(600_000);
  });
});

describe('verify cost', () => {
  // The browser's budget for a proof is 200 ms; the server's client test logs the figures.
  it('a warm verify takes well under 200 ms', () => {
    verifyBeaconRound(QUICKNET, first.round, first.signature); // warm-up: JIT, the key's decoding
    const n = 12;
    const start = Date.now();
    for (let i = 0; i < n; i++) {
      const r = rounds[i % rounds.length]!;
      expect(verifyBeaconRound(QUICKNET, r.round, r.signature)).toBe(true);
    }
    expect((Date.now() - start) / n).toBeLessThan(200);
  });
});
