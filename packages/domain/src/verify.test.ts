import { describe, expect, it } from 'vitest';
import { buildProof, REJECTION_EXAMPLE, WORKED_EXAMPLE } from './draw-example.ts';
import { maskName, maskPhone } from './mask.ts';
import type { GameProof } from './schemas/games.ts';
import { findOwnEntries, verifyProof } from './verify.ts';

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
