import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configureWinners, openGameCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { expectStatus, fund } from '../../test/money-fixtures.ts';
import { createTestApp, TEST_DB, type TestApp } from '../../test/test-app.ts';
import { makeCheckpoint, recordCheckpoint } from '../audit/checkpoint.ts';
import type { BeaconReadiness } from './health.service.ts';

/**
 * The beacon in monitoring (decision 062): GET /api/ready and GET /metrics say whether the relays
 * answer, how old the newest verified round is, whether the LISTEN connection hears, how old the
 * audit checkpoint is and how the connection pool stands; the log says once that the beacon went
 * down and once that it is back. The local test beacon is made unreachable (it drops every
 * connection) and the heartbeat runs every 100 ms instead of 30 s.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createTestApp({ beaconHeartbeatMs: 100 });
  h = await buildHierarchy(t);
  await configureWinners(t, h.U1.id, [{ percent: '50', position: 1, name: 'First' }]);
  await fund(t, h.U1.id, '10.00');
});
afterAll(() => t?.close());

/** The value of the sample `name` whose labels include `labels`, in Prometheus text (undefined when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      return match[3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[3]);
  }
  return undefined;
}

const metrics = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
const ready = async () => {
  const response = await t.request(null, { method: 'GET', url: '/api/ready' });
  expectStatus(response, 200);
  return response.json<{ status: 'ready'; beacon: BeaconReadiness }>();
};

/** Polls `check` until it holds (every 50 ms, at most 5 s). */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe(`the beacon in /api/ready and /metrics (${TEST_DB})`, () => {
  it('while the relays answer: up, with the age of the newest round; the pool and LISTEN reported', async () => {
    const chain = t.beacon?.chain.chainHash ?? '';
    await until(async () => (await ready()).beacon.lastRoundAgeSeconds !== null);
    const { beacon } = await ready();
    expect(beacon).toMatchObject({ mode: 'required', chain, quicknet: false, up: true });
    // The newest round published at least a second ago, on a 3 s chain.
    expect(beacon.lastRoundAgeSeconds).toBeLessThanOrEqual(6);

    const text = await metrics();
    expect(sample(text, 'lot_beacon_up', { mode: 'required', chain })).toBe(1);
    expect(sample(text, 'lot_beacon_last_round_age_seconds')).toBeLessThanOrEqual(6);
    if (TEST_DB === 'postgres') {
      expect(sample(text, 'lot_db_pool_connections', { state: 'max' })).toBe(20);
      expect(sample(text, 'lot_db_pool_connections', { state: 'waiting' })).toBe(0);
      expect(sample(text, 'lot_db_listen_up')).toBe(1);
    } else {
      // The embedded database: one connection, and no LISTEN.
      expect(sample(text, 'lot_db_pool_connections', { state: 'max' })).toBe(1);
      expect(sample(text, 'lot_db_listen_up')).toBeUndefined();
    }
  });

  it('the audit checkpoint: +Inf before the first, then its age', async () => {
    expect(sample(await metrics(), 'lot_audit_checkpoint_age_seconds')).toBe(Number.POSITIVE_INFINITY);
    const { privateKey } = generateKeyPairSync('ed25519');
    const checkpoint = await makeCheckpoint(t.database.db, privateKey, new Date(t.now() - 90_000));
    await recordCheckpoint(t.database.db, checkpoint, '/nowhere/checkpoint.json');
    const age = sample(await metrics(), 'lot_audit_checkpoint_age_seconds') ?? 0;
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(120);
  });

  it('made unreachable: ready and metrics say so, games are refused, and the log says it once', async () => {
    const warn = vi.spyOn(t.app.log, 'warn');
    const info = vi.spyOn(t.app.log, 'info');
    try {
      t.beacon?.setFailing('down');
      await until(async () => !(await ready()).beacon.up);
      // Readiness is about this process and its database: it stays 200 (every process shares the network).
      expect((await ready()).status).toBe('ready');
      expect(sample(await metrics(), 'lot_beacon_up', { mode: 'required' })).toBe(0);
      const refused = await openGameCall(t, h.U1.token, { startRange: 1, endRange: 10, betAmount: '1.00' });
      expectStatus(refused, 503);
      expect(refused.json()).toMatchObject({ message: SERVER_MESSAGES.beaconUnreachable });

      // Several heartbeats later, still one short line.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const downLines = warn.mock.calls.filter(([, message]) => String(message).includes('cannot be reached'));
      expect(downLines).toHaveLength(1);
      expect(JSON.stringify(downLines[0]).length).toBeLessThan(400);

      t.beacon?.setFailing('none');
      await until(async () => (await ready()).beacon.up);
      expect(sample(await metrics(), 'lot_beacon_up', { mode: 'required' })).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(info.mock.calls.filter(([message]) => String(message).includes('answers again'))).toHaveLength(1);
      expectStatus(await openGameCall(t, h.U1.token, { startRange: 1, endRange: 10, betAmount: '1.00' }), 201);
    } finally {
      warn.mockRestore();
      info.mockRestore();
      t.beacon?.setFailing('none');
    }
  });
});

describe('mode off', () => {
  it('reports no beacon gauge and a beacon that is off', async () => {
    const off = await createTestApp({ beacon: 'off' });
    try {
      const body = (await off.request(null, { method: 'GET', url: '/api/ready' })).json<{ beacon: BeaconReadiness }>();
      expect(body.beacon).toEqual({ mode: 'off', chain: null, quicknet: false, up: false, lastRoundAgeSeconds: null });
      const text = (await off.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(text).not.toContain('lot_beacon_up');
    } finally {
      await off.close();
    }
  });
});
