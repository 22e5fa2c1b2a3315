import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exitOf } from '../test/server-process.ts';

/**
 * The command-line tools say what is wrong with their configuration or their database in plain
 * lines and exit 2 (did not run), never with a stack trace (issue 43).
 */
const key = 'k'.repeat(40);
const dataDir = mkdtempSync(join(tmpdir(), 'lot-cli-errors-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function run(script: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url))], {
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await exitOf(child);
  return { code, stdout, stderr };
}

const noStack = (text: string) => {
  expect(text).not.toMatch(/^\s+at /m);
  expect(text).not.toContain('node:internal');
  expect(text).not.toContain('Error:');
};

describe.concurrent('command-line tools refuse a bad configuration in plain lines', () => {
  it('db:migrate names each missing PostgreSQL variable', async () => {
    const result = await run('./migrate-cli.ts', { DATABASE_URL: 'postgres://lot@127.0.0.1:1/lot' });
    expect(result.code).toBe(2);
    noStack(result.stderr);
    expect(result.stderr.trim().split('\n')).toEqual([
      'db:migrate: Invalid environment:',
      '  JWT_SECRET: is required when DATABASE_URL is set (every API process must share it)',
      '  TOTP_KEY: is required when DATABASE_URL is set (every API process must share it)',
      '  SEED_KEY: is required when DATABASE_URL is set (every API process must share it)',
      '  LOG_KEY: is required when DATABASE_URL is set (every API process must share it)',
    ]);
  });

  it('db:migrate names a PostgreSQL it cannot reach, without the password', async () => {
    const result = await run('./migrate-cli.ts', {
      DATABASE_URL: 'postgres://lot:secret-password@127.0.0.1:1/lot',
      JWT_SECRET: key,
      TOTP_KEY: key,
      SEED_KEY: key,
      LOG_KEY: key,
    });
    expect(result.code).toBe(2);
    noStack(result.stderr);
    expect(result.stderr.trim()).toBe(
      'db:migrate: cannot reach PostgreSQL at 127.0.0.1:1/lot (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(result.stdout).toBe('');
  });

  it.each([
    ['ledger:check', './ledger-check-cli.ts'],
    ['audit:verify', './audit-verify-cli.ts'],
    ['backup', './backup-cli.ts'],
  ])('%s names a bad variable in one line', async (name, script) => {
    const result = await run(script, { LOG_LEVEL: 'loud' });
    expect(result.code).toBe(2);
    noStack(result.stderr);
    expect(result.stderr).toMatch(new RegExp(`^${name}: Invalid environment:\\n  LOG_LEVEL: .+\\n$`));
  });
});
