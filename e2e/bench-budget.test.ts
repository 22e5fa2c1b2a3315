import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load, startAnchor, type Timing } from '../bench/lib.ts';
import { FIRST_SCREEN_BUDGET_KB, firstScreenJs } from '../bench/web.ts';
import { baseUrl } from './support.ts';

/**
 * The quick CI variant of `npm run bench` (bench/run.ts), on the app the global setup just built
 * and started: the bundle budget always fails the run; throughput ratios are only reported, since
 * a CI machine is too noisy for them to gate anything.
 */
describe('performance budgets', () => {
  it(`ships at most ${FIRST_SCREEN_BUDGET_KB} kB of JavaScript (gzip) before each first screen`, () => {
    const screens = firstScreenJs();
    for (const screen of screens) {
      console.log(`first screen ${screen.route}: ${(screen.gzipBytes / 1024).toFixed(1)} kB gzip`);
    }
    expect(screens.map((s) => s.route)).toEqual([
      '/login',
      '/admin/dashboard',
      '/superagent/dashboard',
      '/agent/dashboard',
      '/user/dashboard',
    ]);
    const over = screens
      .filter((s) => s.gzipBytes > FIRST_SCREEN_BUDGET_KB * 1024)
      .map((s) => `${s.route}: ${(s.gzipBytes / 1024).toFixed(1)} kB (${s.files.join(', ')})`);
    expect(over).toEqual([]);
  });

  it('reports the health-check ratio against bare Fastify (report only, never fails on the figure)', async () => {
    const quick: Timing = { seconds: 2, warmup: 1, connections: 10 };
    const anchor = await startAnchor('hello');
    try {
      const ours = await load({ url: `${baseUrl()}/api/health` }, quick);
      const bare = await load({ url: `${anchor.url}/api/health` }, quick);
      const ratio = ours.rate / bare.rate;
      const line = `GET /api/health ${ours.rate.toFixed(0)}/s vs bare Fastify ${bare.rate.toFixed(0)}/s: ratio ${ratio.toFixed(2)} (target ≥ 0.8 in npm run bench)`;
      console.log(line);
      mkdirSync('test-results', { recursive: true });
      writeFileSync('test-results/bench-quick.json', `${JSON.stringify({ ours, bare, ratio }, null, 2)}\n`);
      expect(ours.requests).toBeGreaterThan(0);
      expect(ours.errors).toBe(0);
    } finally {
      await anchor.stop();
    }
  });
});
