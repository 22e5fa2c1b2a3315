import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * Issue 43: the README's cron line kept its backup key in the checkout, where `git add .` would
 * commit it. The key file names people use, and backups, are ignored wherever they land in it.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

it('key files and backups saved in the checkout are ignored by git', () => {
  const names = [
    'backup-key',
    'lot.key',
    'jwt-secret',
    'totp-key',
    'seed-key',
    'checkpoint-key',
    'witness-key',
    'witness-data/witness-key',
    'witness-data/state.json',
    'lot-backup-20261129T023000.tar.gz',
    'lot-2026-11-29.dump',
    'data/seed-key',
    'deploy/backup-key',
  ];
  const checked = spawnSync('git', ['check-ignore', '--no-index', '--verbose', '--non-matching', ...names], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  // --non-matching lists every name; a name no rule ignores has an empty rule ("::\tname").
  const notIgnored = checked.stdout
    .split('\n')
    .filter((line) => line.startsWith('::'))
    .map((line) => line.split('\t')[1]);
  expect(checked.stdout).toContain('backup-key');
  expect(notIgnored).toEqual([]);
});
