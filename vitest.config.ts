import { defineConfig } from 'vitest/config';

const apiTests = ['packages/server/src/**/*.test.ts'];
const postgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { test: { name: 'unit', include: ['packages/domain/src/**/*.test.ts'] } },
      { test: { name: 'api-pglite', include: apiTests, env: { TEST_DB: 'pglite' } } },
      ...(postgres ? [{ test: { name: 'api-postgres', include: apiTests, env: { TEST_DB: 'postgres' } } }] : []),
    ],
  },
});
