import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { runCleanups, upgradeWith, type Cleanups } from '../test/migrations.ts';
import { TEST_DB } from '../test/test-app.ts';
import { queryRows, type Db } from './client.ts';

/**
 * migration 0019's username keys (decision 047) on users made before it: names that read the same
 * stop the migration, which names every one of them; otherwise each live name gets its key, and the
 * unique index holds new names to it.
 */

const cleanups: Cleanups = [];
afterAll(() => runCleanups(cleanups));

/** A user by SQL, as an older version or a hand edit could have left it. */
async function user(db: Db, username: string, deleted = false): Promise<void> {
  await queryRows(
    db,
    sql`INSERT INTO users (username, password_hash, full_name, role, deleted_at)
        VALUES (${username}, 'x', ${username}, 'user', ${deleted ? sql`now()` : null})`,
  );
}

describe(`migration 0019: usernames as people read them (${TEST_DB})`, () => {
  it('stops on live names that read the same and names each of them', async () => {
    const upgrade = upgradeWith('0019_username_keys', cleanups, async (db) => {
      await user(db, 'bob');
      await user(db, 'ＢＯＢ');
      await user(db, 'carol');
      await user(db, 'ｃａｒｏｌ', true); // deleted: its name may be taken again
      await user(db, 'di\u200Bana');
      await user(db, 'diana');
    });
    const error = await upgrade.then(
      () => null,
      (reason: unknown) => reason,
    );
    const text = String(error) + String((error as { cause?: unknown } | null)?.cause ?? '');
    expect(text).toMatch(
      /These live users have usernames that read the same: bob \(id \d+\), ＢＯＢ \(id \d+\); di\u200Bana \(id \d+\), diana \(id \d+\)/,
    );
    expect(text).not.toContain('carol');
  });

  it('keys every live name and holds new ones to the key', async () => {
    const database = await upgradeWith('0019_username_keys', cleanups, async (db) => {
      await user(db, 'ａｌｉｃｅ');
      await user(db, 'Bob');
      await user(db, 'bob', true);
    });
    cleanups.push(() => database.close());
    const rows = await queryRows<{ username: string; key: string }>(
      database.db,
      sql`SELECT username, username_key AS key FROM users WHERE deleted_at IS NULL AND role = 'user' ORDER BY id`,
    );
    expect(rows).toEqual([
      { username: 'ａｌｉｃｅ', key: 'alice' },
      { username: 'Bob', key: 'bob' },
    ]);
    await expect(user(database.db, 'ALİCE')).rejects.toThrow();
  });
});
