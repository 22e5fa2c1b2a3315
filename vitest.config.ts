import { defineConfig } from 'vitest/config';

const apiTests = ['packages/server/src/**/*.test.ts'];
const postgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    // Two files at a time, also on a 2-core machine (Vitest's default there is one): most of a file's
    // time is spent waiting on Chromium, PostgreSQL or a server process, so two overlap well. The
    // browser files share one server and database (e2e/global-setup.ts), so each must hold whatever
    // the other files make at the same time (their own people, games and figures; never "all").
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['packages/domain/src/**/*.test.ts', 'scripts/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'web', include: ['packages/web/src/**/*.test.{ts,tsx}'], environment: 'happy-dom' },
      },
      { extends: true, test: { name: 'api-pglite', include: apiTests, env: { TEST_DB: 'pglite' } } },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          // What the hand-rolled waits used before expect.poll replaced them (Vitest's default is 1 s).
          expect: { poll: { timeout: 10_000 } },
        },
      },
      ...(postgres
        ? [{ extends: true, test: { name: 'api-postgres', include: apiTests, env: { TEST_DB: 'postgres' } } }]
        : []),
    ],
  },
});
