import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEACON_DST, chainHashOf, randomnessOf, roundMessage, roundTimeMs } from '../packages/domain/src/beacon.ts';
import quicknet from '../packages/domain/src/beacon-fixtures/quicknet.json';
import {
  buildProof,
  buildVoidedProof,
  REJECTION_EXAMPLE,
  WORKED_EXAMPLE,
  WORKED_EXAMPLE_2,
} from '../packages/domain/src/draw-example.ts';
import type { GameProof } from '../packages/domain/src/schemas/games.ts';
import { verifyProof } from '../packages/domain/src/verify.ts';
import {
  exampleLogVkey,
  exampleWitnessVkey,
  withLogEvidence,
} from '../packages/domain/src/game-log-evidence-example.ts';
import { NOT_WITNESSED, verifyGameLog, WITNESSING_FAILED } from '../packages/domain/src/verify-log.ts';

/**
 * scripts/verify-game.mjs is the second, independent implementation of LOT-DRAW-1 and LOT-DRAW-2
 * (Node's crypto and, for the beacon's signature, @noble/curves; written from docs/lot-draw-1.md and
 * docs/lot-draw-2.md). It must agree with the pages and with the domain's verifyProof.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const script = join(root, 'scripts/verify-game.mjs');
const page = readFileSync(join(root, 'docs/lot-draw-1.md'), 'utf8');
const page2 = readFileSync(join(root, 'docs/lot-draw-2.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'lot-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(arg: string, ...options: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, arg, ...options], { timeout: 20_000 }, (error, stdout) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout }),
    );
  });
}

let files = 0;
function file(proof: unknown): string {
  const path = join(dir, `proof-${++files}.json`);
  writeFileSync(path, typeof proof === 'string' ? proof : JSON.stringify(proof));
  return path;
}

const lastLine = (stdout: string) => stdout.trim().split('\n').at(-1);
const clone = (proof: GameProof): GameProof => JSON.parse(JSON.stringify(proof));

/** The worked example's proof, as the page prints it. */
const pageProof = (): GameProof => JSON.parse(/```json\n([\s\S]*?)\n```/.exec(page)?.[1] ?? '');

describe('scripts/verify-game.mjs', () => {
  it("verifies the page's worked example (exit 0)", async () => {
    const { code, stdout } = await run(file(pageProof()));
    expect(stdout).toContain('✓ Draw 3: 3');
    expect(stdout).not.toContain('✗');
    expect(lastLine(stdout)).toBe('Verified');
    expect(code).toBe(0);
  });

  it('verifies a game whose draw needed a second attempt, as the page shows it', async () => {
    const { code, stdout } = await run(file(await buildProof(REJECTION_EXAMPLE)));
    expect(stdout).toContain('✓ Draw 1: 64 (after 1 rejected attempt)');
    expect(lastLine(stdout)).toBe('Verified');
    expect(code).toBe(0);
  });

  it('verifies voided games', async () => {
    const { code, stdout } = await run(file(await buildProof(WORKED_EXAMPLE, { status: 'voided', drawCount: 2 })));
    expect(lastLine(stdout)).toBe('Verified');
    expect(code).toBe(0);
  });

  it('says only "Discarded — nothing was drawn" of a discarded game, and checks one that lists draws (failing)', async () => {
    for (const example of [WORKED_EXAMPLE, WORKED_EXAMPLE_2]) {
      const { code, stdout } = await run(file(await buildProof(example, { status: 'discarded' })));
      expect(stdout).toBe('Discarded — nothing was drawn\n');
      expect(code).toBe(0);
    }
    const drawn = await buildProof(WORKED_EXAMPLE, { status: 'discarded', drawCount: 1 });
    const { code, stdout } = await run(file(drawn));
    expect(lastLine(stdout)).toMatch(/^FAILED: .*Draw count/);
    expect(code).toBe(1);
  });

  it('agrees with the domain on varied games (ranges, codes, Unicode names, many prizes)', async () => {
    const names = ['Zoë Ångström', '李伟', '  O’Brien  Jr. ', 'José-María', '😀 Smile', 'a'];
    const games = [
      { code: 'aZ09-_xY', startRange: 5, endRange: 12, prizes: 2, entries: [5, 6, 11] },
      { code: 'Q'.repeat(22), startRange: 1, endRange: 100, prizes: 5, entries: [1, 50, 99, 100, 3, 7] },
      { code: 'b_c', startRange: 98, endRange: 100, prizes: 3, entries: [98, 99, 100] },
      { code: 'x', startRange: 1, endRange: 2, prizes: 2, entries: [2] },
    ];
    for (const [g, game] of games.entries()) {
      const proof = await buildProof({
        ...WORKED_EXAMPLE,
        serverSeed: createHmac('sha256', 'varied').update(String(g)).digest('hex'),
        code: game.code,
        startRange: game.startRange,
        endRange: game.endRange,
        betCents: 125 + g,
        prizes: Array.from({ length: game.prizes }, (_, i) => ({
          position: i * 2 + 1,
          name: `P${i}`,
          percentBps: 1000 + 333 * i,
        })),
        entries: game.entries.map((number, i) => ({
          number,
          name: names[i % names.length] as string,
          phoneNumber: `+1 (555) 01${i}-${number}`,
        })),
      });
      const { code, stdout } = await run(file(proof));
      expect(lastLine(stdout), stdout).toBe('Verified');
      expect(code).toBe(0);
    }
  });

  it('says Pending (exit 2) while the seed is secret', async () => {
    const { code, stdout } = await run(file(await buildProof(WORKED_EXAMPLE, { status: 'drawing', drawCount: 1 })));
    expect(lastLine(stdout)).toMatch(/^Pending: /);
    expect(code).toBe(2);
  });

  const tampered: [string, (p: GameProof) => void][] = [
    ['a draw number', (p) => (p.draws[1]!.number = 20)],
    ['the seed', (p) => (p.serverSeed = `${p.serverSeed!.slice(0, -1)}0`)],
    ['the commitment', (p) => (p.commitment = p.commitment.replace(/^./, '0'))],
    ['an entry hash', (p) => (p.entries[0]!.entryHash = p.entries[0]!.entryHash.replace(/^./, '0'))],
    ["a prize's percent", (p) => (p.prizes[0]!.percentBps = 6000)],
    ["a prize's percent text", (p) => (p.prizes[0]!.percent = '60.00')],
    ['the bet', (p) => (p.betCents = 1100)],
    ['the range', (p) => (p.endRange = 21)],
    ['the code', (p) => (p.code = 'EXAMPLE-9')],
    ['the pool', (p) => (p.pool = '50.00')],
    ["a winner's phone", (p) => (p.draws[0]!.winner!.phoneNumber = '****9999')],
    ['a winner removed', (p) => (p.draws[0]!.winner = null)],
    ['a prize amount', (p) => (p.draws[0]!.prizeAmount = '21.00')],
    ['the total prize', (p) => (p.totalPrize = '25.00')],
    ['the commission', (p) => (p.commission = '15.00')],
    ['a missing draw', (p) => p.draws.pop()],
    ['status drawing with every position drawn', (p) => (p.status = 'drawing')],
    ['the seed withheld', (p) => (p.serverSeed = null)],
  ];

  it.each(tampered)('fails a proof with %s changed (exit 1)', async (_, mutate) => {
    const proof = clone(pageProof());
    mutate(proof);
    const { code, stdout } = await run(file(proof));
    expect(lastLine(stdout)).toMatch(/^FAILED: /);
    expect(stdout).toContain('✗');
    expect(code).toBe(1);
  });

  it('fails what it cannot read (exit 1)', async () => {
    for (const arg of [file('not json'), file({ code: 'X' }), join(dir, 'missing.json')]) {
      const { code, stdout } = await run(arg);
      expect(lastLine(stdout)).toMatch(/^FAILED: /);
      expect(code).toBe(1);
    }
  });

  describe('from a URL', () => {
    let server: Server;
    let base = '';
    const requested: string[] = [];
    beforeAll(async () => {
      const body = JSON.stringify(pageProof());
      server = createServer((request, response) => {
        requested.push(request.url ?? '');
        const found = request.url === '/api/verify/EXAMPLE-1';
        response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
        response.end(found ? body : '{"message":"Not found","code":"NOT_FOUND"}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reads the proof from the verify page address or the API address', async () => {
      for (const url of [`${base}/verify/EXAMPLE-1`, `${base}/api/verify/EXAMPLE-1`]) {
        const { code, stdout } = await run(url);
        expect(lastLine(stdout)).toBe('Verified');
        expect(code).toBe(0);
      }
      expect(requested).toEqual(['/api/verify/EXAMPLE-1', '/api/verify/EXAMPLE-1']);
    });

    it('fails on an unknown game (exit 1)', async () => {
      const { code, stdout } = await run(`${base}/verify/NOPE`);
      expect(lastLine(stdout)).toMatch(/^FAILED: .*404/);
      expect(code).toBe(1);
    });
  });
});

describe("docs/lot-draw-1.md's figures, recomputed with node:crypto", () => {
  it('every HMAC attempt printed on the page', () => {
    const blocks = [
      [WORKED_EXAMPLE.serverSeed, page.slice(page.indexOf('<!-- worked-example:begin -->'))],
      [REJECTION_EXAMPLE.serverSeed, page.slice(page.indexOf('<!-- rejection-example:begin -->'))],
    ] as const;
    let count = 0;
    for (const [seed, text] of blocks) {
      const key = Buffer.from(seed, 'hex');
      const end = text.indexOf(':end -->');
      for (const [, message, hmac] of text.slice(0, end).matchAll(/message = (\S+)\n\s+HMAC {4}= ([0-9a-f]{64})/g)) {
        expect(
          createHmac('sha256', key)
            .update(message as string)
            .digest('hex'),
        ).toBe(hmac);
        count++;
      }
    }
    expect(count).toBe(5); // three draws, then one draw of two attempts
  });
});

/** LOT-DRAW-2's settled worked example, as docs/lot-draw-2.md prints it (its last JSON block of the example). */
function pageProof2(): GameProof {
  const example = page2.slice(
    page2.indexOf('<!-- worked-example-2:begin -->'),
    page2.indexOf('<!-- worked-example-2:end -->'),
  );
  const blocks = [...example.matchAll(/```json\n([\s\S]*?)\n```/g)];
  return JSON.parse(blocks.at(-1)?.[1] ?? '');
}

const failedLine = (stdout: string) =>
  lastLine(stdout)
    ?.replace(/^FAILED: /, '')
    .split(', ');
const flipLast = (hex: string) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
const realRound = (round: number) => quicknet.rounds.find((r) => r.round === round)!;

describe('scripts/verify-game.mjs on LOT-DRAW-2', () => {
  it("verifies the page's worked example, naming every check as verifyProof does (exit 0)", async () => {
    const proof = pageProof2();
    expect(proof.algorithm).toBe('LOT-DRAW-2');
    const { code, stdout } = await run(file(proof));
    expect(stdout).not.toContain('✗');
    expect(stdout).toContain('✓ Beacon signature: round 4810403 signed by the chain');
    expect(lastLine(stdout)).toBe('Verified');
    expect(code).toBe(0);
    const names = stdout
      .split('\n')
      .filter((line) => line.startsWith('✓'))
      .map((line) => line.slice(2, line.indexOf(':')));
    expect(names).toEqual((await verifyProof(proof)).checks.map((c) => c.name));
  });

  it('verifies the game voided after its first draw, recomputing its unplayed draws', async () => {
    const proof = await buildVoidedProof();
    const { code, stdout } = await run(file(proof));
    expect(stdout).toContain('✓ Unplayed draw 3: 3; the proof says 3');
    expect(lastLine(stdout)).toBe('Verified');
    expect(code).toBe(0);
  });

  it('says Pending (exit 2) while frozen and waiting for round R, and while the seed is secret', async () => {
    const waiting = await run(file(await buildProof(WORKED_EXAMPLE_2, { status: 'drawing' })));
    expect(lastLine(waiting.stdout)).toMatch(/^Pending: waiting for round 4810403 of the beacon/);
    expect(waiting.code).toBe(2);
    const drawing = await run(file(await buildProof(WORKED_EXAMPLE_2, { status: 'drawing', drawCount: 1 })));
    expect(lastLine(drawing.stdout)).toMatch(/^Pending: the game is drawing/);
    expect(drawing.code).toBe(2);
  });

  const tampered: [string, (p: GameProof) => void, string[]][] = [
    [
      'a forged signature (another real round’s, with its randomness)',
      (p) => {
        p.beacon!.signature = realRound(4_810_423).signature;
        p.beacon!.randomness = randomnessOf(p.beacon!.signature);
      },
      ['Beacon signature'],
    ],
    [
      'a signature with one digit changed',
      (p) => (p.beacon!.signature = flipLast(p.beacon!.signature!)),
      ['Beacon signature'],
    ],
    [
      'randomness not of the signature',
      (p) => (p.beacon!.randomness = flipLast(p.beacon!.randomness!)),
      ['Beacon signature'],
    ],
    [
      'a round at the freeze (frozenAt moved onto R’s time)',
      (p) => (p.frozenAt = p.beacon!.expectedAt),
      ['Beacon round'],
    ],
    [
      'a round before the freeze (frozenAt after R’s time)',
      (p) => (p.frozenAt = new Date(Date.parse(p.beacon!.expectedAt!) + 1500).toISOString()),
      ['Beacon round'],
    ],
    [
      'an earlier real round, drawn from its own signature',
      (p) => {
        const early = realRound(4_810_223);
        Object.assign(p.beacon!, { round: early.round, signature: early.signature, randomness: early.randomness });
        p.beacon!.expectedAt = new Date(roundTimeMs(p.beacon!, early.round)).toISOString();
      },
      ['Beacon round'],
    ],
    [
      'L moved onto R (R not after the latest public round at the freeze)',
      (p) => (p.beacon!.latestRound = p.beacon!.round),
      ['Beacon round'],
    ],
    [
      'L removed (the rule of games frozen before L: R is not the first round after this freeze)',
      (p) => (p.beacon!.latestRound = null),
      ['Beacon round'],
    ],
    ['an edited entry hash', (p) => (p.entries[2]!.entryHash = flipLast(p.entries[2]!.entryHash)), ['Entries digest']],
    ['the commitment', (p) => (p.commitment = flipLast(p.commitment)), ['Commitment']],
    ['the period of the beacon', (p) => (p.beacon!.period = 30), ['Commitment', 'Beacon chain']],
    ['a draw number', (p) => (p.draws[1]!.number = 20), ['Draw 2']],
    ['a winner removed', (p) => (p.draws[2]!.winner = null), ['Winner 3']],
    [
      'unplayed draws on a settled game',
      (p) => p.unplayedDraws.push({ ...p.draws[1]!, position: 4 }),
      ['Unplayed draws', 'Unplayed draw 4'],
    ],
  ];

  it.each(tampered)('fails with %s: the named check, as verifyProof names it (exit 1)', async (_, mutate, names) => {
    const proof = clone(pageProof2());
    mutate(proof);
    const { code, stdout } = await run(file(proof));
    expect(failedLine(stdout)).toEqual(names);
    expect((await verifyProof(proof)).checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(names);
    expect(code).toBe(1);
  });

  it('fails a voided game whose unplayed draws are missing or altered', async () => {
    for (const [mutate, names] of [
      [(p: GameProof) => (p.unplayedDraws = []), ['Unplayed draws']],
      [(p: GameProof) => (p.unplayedDraws[0]!.number = 20), ['Unplayed draw 2']],
      [(p: GameProof) => (p.unplayedDraws[1]!.winner = null), ['Unplayed winner 3']],
    ] as const) {
      const proof = clone(await buildVoidedProof());
      mutate(proof);
      const { code, stdout } = await run(file(proof));
      expect(failedLine(stdout)).toEqual(names);
      expect(code).toBe(1);
    }
  });

  it('fails a chain it does not pin, and verifies it when pinned with --chain, --public-key, --genesis-time, --period', async () => {
    const sigs = bls12_381.shortSignatures;
    const { secretKey, publicKey } = sigs.keygen(new Uint8Array(sigs.lengths.seed ?? 32).fill(5));
    const info = {
      publicKey: publicKey.toHex(),
      genesisTime: 1_760_000_000,
      period: 2,
      groupHash: '22'.repeat(32),
      beaconId: 'x',
    };
    const chain = {
      chainHash: chainHashOf(info),
      publicKey: info.publicKey,
      genesisTime: info.genesisTime,
      period: info.period,
    };
    const round = 123_456;
    const frozen = roundTimeMs(chain, round) - 700;
    const iso = (ms: number) => new Date(ms).toISOString();
    const proof = await buildProof({
      ...WORKED_EXAMPLE_2,
      beacon: {
        name: 'test',
        chain,
        round,
        signature: sigs.sign(sigs.hash(roundMessage(round), BEACON_DST), secretKey).toHex(),
      },
      times: {
        openedAt: iso(frozen - 60_000),
        frozenAt: iso(frozen),
        drawnAt: [1, 2, 3].map((s) => iso(frozen + s * 1000)),
        endedAt: iso(frozen + 3000),
      },
    });
    const path = file(proof);
    const unpinned = await run(path);
    expect(failedLine(unpinned.stdout)).toEqual(['Beacon chain']);
    expect(unpinned.code).toBe(1);
    const pin = [
      '--chain',
      chain.chainHash,
      '--public-key',
      chain.publicKey,
      '--genesis-time',
      String(chain.genesisTime),
      '--period',
      String(chain.period),
    ];
    const pinned = await run(path, ...pin);
    expect(pinned.stdout).not.toContain('✗');
    expect(lastLine(pinned.stdout)).toBe('Verified');
    expect(pinned.code).toBe(0);
    // Quicknet stays pinned beside it; a pin without its clock is refused.
    expect((await run(file(pageProof2()), ...pin)).code).toBe(0);
    const partial = await run(path, '--chain', chain.chainHash, '--public-key', chain.publicKey);
    expect(lastLine(partial.stdout)).toMatch(/^FAILED: pinning a chain takes/);
    expect(partial.code).toBe(1);
  });
});

describe('scripts/verify-game.mjs and the game log (docs/lot-draw-2.md#checking-the-game-log)', () => {
  const rTime = async () => {
    const proof = await buildProof(WORKED_EXAMPLE_2);
    return { proof, r: roundTimeMs(proof.beacon!, proof.beacon!.round!) / 1000 };
  };
  const LOG = exampleLogVkey();
  const AUDITOR = exampleWitnessVkey('auditor.example');
  const pins = (...witnesses: string[]) => ['--log-key', LOG, ...witnesses.flatMap((w) => ['--witness', w])];

  it('verifies a witnessed freeze with the pinned keys, and says who witnessed it, as the domain does', async () => {
    const { proof, r } = await rTime();
    const witnessed = withLogEvidence(proof, { witnesses: [{ name: 'auditor.example', timestamp: r - 1 }] });
    const { code, stdout } = await run(file(witnessed), ...pins(AUDITOR));
    const domain = verifyGameLog(witnessed, { log: LOG, witnesses: [AUDITOR] });
    expect(stdout).toContain(`✓ In the game log: ${domain.inLog.detail}`);
    expect(stdout).toContain(`✓ Freeze witnessed before round R: ${domain.witnessed.detail}`);
    expect(stdout).toContain(domain.sentence);
    expect(lastLine(stdout)).toBe('Verified');
    expect(code).toBe(0);
  });

  it('fails with another witness key, a late cosignature or a tampered leaf, naming the check', async () => {
    const { proof, r } = await rTime();
    const witnessed = withLogEvidence(proof, { witnesses: [{ name: 'auditor.example', timestamp: r - 1 }] });
    const impostor = exampleWitnessVkey('auditor.example', 'someone else');
    const other = await run(file(witnessed), ...pins(impostor));
    expect(lastLine(other.stdout)).toBe('FAILED: Freeze witnessed before round R');
    expect(other.code).toBe(1);

    const late = withLogEvidence(proof, { witnesses: [{ name: 'auditor.example', timestamp: r }] });
    const tooLate = await run(file(late), ...pins(AUDITOR));
    expect(tooLate.stdout).toContain('less than 1 s before round');
    expect(tooLate.stdout).toContain(WITNESSING_FAILED);
    expect(lastLine(tooLate.stdout)).toBe('FAILED: Freeze witnessed before round R');

    const tampered = clone(witnessed);
    tampered.log!.freeze.index += 1;
    const moved = await run(file(tampered), ...pins(AUDITOR));
    expect(lastLine(moved.stdout)).toBe('FAILED: In the game log, Freeze witnessed before round R');
    expect(verifyGameLog(tampered, { log: LOG, witnesses: [AUDITOR] })).toMatchObject({
      inLog: { status: 'fail' },
      witnessed: { status: 'fail' },
    });
  });

  it('labels an unwitnessed freeze, and checks nothing of the log without --log-key', async () => {
    const { proof } = await rTime();
    const plain = withLogEvidence(proof);
    const unwitnessed = await run(file(plain), '--log-key', LOG);
    expect(unwitnessed.stdout).toContain('✓ In the game log');
    expect(unwitnessed.stdout).toContain(
      '– Freeze witnessed before round R: not checked: no witness cosigned the checkpoint',
    );
    expect(unwitnessed.stdout).toContain(`\n${NOT_WITNESSED}\n`);
    expect(lastLine(unwitnessed.stdout)).toBe('Verified');
    const unpinned = await run(file(plain));
    expect(unpinned.stdout).toContain('– In the game log: not checked: no log key pinned');
    expect(lastLine(unpinned.stdout)).toBe('Verified');
    const badKey = await run(file(plain), '--log-key', AUDITOR);
    expect(lastLine(badKey.stdout)).toMatch(/^FAILED: --log-key: .* is not an Ed25519 log key/);
    expect(badKey.code).toBe(1);
  });
});
