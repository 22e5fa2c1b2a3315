import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProof, REJECTION_EXAMPLE, WORKED_EXAMPLE } from '../packages/domain/src/draw-example.ts';
import type { GameProof } from '../packages/domain/src/schemas/games.ts';

/**
 * scripts/verify-game.mjs is the second, independent implementation of LOT-DRAW-1 (Node's crypto,
 * written from docs/lot-draw-1.md). It must agree with the page and with the domain's verifyProof.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const script = join(root, 'scripts/verify-game.mjs');
const page = readFileSync(join(root, 'docs/lot-draw-1.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'lot-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(arg: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, arg], { timeout: 20_000 }, (error, stdout) =>
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

  it('verifies voided and discarded games', async () => {
    for (const proof of [
      await buildProof(WORKED_EXAMPLE, { status: 'voided', drawCount: 2 }),
      await buildProof(WORKED_EXAMPLE, { status: 'discarded' }),
    ])
      expect((await run(file(proof))).code).toBe(0);
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
