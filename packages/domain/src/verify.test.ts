import { bls12_381 } from '@noble/curves/bls12-381.js';
import { describe, expect, it } from 'vitest';
import { BEACON_DST, chainHashOf, QUICKNET, randomnessOf, roundMessage, roundTimeMs } from './beacon.ts';
import quicknet from './beacon-fixtures/quicknet.json';
import { canonicalName, canonicalPhone, entryHash } from './draw.ts';
import {
  buildProof,
  buildVoidedProof,
  LARGE_EXAMPLE,
  REJECTION_EXAMPLE,
  WORKED_EXAMPLE,
  WORKED_EXAMPLE_2,
  type ExampleGame,
} from './draw-example.ts';
import { maskName, maskPhone } from './mask.ts';
import type { GameProof } from './schemas/games.ts';
import {
  DEFAULT_PINS,
  findOwnEntries,
  isCleanlyDiscarded,
  unpinnedChainText,
  verifyProof,
  type PinnedChain,
} from './verify.ts';

const clone = (proof: GameProof): GameProof => JSON.parse(JSON.stringify(proof));
const flipLast = (hex: string) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
const failedChecks = async (proof: GameProof) =>
  (await verifyProof(proof)).checks.filter((c) => !c.ok).map((c) => c.name);

describe('masking', () => {
  it.each([
    ['John Doe', 'J*** D***'],
    ['  John   Doe  ', 'J*** D***'],
    ['Ana\tLima\nSantos', 'A*** L*** S***'],
    ['María José Núñez', 'M*** J*** N***'],
    // The same shape whatever a word's length: a mask does not tell it.
    ['Li', 'L***'],
    ['Bartholomew Jo', 'B*** J***'],
    ['李伟', '李***'],
    ['𝓐lice 😀x', '𝓐*** 😀***'],
    ['A', 'A***'],
    ['', ''],
    ['   ', ''],
  ])('name %j → %j', (name, masked) => expect(maskName(name)).toBe(masked));

  it.each([
    ['09171234567', '****4567'],
    ['+63 917 555 0199', '****0199'],
    ['(555) 01-42', '****0142'],
    ['12345', '****2345'],
    ['1234', '****'],
    ['12', '****'],
    ['', '****'],
    ['no digits', '****'],
  ])('phone %j → %j', (phone, masked) => expect(maskPhone(phone)).toBe(masked));

  it('a masked name is unchanged by masking again; a masked phone is not (so verification never re-masks)', () => {
    expect(maskName(maskName('María José Núñez'))).toBe('M*** J*** N***');
    expect(maskPhone(maskPhone('09171234567'))).toBe('****');
  });
});

describe('verifyProof', () => {
  it('verifies a settled game built with the domain functions, naming every check', async () => {
    const report = await verifyProof(await buildProof(WORKED_EXAMPLE));
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');
    expect(report.checks.map((c) => c.name)).toEqual([
      'Algorithm',
      'Bet',
      'Range',
      'Prizes',
      'Entries',
      'Entries digest',
      'Pool',
      'Commitment',
      'Draw count',
      'Draw 1',
      'Winner 1',
      'Draw 2',
      'Winner 2',
      'Draw 3',
      'Winner 3',
      'Unplayed draws',
      'Total prize',
      'Commission',
    ]);
  });

  it('verifies a game whose draw needed a second attempt', async () => {
    expect((await verifyProof(await buildProof(REJECTION_EXAMPLE))).verdict).toBe('verified');
  });

  it('verifies voided (after a draw) and discarded (before any) games once their seed is revealed', async () => {
    expect((await verifyProof(await buildProof(WORKED_EXAMPLE, { status: 'voided', drawCount: 1 }))).verdict).toBe(
      'verified',
    );
    expect((await verifyProof(await buildProof(WORKED_EXAMPLE, { status: 'discarded' }))).verdict).toBe('verified');
  });

  it('is pending while the seed is secret (open, or drawing with some positions drawn)', async () => {
    for (const proof of [
      await buildProof(WORKED_EXAMPLE, { status: 'open' }),
      await buildProof(WORKED_EXAMPLE, { status: 'drawing', drawCount: 1 }),
      await buildProof(WORKED_EXAMPLE, { status: 'drawing', drawCount: 2 }),
    ]) {
      expect(proof.serverSeed).toBeNull();
      const report = await verifyProof(proof);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      expect(report.verdict).toBe('pending');
    }
  });

  const settledMutations: [string, (p: GameProof) => void][] = [
    ['algorithm', (p) => (p.algorithm = 'LOT-DRAW-2')],
    ['server seed, one hex digit', (p) => (p.serverSeed = flipLast(p.serverSeed ?? ''))],
    ['server seed in upper case', (p) => (p.serverSeed = (p.serverSeed ?? '').toUpperCase())],
    ['server seed withheld from a settled game', (p) => (p.serverSeed = null)],
    ['commitment', (p) => (p.commitment = flipLast(p.commitment))],
    ['seed and commitment both replaced', (p) => (p.serverSeed = p.commitment)],
    ['entries digest', (p) => (p.entriesDigest = flipLast(p.entriesDigest))],
    ['an entry hash', (p) => (p.entries[1]!.entryHash = flipLast(p.entries[1]!.entryHash))],
    ['an entry hash that is not hex', (p) => (p.entries[1]!.entryHash = 'x'.repeat(64))],
    ["an entry's number", (p) => (p.entries[2]!.number = 17)],
    ['an entry removed', (p) => p.entries.splice(2, 1)],
    ['an entry duplicated', (p) => p.entries.push({ ...p.entries[0]! })],
    ['an entry added', (p) => p.entries.push({ ...p.entries[0]!, number: 20 })],
    ['a draw number', (p) => (p.draws[1]!.number = 20)],
    ['a draw repeated', (p) => (p.draws[1]!.number = p.draws[0]!.number)],
    ['two draws swapped', (p) => ([p.draws[0]!.number, p.draws[2]!.number] = [p.draws[2]!.number, p.draws[0]!.number])],
    ['a draw out of the range', (p) => (p.draws[1]!.number = 21)],
    ["a draw's position", (p) => (p.draws[2]!.position = 4)],
    ["a prize's percentBps", (p) => (p.prizes[0]!.percentBps = 6000)],
    ["a prize's percent text", (p) => (p.prizes[0]!.percent = '60.00')],
    ['prizes in another order', (p) => p.prizes.reverse()],
    ["a prize's position", (p) => (p.prizes[2]!.position = 5)],
    ['a prize position added', (p) => p.prizes.push({ position: 4, name: '4th', percentBps: 500, percent: '5.00' })],
    ['bet amount', (p) => (p.betAmount = '11.00')],
    ['bet cents', (p) => (p.betCents = 1100)],
    ['bet amount and cents together', (p) => ((p.betAmount = '11.00'), (p.betCents = 1100))],
    ['start of the range', (p) => (p.startRange = 2)],
    ['end of the range', (p) => (p.endRange = 21)],
    ['range beyond 100', (p) => (p.endRange = 101)],
    ['code', (p) => (p.code = 'EXAMPLE-9')],
    ['pool', (p) => (p.pool = '50.00')],
    ['a winner removed', (p) => (p.draws[0]!.winner = null)],
    ['a winner invented', (p) => (p.draws[1]!.winner = { number: 19, name: 'X***', phoneNumber: '****1111' })],
    ["a winner's name", (p) => (p.draws[0]!.winner!.name = 'J*** D***')],
    ["a winner's phone", (p) => (p.draws[0]!.winner!.phoneNumber = '****9999')],
    ["a winner's number", (p) => (p.draws[0]!.winner!.number = 1)],
    ['a prize amount', (p) => (p.draws[0]!.prizeAmount = '21.00')],
    ['a prize paid where nobody won', (p) => (p.draws[1]!.prizeAmount = '12.00')],
    ['total prize', (p) => (p.totalPrize = '25.00')],
    ['total prize missing', (p) => (p.totalPrize = null)],
    ['commission', (p) => (p.commission = '15.00')],
    ['commission missing', (p) => (p.commission = null)],
    ['settled with a missing draw', (p) => p.draws.pop()],
    ['settled with no draws', (p) => (p.draws = [])],
    ['status drawing with every position drawn', (p) => (p.status = 'drawing')],
    ['status voided with every position drawn', (p) => (p.status = 'voided')],
    ['status open with draws', (p) => (p.status = 'open')],
    ['status discarded with draws', (p) => (p.status = 'discarded')],
  ];

  it.each(settledMutations)('fails a settled proof with one change: %s', async (_, mutate) => {
    const valid = await buildProof(WORKED_EXAMPLE);
    const proof = clone(valid);
    mutate(proof);
    expect(proof).not.toEqual(valid);
    const report = await verifyProof(proof);
    expect(report.verdict).toBe('failed');
  });

  // Each with the one check it must trip (the seed is secret, so the draws cannot be recomputed).
  const pendingMutations: [string, string, (p: GameProof) => void][] = [
    ['a draw repeated', 'Draw 2', (p) => p.draws.push({ ...p.draws[0]!, position: 2, prizeAmount: '12.00' })],
    [
      'a draw out of the range',
      'Draw 1',
      (p) => Object.assign(p.draws[0]!, { number: 21, winner: null, prizeAmount: '0.00' }),
    ],
    ['an entry hash', 'Entries digest', (p) => (p.entries[0]!.entryHash = flipLast(p.entries[0]!.entryHash))],
    ['a winner removed', 'Winner 1', (p) => (p.draws[0]!.winner = null)],
    ["a winner's phone", 'Winner 1', (p) => (p.draws[0]!.winner!.phoneNumber = '****0000')],
    ['a prize amount', 'Winner 1', (p) => (p.draws[0]!.prizeAmount = '19.00')],
    ['pool', 'Pool', (p) => (p.pool = '30.00')],
    [
      'every position drawn but still drawing',
      'Draw count',
      (p) =>
        p.draws.push(
          { ...p.draws[0]!, position: 2, number: 2, winner: null, prizeAmount: '0.00' },
          { ...p.draws[0]!, position: 3, number: 4, winner: null, prizeAmount: '0.00' },
        ),
    ],
  ];

  it.each(pendingMutations)('fails a pending proof with one change: %s (%s)', async (_, check, mutate) => {
    const valid = await buildProof(WORKED_EXAMPLE, { status: 'drawing', drawCount: 1 });
    const proof = clone(valid);
    mutate(proof);
    expect(proof).not.toEqual(valid);
    expect((await verifyProof(proof)).verdict).toBe('failed');
    expect(await failedChecks(proof)).toEqual([check]);
  });

  it('names the check that fails', async () => {
    const proof = clone(await buildProof(WORKED_EXAMPLE));
    proof.draws[1]!.number = 20;
    expect(await failedChecks(proof)).toEqual(['Draw 2']);
    const phone = clone(await buildProof(WORKED_EXAMPLE));
    phone.draws[0]!.winner!.phoneNumber = '****9999';
    expect(await failedChecks(phone)).toEqual(['Winner 1']);
  });

  it('ignores what the proof only displays (shop, times, prize names, void reason)', async () => {
    const proof = clone(await buildProof(WORKED_EXAMPLE));
    proof.shopName = 'Another';
    proof.openedAt = '2020-01-01T00:00:00.000Z';
    proof.prizes[0]!.name = 'Jackpot';
    proof.draws[0]!.drawnAt = '2020-01-01T00:00:00.000Z';
    expect((await verifyProof(proof)).verdict).toBe('verified');
  });
});

describe('findOwnEntries', () => {
  it('finds the number of the entry a participant types, exactly as given to the shop', async () => {
    const proof = await buildProof(WORKED_EXAMPLE);
    expect(await findOwnEntries(proof, { name: 'María José Núñez', phoneNumber: '+63 917 555 0199' })).toEqual([3]);
    expect(await findOwnEntries(proof, { name: '  Ana Santos ', phoneNumber: ' 09998765432 ' })).toEqual([18]);
    expect(await findOwnEntries(proof, { name: 'John Doe', phoneNumber: '09171234567' })).toEqual([1]);
  });

  it('finds nothing for a wrong phone, another spelling or another person', async () => {
    const proof = await buildProof(WORKED_EXAMPLE);
    expect(await findOwnEntries(proof, { name: 'María José Núñez', phoneNumber: '+63 917 555 0198' })).toEqual([]);
    expect(await findOwnEntries(proof, { name: 'María José Núñez', phoneNumber: '+639175550199' })).toEqual([]);
    expect(await findOwnEntries(proof, { name: 'Maria Jose Nunez', phoneNumber: '+63 917 555 0199' })).toEqual([]);
    expect(await findOwnEntries(proof, { name: 'john doe', phoneNumber: '09171234567' })).toEqual([]);
    expect(await findOwnEntries(proof, { name: 'Li Wei', phoneNumber: '09171234567' })).toEqual([]);
  });
});

/** A real quicknet round of the fixtures: its signature and randomness. */
function realRound(round: number): { round: number; signature: string; randomness: string } {
  const found = quicknet.rounds.find((r) => r.round === round);
  if (!found) throw new Error(`no fixture round ${round}`);
  return found;
}

/** A drand chain of the tests' own (quicknet's scheme, a fixed key), to sign rounds quicknet never published. */
function testChain() {
  const sigs = bls12_381.shortSignatures;
  const { secretKey, publicKey } = sigs.keygen(new Uint8Array(sigs.lengths.seed ?? 32).fill(9));
  const info = {
    publicKey: publicKey.toHex(),
    genesisTime: 1_750_000_000,
    period: 3,
    groupHash: '11'.repeat(32),
    beaconId: 'lot-test',
  };
  const pin: PinnedChain = {
    chainHash: chainHashOf(info),
    publicKey: info.publicKey,
    genesisTime: info.genesisTime,
    period: info.period,
    name: 'test chain',
  };
  const sign = (round: number) => sigs.sign(sigs.hash(roundMessage(round), BEACON_DST), secretKey).toHex();
  return { pin, sign };
}

/** WORKED_EXAMPLE_2 on another beacon, frozen 1.2 s before `round` of it, drawn from that round's signature. */
function onBeacon(pin: PinnedChain, round: number, signature: string): ExampleGame {
  const chain = {
    chainHash: pin.chainHash,
    publicKey: pin.publicKey,
    genesisTime: pin.genesisTime,
    period: pin.period,
  };
  const frozen = roundTimeMs(chain, round) - 1200;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    ...WORKED_EXAMPLE_2,
    beacon: { name: pin.name, chain, round, signature },
    times: {
      openedAt: iso(frozen - 600_000),
      frozenAt: iso(frozen),
      drawnAt: [iso(frozen + 10_000), iso(frozen + 20_000), iso(frozen + 30_000)],
      endedAt: iso(frozen + 30_000),
    },
  };
}

describe('verifyProof on LOT-DRAW-2', () => {
  it('verifies the settled worked example, naming every check', async () => {
    const report = await verifyProof(await buildProof(WORKED_EXAMPLE_2));
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');
    expect(report.waitingFor).toBeNull();
    expect(report.checks.map((c) => c.name)).toEqual([
      'Algorithm',
      'Bet',
      'Range',
      'Prizes',
      'Entries',
      'Entries digest',
      'Pool',
      'Commitment',
      'Beacon chain',
      'Beacon round',
      'Beacon signature',
      'Draw count',
      'Draw 1',
      'Winner 1',
      'Draw 2',
      'Winner 2',
      'Draw 3',
      'Winner 3',
      'Unplayed draws',
      'Total prize',
      'Commission',
    ]);
  });

  it('verifies a game voided after its freeze, recomputing the draws it would have made', async () => {
    const proof = await buildVoidedProof();
    expect(proof.unplayedDraws.map((d) => d.position)).toEqual([2, 3]);
    const report = await verifyProof(proof);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');
    expect(report.checks.map((c) => c.name).slice(-5)).toEqual([
      'Unplayed draws',
      'Unplayed draw 2',
      'Unplayed winner 2',
      'Unplayed draw 3',
      'Unplayed winner 3',
    ]);
    // Voided after the freeze with nothing drawn yet (R fetched later): all three are unplayed.
    const early = await buildProof(WORKED_EXAMPLE_2, { status: 'voided', drawCount: 0, voidReason: 'Wrong range' });
    expect(early.unplayedDraws.map((d) => d.number)).toEqual(
      (await buildProof(WORKED_EXAMPLE_2)).draws.map((d) => d.number),
    );
    expect((await verifyProof(early)).verdict).toBe('verified');
  });

  it('verifies a game discarded before its freeze (no round, nothing drawn)', async () => {
    const proof = await buildProof(WORKED_EXAMPLE_2, { status: 'discarded', voidReason: 'Opened by mistake' });
    expect(proof.beacon?.round).toBeNull();
    const report = await verifyProof(proof);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');
  });

  it('is pending while frozen and waiting for R (no signature, no draws), and while the seed is secret', async () => {
    const waiting = await buildProof(WORKED_EXAMPLE_2, { status: 'drawing' });
    expect(waiting.beacon?.signature).toBeNull();
    expect(waiting.draws).toEqual([]);
    const report = await verifyProof(waiting);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('pending');
    expect(report.waitingFor).toBe('beacon');
    expect(report.checks.find((c) => c.name === 'Beacon signature')?.detail).toMatch(/not in the proof yet/);

    for (const proof of [
      await buildProof(WORKED_EXAMPLE_2, { status: 'open' }),
      await buildProof(WORKED_EXAMPLE_2, { status: 'drawing', drawCount: 1 }),
      await buildProof(WORKED_EXAMPLE_2, { status: 'drawing', drawCount: 2 }),
    ]) {
      const pending = await verifyProof(proof);
      expect(pending.checks.filter((c) => !c.ok)).toEqual([]);
      expect(pending.verdict).toBe('pending');
      expect(pending.waitingFor).toBe('seed');
    }
  });

  it('verifies a game frozen before L was recorded by the rule it froze under: R the first round after the freeze', async () => {
    const { latest: _, ...beacon } = WORKED_EXAMPLE_2.beacon!;
    const frozenAt = new Date(roundTimeMs(QUICKNET, beacon.round) - 1200).toISOString();
    const old: ExampleGame = { ...WORKED_EXAMPLE_2, beacon, times: { ...WORKED_EXAMPLE_2.times!, frozenAt } };
    const proof = await buildProof(old);
    expect(proof.beacon?.latestRound).toBeNull();
    const report = await verifyProof(proof);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'Beacon round')?.detail).toContain('not recorded');
    expect(report.verdict).toBe('verified');
    // Under that rule the round before R fails as it always did, and so does a freeze 3.2 s before R.
    const early = clone(proof);
    early.frozenAt = new Date(roundTimeMs(QUICKNET, beacon.round) - 3200).toISOString();
    expect(await failedChecks(early)).toEqual(['Beacon round']);
    // A proof whose L is absent altogether (saved before the field existed) is read the same way.
    const { latestRound: __, ...savedBeacon } = proof.beacon!;
    const saved = { ...clone(proof), beacon: savedBeacon } as GameProof;
    expect((await verifyProof(saved)).verdict).toBe('verified');
  });

  it('is pending, not verified, for a game voided before the server fetched R', async () => {
    const proof = await buildProof(WORKED_EXAMPLE_2, { status: 'voided', beaconFetched: false });
    expect(proof.serverSeed).not.toBeNull();
    expect(proof.unplayedDraws).toEqual([]);
    const report = await verifyProof(proof);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('pending');
    expect(report.waitingFor).toBe('beacon');
  });

  const settled = () => buildProof(WORKED_EXAMPLE_2);
  const voided = () => buildVoidedProof();
  const failing: [string, () => Promise<GameProof>, (p: GameProof) => void, string[]][] = [
    [
      'a forged signature: another real round of quicknet, its randomness recomputed to match',
      settled,
      (p) => {
        p.beacon!.signature = realRound(4_810_423).signature;
        p.beacon!.randomness = randomnessOf(p.beacon!.signature);
      },
      ['Beacon signature'],
    ],
    [
      'a forged signature: one hex digit changed',
      settled,
      (p) => (p.beacon!.signature = flipLast(p.beacon!.signature!)),
      ['Beacon signature'],
    ],
    [
      'randomness that is not SHA-256 of the signature',
      settled,
      (p) => (p.beacon!.randomness = flipLast(p.beacon!.randomness!)),
      ['Beacon signature'],
    ],
    [
      'a round at the freeze: frozenAt moved onto R’s time',
      settled,
      (p) => (p.frozenAt = p.beacon!.expectedAt),
      ['Beacon round'],
    ],
    [
      'a round before the freeze: frozenAt moved after R’s time',
      settled,
      (p) => (p.frozenAt = new Date(Date.parse(p.beacon!.expectedAt!) + 500).toISOString()),
      ['Beacon round'],
    ],
    [
      'the round before R, with R’s signature',
      settled,
      (p) => {
        p.beacon!.round = p.beacon!.round! - 1;
        p.beacon!.expectedAt = new Date(roundTimeMs(QUICKNET, p.beacon!.round)).toISOString();
      },
      ['Beacon signature'],
    ],
    [
      'R moved onto L, the latest public round at the freeze, with R’s signature',
      settled,
      (p) => {
        p.beacon!.round = p.beacon!.latestRound;
        p.beacon!.expectedAt = new Date(roundTimeMs(QUICKNET, p.beacon!.round!)).toISOString();
      },
      ['Beacon round', 'Beacon signature'],
    ],
    ['L moved onto R', settled, (p) => (p.beacon!.latestRound = p.beacon!.round), ['Beacon round']],
    ['L that is not a round', settled, (p) => (p.beacon!.latestRound = 0), ['Beacon round']],
    [
      'L removed: the rule of games frozen before L, and R is not the first round after the freeze',
      settled,
      (p) => (p.beacon!.latestRound = null),
      ['Beacon round'],
    ],
    ['expectedAt that is not R’s time', settled, (p) => (p.beacon!.expectedAt = p.frozenAt), ['Beacon round']],
    ['the freeze time removed', settled, (p) => (p.frozenAt = null), ['Beacon round']],
    [
      'numbers drawn without R’s signature',
      settled,
      (p) => Object.assign(p.beacon!, { signature: null, randomness: null }),
      ['Beacon signature'],
    ],
    [
      'an entry hash edited',
      settled,
      (p) => (p.entries[1]!.entryHash = flipLast(p.entries[1]!.entryHash)),
      ['Entries digest'],
    ],
    ['the commitment', settled, (p) => (p.commitment = flipLast(p.commitment)), ['Commitment']],
    [
      'the commitment of LOT-DRAW-1 (SHA-256 of the seed bytes)',
      settled,
      (p) => (p.commitment = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'),
      ['Commitment'],
    ],
    ['the beacon removed', settled, (p) => (p.beacon = null), ['Commitment', 'Beacon chain']],
    ['the unplayed draws removed from a voided game', voided, (p) => (p.unplayedDraws = []), ['Unplayed draws']],
    ['an unplayed draw removed', voided, (p) => p.unplayedDraws.pop(), ['Unplayed draws']],
    ['an unplayed draw’s number changed', voided, (p) => (p.unplayedDraws[0]!.number = 20), ['Unplayed draw 2']],
    [
      'an unplayed winner removed',
      voided,
      (p) => Object.assign(p.unplayedDraws[1]!, { winner: null, prizeAmount: '0.00' }),
      ['Unplayed winner 3'],
    ],
    [
      'unplayed draws in another order',
      voided,
      (p) => p.unplayedDraws.reverse(),
      ['Unplayed draws', 'Unplayed draw 2', 'Unplayed winner 2', 'Unplayed draw 3'],
    ],
    [
      'unplayed draws on a settled game',
      settled,
      (p) => p.unplayedDraws.push({ ...p.draws[2]!, position: 4, number: 2, winner: null, prizeAmount: '0.00' }),
      ['Unplayed draws', 'Unplayed draw 4'],
    ],
  ];

  it.each(failing)('fails with %s', async (_, build, mutate, names) => {
    const valid = await build();
    const proof = clone(valid);
    mutate(proof);
    expect(proof).not.toEqual(valid);
    const report = await verifyProof(proof);
    expect(report.verdict).toBe('failed');
    expect(report.waitingFor).toBeNull();
    expect(await failedChecks(proof)).toEqual(names);
  });

  it('fails a tampered protocol: a LOT-DRAW-2 proof relabelled LOT-DRAW-1 fails its commitment and its draws', async () => {
    const proof = clone(await settled());
    proof.algorithm = 'LOT-DRAW-1';
    const failed = await failedChecks(proof);
    expect(failed).toContain('Commitment');
    expect(failed).toContain('Draw 1');
  });

  it('fails an entry hashed with a wrong nonce (Entries digest), and the draws too once the digest follows', async () => {
    const proof = clone(await settled());
    const john = WORKED_EXAMPLE_2.entries[0]!;
    proof.entries[0]!.entryHash = await entryHash({ ...john, nonce: 'ffffffffffffffff' });
    expect(await failedChecks(proof)).toEqual(['Entries digest']);
    // A server that swapped the entry and its digest together (after the freeze) changes every draw.
    const swapped = await buildProof({
      ...WORKED_EXAMPLE_2,
      entries: WORKED_EXAMPLE_2.entries.map((e, i) => (i === 0 ? { ...e, nonce: 'ffffffffffffffff' } : e)),
    });
    const forged = clone(await settled());
    forged.entries = swapped.entries;
    forged.entriesDigest = swapped.entriesDigest;
    expect((await failedChecks(forged)).filter((name) => name.startsWith('Draw '))).not.toEqual([]);
  });

  it('fails a game drawn from a round published before its freeze, even with the round’s real signature', async () => {
    // An earlier real quicknet round: its signature verifies, the draws are computed from it, but it is not R.
    const early = realRound(4_810_223);
    const game = onBeacon(DEFAULT_PINS[0]!, 4_810_403, early.signature);
    const proof = await buildProof({ ...game, beacon: { ...game.beacon!, round: early.round } });
    expect(proof.beacon?.randomness).toBe(early.randomness);
    expect(await failedChecks(proof)).toEqual(['Beacon round']);
  });

  it('fails a beacon of a chain it does not pin (Beacon chain), and verifies it once that chain is pinned', async () => {
    const { pin, sign } = testChain();
    const round = 1_000_000;
    const proof = await buildProof(onBeacon(pin, round, sign(round)));
    expect(await failedChecks(proof)).toEqual(['Beacon chain']);
    // Named for what it is, not a bare "Not verified": another chain, to pin before it can be checked.
    expect((await verifyProof(proof)).verdict).toBe('unpinned');
    expect(unpinnedChainText(pin.chainHash)).toBe(
      `Public randomness from chain ${pin.chainHash}: not drand quicknet; pin it to check`,
    );
    // Anything else wrong as well: failed.
    expect((await verifyProof({ ...proof, pool: '0.01' })).verdict).toBe('failed');
    const pinned = await verifyProof(proof, [...DEFAULT_PINS, pin]);
    expect(pinned.checks.filter((c) => !c.ok)).toEqual([]);
    expect(pinned.verdict).toBe('verified');
    expect(pinned.checks.find((c) => c.name === 'Beacon chain')?.detail).toMatch(/^test chain/);
    // Quicknet's proofs fail under a verifier that pins only the test chain.
    expect((await verifyProof(await settled(), [pin])).checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([
      'Beacon chain',
    ]);
  });

  it("fails quicknet's hash and key with another clock: the genesis and period are pinned too", async () => {
    for (const clock of [{ period: 30 }, { genesisTime: QUICKNET.genesisTime - 3 }]) {
      const pin = { ...DEFAULT_PINS[0]!, ...clock };
      // A game that committed to the wrong clock at open, so its commitment agrees with it.
      const game = onBeacon(pin, 4_810_403, realRound(4_810_403).signature);
      expect(await failedChecks(await buildProof(game))).toEqual(['Beacon chain']);
      // Quicknet's hash with another clock is a forgery, not another chain.
      expect((await verifyProof(await buildProof(game))).verdict).toBe('failed');
    }
  });
});

describe('isCleanlyDiscarded', () => {
  it('is a discarded proof with no draws, not one that lists draws nor another status', async () => {
    expect(isCleanlyDiscarded(await buildProof(WORKED_EXAMPLE, { status: 'discarded' }))).toBe(true);
    expect(isCleanlyDiscarded(await buildProof(WORKED_EXAMPLE, { status: 'discarded', drawCount: 1 }))).toBe(false);
    expect(isCleanlyDiscarded(await buildProof(WORKED_EXAMPLE, { status: 'voided' }))).toBe(false);
  });
});

describe('findOwnEntries on LOT-DRAW-2', () => {
  const nonceOf = (number: number) => WORKED_EXAMPLE_2.entries.find((e) => e.number === number)?.nonce ?? '';
  const john = { name: 'John Doe', phoneNumber: '09171234567', nonce: nonceOf(1) };
  const maria = { name: 'María José Núñez', phoneNumber: '+63 917 555 0199', nonce: nonceOf(3) };
  /** The worked example with John Doe on two more numbers, 7 and 12, typed differently, sharing his nonce. */
  const threeNumbers = () =>
    buildProof({
      ...WORKED_EXAMPLE_2,
      entries: [
        ...WORKED_EXAMPLE_2.entries,
        { number: 7, ...john, canonical: true },
        { number: 12, name: 'JOHN  DOE', phoneNumber: '0917 123 4567', nonce: john.nonce, canonical: true },
      ],
    });

  it('with the nonce finds every number the person holds', async () => {
    const proof = await threeNumbers();
    expect(await findOwnEntries(proof, john)).toEqual([1, 7, 12]);
    // As read off a slip: spaces, dashes and capitals do not matter; the name and phone are trimmed.
    const grouped = john.nonce.toUpperCase().replace(/(.{4})(?!$)/g, '$1 ');
    expect(await findOwnEntries(proof, { name: ' John Doe ', phoneNumber: '09171234567 ', nonce: grouped })).toEqual([
      1, 7, 12,
    ]);
    expect(await findOwnEntries(proof, { ...john, nonce: grouped.replace(/ /g, '-') })).toEqual([1, 7, 12]);
    expect(await findOwnEntries(await buildProof(WORKED_EXAMPLE_2), maria)).toEqual([3]);
  });

  it.each([
    ['case', { name: 'john doe', phoneNumber: '09171234567' }],
    ['spacing', { name: 'John   Doe', phoneNumber: '0917 123 4567' }],
    ['no space', { name: 'johndoe', phoneNumber: '0917-123-4567' }],
    ['a tab and a no-break space', { name: 'John\t\u00a0Doe', phoneNumber: '(0917) 123.4567' }],
  ])('matches the name and phone whatever their %s', async (_what, typed) => {
    expect(await findOwnEntries(await threeNumbers(), { ...typed, nonce: john.nonce })).toEqual([1, 7, 12]);
  });

  it('matches a name whatever its accents, in composed or decomposed form, and a phone by its digits', async () => {
    const proof = await buildProof(WORKED_EXAMPLE_2);
    for (const name of [
      'Maria Jose Nunez',
      'MARÍA JOSÉ NÚÑEZ',
      'mari\u0301a jose\u0301 nu\u0301n\u0303ez',
      'MariaJoseNunez',
    ])
      expect(await findOwnEntries(proof, { ...maria, name }), name).toEqual([3]);
    for (const phoneNumber of ['+639175550199', '63-917-555-0199', '(+63) 917 555 0199'])
      expect(await findOwnEntries(proof, { ...maria, phoneNumber }), phoneNumber).toEqual([3]);
    expect(canonicalName('María  José')).toBe('mariajose');
    expect(canonicalPhone('+63 917-555 0199')).toBe('639175550199');
  });

  it('matches ø, æ, ß, ł and the like folded, and a phone typed with + or 00', async () => {
    const nonce = '0123456789abcdef';
    const entry = { number: 9, name: 'Søren Łæstadiuß', phoneNumber: '+49 170 555 0199', nonce };
    const proof = await buildProof({
      ...WORKED_EXAMPLE_2,
      entries: [...WORKED_EXAMPLE_2.entries, { ...entry, canonical: 2 }],
    });
    for (const name of ['Søren Łæstadiuß', 'Soren Laestadiuss', 'SOREN LAESTADIUSS'])
      for (const phoneNumber of ['+49 170 555 0199', '0049 170 555 0199', '491705550199'])
        expect(await findOwnEntries(proof, { name, phoneNumber, nonce }), `${name} ${phoneNumber}`).toEqual([9]);
    expect(await findOwnEntries(proof, { ...entry, phoneNumber: '0170 555 0199' })).toEqual([]);
    expect(await findOwnEntries(proof, { ...entry, name: 'Soren Lastadius' })).toEqual([]);
  });

  it('finds an entry of the first canonical form typed with the letters or the prefix it was written without', async () => {
    const nonce = '0123456789abcdef';
    const firstForm = (name: string, phoneNumber: string) =>
      buildProof({
        ...WORKED_EXAMPLE_2,
        entries: [...WORKED_EXAMPLE_2.entries, { number: 9, name, phoneNumber, nonce, canonical: true }],
      });
    const plain = await firstForm('Orsted', '0049 170 555 0199');
    for (const typed of [
      { name: 'Ørsted', phoneNumber: '+49 170 555 0199' },
      { name: 'orsted', phoneNumber: '0049 170 555 0199' },
    ])
      expect(await findOwnEntries(plain, { ...typed, nonce }), typed.name).toEqual([9]);
    const plus = await firstForm('Ørsted', '+49 170 555 0199');
    expect(await findOwnEntries(plus, { name: 'ørsted', phoneNumber: '0049 170 555 0199', nonce })).toEqual([9]);
    // Written with ø then, typed with o now: the hash cannot tell which o was an ø (decision 090).
    expect(await findOwnEntries(plus, { name: 'Orsted', phoneNumber: '+49 170 555 0199', nonce })).toEqual([]);
  });

  it('finds nothing with a wrong nonce, without the nonce, with another person’s nonce, or another name or phone', async () => {
    const proof = await threeNumbers();
    expect(await findOwnEntries(proof, { ...john, nonce: flipLast(john.nonce) })).toEqual([]);
    expect(await findOwnEntries(proof, { ...john, nonce: undefined })).toEqual([]);
    expect(await findOwnEntries(proof, { ...john, nonce: '' })).toEqual([]);
    expect(await findOwnEntries(proof, { ...john, nonce: maria.nonce })).toEqual([]);
    expect(await findOwnEntries(proof, { ...john, phoneNumber: '09171234568' })).toEqual([]);
    expect(await findOwnEntries(proof, { ...john, phoneNumber: '+09171234567 1' })).toEqual([]);
    expect(await findOwnEntries(proof, { ...john, name: 'John Doe Jr' })).toEqual([]);
    expect(await findOwnEntries(proof, { ...john, name: 'Jon Doe' })).toEqual([]);
  });

  it('finds entries hashed as typed (before 26 November 2026) with the name and phone exactly as typed', async () => {
    const asTyped = await buildProof({
      ...WORKED_EXAMPLE_2,
      entries: WORKED_EXAMPLE_2.entries.map(({ canonical: _, ...e }) => e),
    });
    expect(await findOwnEntries(asTyped, maria)).toEqual([3]);
    expect(await findOwnEntries(asTyped, { ...maria, name: ' María José Núñez ' })).toEqual([3]);
    expect(await findOwnEntries(asTyped, { ...maria, name: 'Maria Jose Nunez' })).toEqual([]);
  });

  it('still finds legacy entries (no nonce) by name and phone, with or without a nonce typed', async () => {
    const legacy = await buildProof(WORKED_EXAMPLE);
    expect(await findOwnEntries(legacy, { name: 'John Doe', phoneNumber: '09171234567' })).toEqual([1]);
    expect(await findOwnEntries(legacy, john)).toEqual([1]);
  });
});

describe('a large proof', () => {
  // How long this takes is measured by `npm run bench -- verify` (bench/verify.ts), not here.
  it('verifies a 100-entry LOT-DRAW-2 proof with five prizes', async () => {
    const proof = await buildProof(LARGE_EXAMPLE);
    expect(proof.entries).toHaveLength(100);
    expect((await verifyProof(proof)).verdict).toBe('verified');
  });
});
