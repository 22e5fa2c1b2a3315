import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgres, TEST_DB } from '../test/test-app.ts';
import { dumpPostgres, restorePostgres } from './backup.ts';

/**
 * README, "Back it up", and docs/deploy.md section 2 (issue 43): a role may create schemas only in
 * a database it owns (or was granted CREATE on), and since PostgreSQL 15 tables in `public` too.
 * `npm run restore` as the app's role into a database another role owns (plain `createdb
 * lot_restored` as postgres) stops with "permission denied for database"; into one the role owns
 * (`createdb -O <role> lot_restored`) it restores.
 */
const base = process.env.TEST_DATABASE_URL ?? '';
const suffix = randomBytes(4).toString('hex');
const role = `lot_role_${suffix}`;
const foreign = `lot_restored_foreign_${suffix}`;
const owned = `lot_restored_owned_${suffix}`;
const scratch = mkdtempSync(join(tmpdir(), 'lot-restore-owner-'));
const cleanups: (() => Promise<void>)[] = [];

async function asSuperuser(statement: string) {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The URL of `database` as the app's role. */
function asRole(database: string): string {
  const url = new URL(base);
  url.username = role;
  url.password = 'role-password-1';
  url.pathname = `/${database}`;
  return url.toString();
}

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(TEST_DB !== 'postgres')('a PostgreSQL restore as the app role (PostgreSQL only)', () => {
  it('needs a database the role owns: createdb -O', async () => {
    const source = await freshPostgres({ migrated: true });
    cleanups.push(source.drop);
    const file = join(scratch, 'lot.dump');
    await dumpPostgres(source.url, file);

    await asSuperuser(`CREATE ROLE ${role} LOGIN PASSWORD 'role-password-1'`);
    cleanups.push(() => asSuperuser(`DROP ROLE IF EXISTS ${role}`));
    await asSuperuser(`CREATE DATABASE ${foreign}`);
    cleanups.push(() => asSuperuser(`DROP DATABASE IF EXISTS ${foreign} WITH (FORCE)`));
    await asSuperuser(`CREATE DATABASE ${owned} OWNER ${role}`);
    cleanups.push(() => asSuperuser(`DROP DATABASE IF EXISTS ${owned} WITH (FORCE)`));

    await expect(restorePostgres(file, asRole(foreign))).rejects.toThrow(/permission denied for database/);
    await restorePostgres(file, asRole(owned));
    const client = new pg.Client({ connectionString: asRole(owned) });
    await client.connect();
    try {
      const result = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
      expect(result.rows[0]?.count).toBeGreaterThanOrEqual(0);
    } finally {
      await client.end();
    }
  }, 120_000);
});
