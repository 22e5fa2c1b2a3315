import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { BACKUP_KEY_PATTERN, type BackupKey, type CreatedBackupKey } from '@lot/domain/schemas/backup';
import { queryRows } from '../../db/client.ts';
import { formatOf } from '../../db/backup.ts';
import { backupCredential, backupThroughServer, BackupRefused, restoreKeysNote } from '../../cli/backup-client.ts';
import { ADMIN, createTestApp, TEST_DB, type TestApp } from '../../test/test-app.ts';
import { world } from '../../test/world.ts';

/**
 * Backup keys (decision 041): a backup under cron while two-factor is required for admins. The key
 * takes the copy and nothing else, every use is audited, a revoked key is refused; only the admin
 * makes and revokes keys. `npm run backup` itself runs once against a listening server.
 */
const PASSWORD = 'right-password';
const BACKUP_CLI = fileURLToPath(new URL('../../cli/backup-cli.ts', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'lot-backup-keys-'));
let t: TestApp;
let url: string;
const tokens: Record<'superagent' | 'agent' | 'user', string> = { superagent: '', agent: '', user: '' };

beforeAll(async () => {
  t = await createTestApp({ beacon: 'off' });
  let parentId: number | null = null;
  for (const role of ['superagent', 'agent', 'user'] as const) {
    const username = `bk_${role}`;
    const created = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/users',
      payload: { username, password: PASSWORD, fullName: `${role} Tester`, role, parentId },
    });
    expect(created.statusCode, created.body).toBe(201);
    parentId = created.json<{ id: number }>().id;
    tokens[role] = await t.login(username, PASSWORD);
  }
  url = await t.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

const createKey = (token: string, name: unknown) =>
  t.request(token, { method: 'POST', url: '/api/admin/backup-keys', payload: { name } });
const listKeys = (token: string) => t.request(token, { method: 'GET', url: '/api/admin/backup-keys' });
const revokeKey = (token: string, id: number) =>
  t.request(token, { method: 'DELETE', url: `/api/admin/backup-keys/${id}` });
const backup = (bearer: string) => t.request(bearer, { method: 'GET', url: '/api/admin/backup' });
const setPolicy = (roles: string[]) =>
  t.request(t.adminToken, { method: 'PUT', url: '/api/admin/two-factor-policy', payload: { roles } });

/** The backup-key and backup rows of the audit trail, oldest first. */
const backupTrail = () =>
  queryRows<{
    action: string;
    actor_id: number | null;
    target_kind: string | null;
    target_id: string | null;
    details: unknown;
  }>(
    t.database.db,
    sql`SELECT action, actor_id, target_kind, target_id::text, details FROM audit_log WHERE action LIKE 'backup.%' ORDER BY id`,
  );

async function newKey(name: string): Promise<CreatedBackupKey> {
  const created = await createKey(t.adminToken, name);
  expect(created.statusCode, created.body).toBe(201);
  return created.json<CreatedBackupKey>();
}

describe(`backup keys (${TEST_DB})`, () => {
  it('take the backup while two-factor is required for admins, nothing else, audited, until revoked', async () => {
    const adminId = (
      await queryRows<{ id: number }>(t.database.db, sql`SELECT id FROM users WHERE username = ${ADMIN.username}`)
    )[0]?.id;
    const created = await createKey(t.adminToken, '  nightly cron  ');
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { key, secret, message } = created.json<CreatedBackupKey>();
    expect(message).toBe(SERVER_MESSAGES.backupKeyCreated);
    expect(secret).toMatch(BACKUP_KEY_PATTERN);
    expect(key).toMatchObject({
      name: 'nightly cron',
      hint: secret.slice(0, 10),
      createdBy: { id: adminId, username: ADMIN.username },
      lastUsedAt: null,
      revokedAt: null,
      revokedBy: null,
    });
    // Only a SHA-256 of the key is stored: no column holds the key.
    const [row] = await queryRows<Record<string, unknown>>(
      t.database.db,
      sql`SELECT * FROM backup_keys WHERE id = ${key.id}`,
    );
    expect(row?.key_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret.slice(10));

    // The admins must sign in with two-factor: the admin's password alone no longer takes a backup.
    expect((await setPolicy(['admin'])).statusCode).toBe(200);
    try {
      const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: ADMIN });
      const limited = signin.json<{ accessToken: string; enrolTwoFactor?: boolean }>();
      expect(limited.enrolTwoFactor).toBe(true);
      const refused = await backup(limited.accessToken);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'TWO_FACTOR_ENROLMENT_REQUIRED' });

      // The key does.
      const taken = await backup(secret);
      if (TEST_DB === 'pglite') {
        expect(taken.statusCode, taken.body).toBe(200);
        expect(taken.headers['content-type']).toBe('application/gzip');
        expect(formatOf(taken.rawPayload)).toBe('pglite');
      } else {
        // PostgreSQL is backed up by pg_dump: the key is accepted, and the call sends the admin there.
        expect(taken.statusCode, taken.body).toBe(409);
      }

      // Nothing else accepts it: every other call answers as to a stale session.
      const before = await world(t);
      for (const [method, path] of [
        ['GET', '/api/admin/backup-keys'],
        ['POST', '/api/admin/backup-keys'],
        ['GET', '/api/users'],
        ['GET', '/api/balance'],
        ['GET', '/api/audit'],
        ['GET', '/api/auth/sessions'],
        ['GET', '/api/admin/two-factor-policy'],
        ['PUT', '/api/admin/two-factor-policy'],
      ] as const) {
        const other = await t.request(secret, { method, url: path, payload: method === 'GET' ? undefined : {} });
        expect(other.statusCode, `${method} ${path}`).toBe(401);
        expect(other.json(), path).toMatchObject({ message: MESSAGES.sessionExpired });
      }
      expect(await world(t)).toEqual(before);
      // A made-up key of the right form, or a token that is no key, takes nothing.
      const guessed = await backup(`lotbk_${'A'.repeat(43)}`);
      expect(guessed.statusCode).toBe(401);
      expect(guessed.json()).toMatchObject({ message: SERVER_MESSAGES.backupKeyInvalid });

      // The list shows its last use, never a secret.
      const listed = await listKeys(t.adminToken);
      expect(listed.statusCode).toBe(200);
      expect(listed.body).not.toContain(secret.slice(10));
      const [shown] = listed.json<BackupKey[]>();
      expect(shown?.id).toBe(key.id);
      if (TEST_DB === 'pglite') expect(shown?.lastUsedAt).not.toBeNull();

      // A live key's name is taken (any case); revoked, it frees the name.
      const twin = await createKey(t.adminToken, 'Nightly Cron');
      expect(twin.statusCode).toBe(409);
      expect(twin.json()).toMatchObject({ fieldErrors: { name: SERVER_MESSAGES.backupKeyNameInUse } });

      const revoked = await revokeKey(t.adminToken, key.id);
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(revoked.json()).toMatchObject({
        message: SERVER_MESSAGES.backupKeyRevoked,
        key: { id: key.id, revokedBy: { id: adminId, username: ADMIN.username } },
      });
      expect(revoked.json<{ key: BackupKey }>().key.revokedAt).not.toBeNull();
      const afterRevoke = await backup(secret);
      expect(afterRevoke.statusCode).toBe(401);
      expect(afterRevoke.json()).toMatchObject({ message: SERVER_MESSAGES.backupKeyInvalid });
      expect((await revokeKey(t.adminToken, key.id)).json()).toMatchObject({
        message: SERVER_MESSAGES.backupKeyAlreadyRevoked,
      });
      expect((await revokeKey(t.adminToken, key.id)).statusCode).toBe(409);
      expect((await revokeKey(t.adminToken, 999_999)).statusCode).toBe(404);
      const again = await newKey('nightly cron');
      // Listed: the live key first, the revoked after it.
      expect((await listKeys(t.adminToken)).json<BackupKey[]>().map((k) => [k.id, k.revokedAt === null])).toEqual([
        [again.key.id, true],
        [key.id, false],
      ]);
      expect((await revokeKey(t.adminToken, again.key.id)).statusCode).toBe(200);

      // Every creation, use and revocation is an audit row; a use names the key, no person.
      expect(await backupTrail()).toEqual([
        {
          action: 'backup.key_created',
          actor_id: adminId,
          target_kind: 'backup_key',
          target_id: String(key.id),
          details: { name: 'nightly cron', hint: key.hint },
        },
        ...(TEST_DB === 'pglite'
          ? [
              {
                action: 'backup.downloaded',
                actor_id: null,
                target_kind: 'backup_key',
                target_id: String(key.id),
                details: { key: 'nightly cron', bytes: taken.rawPayload.length },
              },
            ]
          : []),
        // A refused key is a row too: the made-up one by its first characters only, the revoked one by name.
        {
          action: 'backup.key_refused',
          actor_id: null,
          target_kind: null,
          target_id: null,
          details: { hint: 'lotbk_AAAA', reason: 'unknown' },
        },
        {
          action: 'backup.key_revoked',
          actor_id: adminId,
          target_kind: 'backup_key',
          target_id: String(key.id),
          details: { name: 'nightly cron' },
        },
        {
          action: 'backup.key_refused',
          actor_id: null,
          target_kind: 'backup_key',
          target_id: String(key.id),
          details: { key: 'nightly cron', hint: key.hint, reason: 'revoked' },
        },
        expect.objectContaining({ action: 'backup.key_created', target_id: String(again.key.id) }),
        expect.objectContaining({ action: 'backup.key_revoked', target_id: String(again.key.id) }),
      ]);
    } finally {
      await setPolicy([]);
    }
  });

  it('are the admin’s only, and a name is checked before anything is stored', async () => {
    const before = await world(t);
    for (const role of ['superagent', 'agent', 'user'] as const) {
      expect((await createKey(tokens[role], 'mine')).statusCode, role).toBe(403);
      expect((await listKeys(tokens[role])).statusCode, role).toBe(403);
      expect((await revokeKey(tokens[role], 1)).statusCode, role).toBe(403);
      expect((await backup(tokens[role])).statusCode, role).toBe(403);
    }
    expect((await createKey(t.adminToken, '   ')).json()).toMatchObject({
      fieldErrors: { name: MESSAGES.backupKeyNameRequired },
    });
    expect((await createKey(t.adminToken, 'x'.repeat(61))).json()).toMatchObject({
      fieldErrors: { name: MESSAGES.backupKeyNameMax },
    });
    expect((await createKey(t.adminToken, 42)).statusCode).toBe(400);
    const extra = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/admin/backup-keys',
      payload: { name: 'ok', keyHash: 'x' },
    });
    expect(extra.statusCode).toBe(400);
    expect(await world(t)).toEqual(before);
  });

  it.runIf(TEST_DB === 'pglite')(
    'npm run backup takes the copy with LOT_BACKUP_KEY_FILE, and says what to do instead of a password under two-factor',
    async () => {
      const { secret } = await newKey('cli');
      const keyFile = join(scratch, 'backup-key');
      writeFileSync(keyFile, `${secret}\n`, { mode: 0o600 });
      expect((await setPolicy(['admin'])).statusCode).toBe(200);
      try {
        // The README's cron line: the key from a file only its owner reads, the server found by LOT_URL.
        const file = join(scratch, 'cron.tar.gz');
        const dataDir = join(scratch, 'data');
        const run = await runCli([file], { DATA_DIR: dataDir, LOT_URL: url, LOT_BACKUP_KEY_FILE: keyFile });
        expect(run.code, run.output).toBe(0);
        expect(formatOf(readFileSync(file))).toBe('pglite');
        expect(run.output).toContain(
          restoreKeysNote({ dataDir, jwtSecret: undefined, totpKey: undefined, seedKey: undefined }),
        );
        expect(run.output).toContain(join(dataDir, 'totp-key'));

        // Into a folder that does not exist: refused before the server is asked, so no copy is
        // handed out (and none audited as downloaded) for nothing.
        const trail = await backupTrail();
        const missing = join(scratch, 'missing', 'lot.tar.gz');
        const nowhere = await runCli([missing], { DATA_DIR: dataDir, LOT_URL: url, LOT_BACKUP_KEY_FILE: keyFile });
        expect(nowhere.code).toBe(1);
        expect(nowhere.output.trim()).toBe(
          `Backup failed: the folder ${join(scratch, 'missing')} does not exist: create it first, readable by its owner only (mkdir -p -m 700 ${join(scratch, 'missing')})`,
        );
        expect(await backupTrail()).toEqual(trail);
        // What happens without each key, as the start-up check does it (decision 042, README's table).
        expect(run.output).toContain(
          'Without the TOTP key, the seed key or the log key the server refuses to start on the restored database, naming the file',
        );

        // The admin's password is refused by the policy: the message names the way out.
        const password = backupCredential({}, { username: ADMIN.username, password: ADMIN.password });
        const refused = backupThroughServer(url, password, join(scratch, 'password.tar.gz'));
        await expect(refused).rejects.toThrow(BackupRefused);
        await expect(refused).rejects.toThrow(/two-factor.*use a backup key: .*LOT_BACKUP_KEY_FILE/);
        // A key file others may read, or one holding no key, is refused before anything is sent.
        chmodSync(keyFile, 0o644);
        expect(() =>
          backupCredential({ LOT_BACKUP_KEY_FILE: keyFile }, { username: 'admin', password: undefined }),
        ).toThrow(/may be read by other users: .*chmod 600/);
        writeFileSync(join(scratch, 'not-a-key'), 'hunter2\n', { mode: 0o600 });
        expect(() =>
          backupCredential(
            { LOT_BACKUP_KEY_FILE: join(scratch, 'not-a-key') },
            { username: 'admin', password: undefined },
          ),
        ).toThrow(/holds no backup key/);

        // An admin with two-factor on is asked for a code, which cron cannot give (it sent `Bearer undefined`).
        const enrol = await t.request(t.adminToken, { method: 'POST', url: '/api/auth/two-factor/enrol' });
        const totp = new TOTP({ secret: Secret.fromBase32(enrol.json<{ secret: string }>().secret) });
        const on = await t.request(t.adminToken, {
          method: 'POST',
          url: '/api/auth/two-factor/confirm',
          payload: { code: totp.generate() },
        });
        expect(on.statusCode, on.body).toBe(200);
        await expect(backupThroughServer(url, password, join(scratch, 'code.tar.gz'))).rejects.toThrow(
          /admin signs in with two-factor, which a scheduled backup cannot answer: use a backup key/,
        );
      } finally {
        await setPolicy([]);
      }
    },
    60_000,
  );
});

/** `npm run backup` as cron runs it: a child process with only this environment. */
function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BACKUP_CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
