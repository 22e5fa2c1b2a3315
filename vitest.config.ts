import { configDefaults, defineConfig } from 'vitest/config';

const apiTests = ['packages/server/src/**/*.test.ts'];
/**
 * Server test files that never open the test database (SQL built on a mock handle, pure functions,
 * the beacon, lock files) or test PGlite's own data directory only (skipped on PostgreSQL): on
 * api-postgres they would test the same thing again, so they run on api-pglite only (README.md#test-it).
 * A file that starts a test app or opens the database named by TEST_DB does not belong here.
 */
const databaseFree = [
  'packages/server/src/**/*.repository.test.ts',
  'packages/server/src/cli/cli-errors.test.ts',
  'packages/server/src/cli/restore-notes.test.ts',
  'packages/server/src/config.test.ts',
  'packages/server/src/data-dir.test.ts',
  'packages/server/src/db/data-dir-lock.test.ts',
  'packages/server/src/lib/jobs.test.ts',
  'packages/server/src/lib/beacon-client.test.ts',
  'packages/server/src/lib/draw-beacon.test.ts',
  'packages/server/src/lib/draw-crypto.test.ts',
  'packages/server/src/lib/export.test.ts',
  'packages/server/src/lib/note-signer.test.ts',
  'packages/server/src/lib/secret-box.test.ts',
  'packages/server/src/modules/public-url/public-url.test.ts',
  'packages/server/src/private-files.test.ts',
  'packages/server/src/suites/balancer.test.ts',
  'packages/server/src/test/chaos.test.ts',
  'packages/server/src/test/test-beacon.test.ts',
  'packages/server/src/witness/witness.test.ts',
];
const postgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * The API files share their worker's module graph (`isolate: false`): each file builds its own
 * app on its own fresh database, and no server module keeps state beyond the app it belongs to
 * (decision 054: no registry keyed by the database, no import-time global, no module-level mutable
 * state in db/: whether statements are named belongs to the database opened), so importing the
 * server once per worker instead of once per file is safe. It saved about 175 s of 520 s (README.md#test-it).
 * The browser files share theirs too: each launches its own Chromium, and e2e/support.ts keeps
 * nothing between files but a counter that makes usernames unique.
 */
const shared = { isolate: false };
/** The server as it ships, built into one file when stale, for the files that start it as a process (decision 085). */
const builtServer = { globalSetup: ['packages/server/src/test/build-server-setup.ts'] };

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
      {
        extends: true,
        test: { name: 'api-pglite', include: apiTests, env: { TEST_DB: 'pglite' }, ...shared, ...builtServer },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          ...shared,
          // Four browser files at a time: with two, the machine was idle about 40 % of the browser
          // phase (a file waits on Chromium, the server and the beacon in turn); four took it from
          // about 500 s to 385 s. A worker count of its own needs a group of its own: the browser
          // files run after the others (README.md#test-it).
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          // What the hand-rolled waits used before expect.poll replaced them (Vitest's default is 1 s).
          expect: { poll: { timeout: 10_000 } },
        },
      },
      ...(postgres
        ? [
            {
              extends: true,
              test: {
                name: 'api-postgres',
                include: apiTests,
                exclude: [...configDefaults.exclude, ...databaseFree],
                env: { TEST_DB: 'postgres' },
                ...builtServer,
                ...shared,
              },
            },
          ]
        : []),
    ],
  },
});
