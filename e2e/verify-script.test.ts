import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DrawResult, Game, GameProof } from '@lot/domain/schemas/games';
import { apiAs, baseUrl, DEMO, freshUser, login } from './support.ts';

/**
 * A whole game played through the API on the real server, then checked from outside with
 * scripts/verify-game.mjs, the independent LOT-DRAW-1 verifier: pending while the seed is secret,
 * verified once the last draw has settled the game.
 */

const script = fileURLToPath(new URL('../scripts/verify-game.mjs', import.meta.url));

function verifyGame(address: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, address], { timeout: 30_000 }, (error, stdout) =>
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
    const positions = opened.prizes.length;
    expect(positions).toBe(3);
    let last: DrawResult | undefined;
    for (let position = 1; position <= positions; position++) {
      last = await apiAs<DrawResult>(as, `/api/games/${opened.id}/draws`, { body: { position } });
      if (position === 1) {
        // The seed is still secret: nothing wrong so far, but nothing can be recomputed yet.
        const pending = await verifyGame(page);
        expect(lastLine(pending.stdout)).toMatch(/^Pending: /);
        expect(pending.code).toBe(2);
      }
    }
    expect(last?.game.status).toBe('settled');
    expect(last?.game.commitment).toBe(opened.commitment);

    const { code, stdout } = await verifyGame(page);
    expect(stdout).not.toContain('✗');
    expect(lastLine(stdout)).toBe('Verified');
    expect(code).toBe(0);

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
  });
});
