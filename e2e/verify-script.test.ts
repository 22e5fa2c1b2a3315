import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exampleLogVkey } from '@lot/domain/game-log-evidence-example';
import type { DrawResult, Game, GameProof } from '@lot/domain/schemas/games';
import { apiAs, baseUrl, DEMO, drawPosition, freshUser, login, sessionOf, testBeacon } from './support.ts';

/**
 * A whole LOT-DRAW-2 game played through the API on the real server (its beacon: the browser tests'
 * local test beacon), then checked from outside with scripts/verify-game.mjs, the independent
 * verifier, pinned to that beacon's chain with --chain … as anyone pinning a chain would: pending
 * while the seed is secret, verified once the last draw has settled the game, and each forgery
 * failing with its named check.
 */

const script = fileURLToPath(new URL('../scripts/verify-game.mjs', import.meta.url));

/** --chain, --public-key, --genesis-time and --period of the test beacon, from its own /info. */
async function pinArgs(): Promise<string[]> {
  const beacon = testBeacon();
  const info = (await (await fetch(`${beacon.url}/${beacon.chainHash}/info`)).json()) as {
    genesis_time: number;
    period: number;
  };
  return [
    '--chain',
    beacon.chainHash,
    '--public-key',
    beacon.publicKey,
    '--genesis-time',
    String(info.genesis_time),
    '--period',
    String(info.period),
  ];
}

function verifyGame(address: string, pins: string[] = []): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, address, ...pins], { timeout: 30_000 }, (error, stdout) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout }),
    );
  });
}

const lastLine = (stdout: string) => stdout.trim().split('\n').at(-1);

const PARTICIPANTS = [
  { number: 2, name: 'John Doe', phoneNumber: '09171234567' },
  { number: 5, name: 'María José Núñez', phoneNumber: '+63 917 555 0199' },
  { number: 9, name: 'Li Wei', phoneNumber: '0917-888-4321' },
  { number: 14, name: 'Ana Santos', phoneNumber: '09998765432' },
];

describe('scripts/verify-game.mjs against the running server', () => {
  it('plays a whole game through the API and the script verifies it from the verify page address', async () => {
    // A player of its own (one game in progress per player), with money and three prize positions.
    const player = await freshUser('user', { fullName: 'Verify Script Shop' });
    const as = login(player);
    await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: player.id, amount: '1000' } });
    for (const [position, percent] of [
      [1, '50'],
      [2, '25'],
      [3, '10'],
    ] as const)
      await apiAs(as, '/api/winners', { body: { name: `P${position}`, percent, position, isActive: true } });

    const opened = await apiAs<Game>(as, '/api/games', { body: { startRange: 1, endRange: 20, betAmount: '10.00' } });
    expect(opened.status).toBe('open');
    expect(opened.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(opened.serverSeed).toBeNull();
    await apiAs<Game>(as, `/api/games/${opened.id}/entries`, { method: 'PUT', body: { entries: PARTICIPANTS } });

    const page = `${baseUrl()}/verify/${opened.code}`;
    const pins = await pinArgs();
    const call = await sessionOf(as);
    const positions = opened.prizes.length;
    expect(positions).toBe(3);
    expect(opened.protocol).toBe('LOT-DRAW-2');
    let last: DrawResult | undefined;
    for (let position = 1; position <= positions; position++) {
      last = await drawPosition(call, opened.id, position);
      if (position === 1) {
        // The seed is still secret: nothing wrong so far, but nothing can be recomputed yet.
        const pending = await verifyGame(page, pins);
        expect(lastLine(pending.stdout)).toMatch(/^Pending: /);
        expect(pending.code).toBe(2);
      }
    }
    expect(last?.game.status).toBe('settled');
    expect(last?.game.commitment).toBe(opened.commitment);

    const { code, stdout } = await verifyGame(page, pins);
    expect(stdout).not.toContain('✗');
    expect(lastLine(stdout)).toBe('Verified');
    expect(code).toBe(0);

    // The game log: with its key pinned (as GET /api/log names it), the freeze is in it; this
    // server has no witnesses, and the script says so. Another log key fails.
    const log = (await (await fetch(`${baseUrl()}/api/log`)).json()) as { vkey: string };
    const logged = await verifyGame(page, [...pins, '--log-key', log.vkey]);
    expect(logged.stdout).toMatch(/^✓ In the game log: the freeze is leaf \d+ of /m);
    expect(logged.stdout).toContain("Freeze not witnessed: the operator's clock and database are trusted");
    expect(lastLine(logged.stdout)).toBe('Verified');
    const otherLog = exampleLogVkey(log.vkey.split('+')[0], 'another log key');
    expect(lastLine((await verifyGame(page, [...pins, '--log-key', otherLog])).stdout)).toBe('FAILED: In the game log');

    // Without the pin, the test beacon is no chain the script trusts.
    const unpinned = await verifyGame(page);
    expect(lastLine(unpinned.stdout)).toMatch(/^FAILED: .*Beacon chain/);
    expect(unpinned.code).toBe(1);

    // The public proof (no sign-in) reveals the seed now, and no participant's name or phone.
    const response = await fetch(`${baseUrl()}/api/verify/${opened.code}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const proof = JSON.parse(text) as GameProof;
    expect(proof.serverSeed).toMatch(/^[0-9a-f]{64}$/);
    expect(proof.draws.map((d) => d.number)).toEqual(last?.game.draws.map((d) => d.number));
    for (const p of PARTICIPANTS) {
      expect(text).not.toContain(p.name);
      expect(text).not.toContain(p.phoneNumber);
    }

    // Forgeries of the saved proof each fail with the check that catches them.
    const dir = mkdtempSync(join(tmpdir(), 'lot-verify-'));
    const flip = (hex: string) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
    const forged = async (name: string, change: (p: GameProof) => void) => {
      const copy = JSON.parse(text) as GameProof;
      change(copy);
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(copy));
      return verifyGame(file, pins);
    };
    const signature = await forged('signature', (p) => {
      if (p.beacon?.signature) p.beacon.signature = flip(p.beacon.signature);
    });
    expect(lastLine(signature.stdout)).toMatch(/^FAILED: .*Beacon signature/);
    const early = await forged('round', (p) => {
      if (p.beacon?.round) p.beacon.round -= 1;
    });
    expect(lastLine(early.stdout)).toMatch(/^FAILED: .*Beacon round/);
    const entry = await forged('entry', (p) => {
      const first = p.entries[0];
      if (first) first.entryHash = flip(first.entryHash);
    });
    expect(lastLine(entry.stdout)).toMatch(/^FAILED: .*Entries digest/);
    for (const result of [signature, early, entry]) expect(result.code).toBe(1);
  });
});
