import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN_BUDGET_KB, firstScreenJs } from '../bench/web.ts';

/**
 * The bundle budget of `npm run bench` (bench/web.ts), on the app the global setup just built: it
 * always fails the run. Throughput ratios (the health check against bare Fastify) are measured by
 * `npm run bench -- health`, not here: a CI machine is too noisy for them to gate anything, and a
 * figure nobody checks does not belong in `npm test`.
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
});
