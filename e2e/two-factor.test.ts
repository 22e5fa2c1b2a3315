import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { axeViolations, describeViolations } from './axe.ts';
import { BACKUP_KEY_PATTERN } from '@lot/domain/schemas/backup';
import { exitOf, startServer } from '../packages/server/src/test/server-process.ts';
import {
  baseUrl,
  DEMO,
  DESKTOP,
  freshUser,
  hidden,
  openPage,
  PHONE,
  signIn,
  textOf,
  useBrowser,
  visible,
  type Account,
} from './support.ts';

/**
 * Two-factor sign-in and sessions (docs/decisions/028-two-factor-and-sessions.md): set up from the
 * profile with a code computed here as an authenticator app would, then a sign-in with the code
 * step, and the profile's sessions; the admin's backup keys, which take a backup without a code
 * (decision 041).
 */

const browser = useBrowser();
const STEP_MS = 30_000;

/** The code an authenticator app shows for the secret, `steps` time steps from now. */
function codeFor(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * STEP_MS });
}

async function openProfile(page: Page) {
  await page.goto('/profile');
  await visible(page.getByRole('heading', { name: 'Two-factor sign-in' }));
}

/** Sets it up from the profile; answers the secret as the screen shows it and the recovery codes. */
async function setUp(page: Page): Promise<{ secret: string; recoveryCodes: string[] }> {
  await openProfile(page);
  expect(await textOf(page.getByTestId('two-factor-state'))).toBe('Off');
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set up two-factor sign-in' });
  await dialog.getByRole('button', { name: 'Begin set-up' }).click();
  expect(await visible(dialog.getByRole('img', { name: 'QR code for your authenticator app' }))).toBe(true);
  const secret = (await textOf(dialog.getByTestId('two-factor-secret'))).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  // A code of long ago is refused, in the server's words, under the field.
  await dialog.getByLabel('Code from the app').fill(codeFor(secret, -10));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  expect(await visible(dialog.getByText(MESSAGES.twoFactorCodeInvalid))).toBe(true);

  await dialog.getByLabel('Code from the app').fill(codeFor(secret));
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  expect(await visible(dialog.getByText('Two-factor sign-in is on.'))).toBe(true);
  const recoveryCodes = await dialog.getByTestId('recovery-codes').locator('li').allInnerTexts();
  await dialog.getByRole('button', { name: 'I have saved these codes' }).click();
  await expect.poll(() => textOf(page.getByTestId('two-factor-state'))).toBe('On');
  expect(await visible(page.getByText('10 of 10 recovery codes left.', { exact: false }))).toBe(true);
  return { secret, recoveryCodes };
}

/** The sign-in screen's two steps: the password, then the code. */
async function signInWithCode(page: Page, account: Account, code: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect(await visible(page.getByRole('heading', { name: 'Two-factor sign-in' }))).toBe(true);
  expect(await visible(page.getByText(MESSAGES.twoFactorCodeNeeded))).toBe(true);
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

describe('two-factor sign-in', () => {
  it('is set up from the profile with a code from the app, and then sign-in asks for a code', async () => {
    const account = await freshUser('user');
    const page = await openPage(browser());
    await signIn(page, account);
    const { secret, recoveryCodes } = await setUp(page);
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);

    const other = await openPage(browser(), PHONE);
    // A wrong code: the server's message under the field, and still on the code step.
    await signInWithCode(other, account, codeFor(secret, 10));
    expect(await visible(other.getByText(MESSAGES.twoFactorCodeInvalid))).toBe(true);
    expect(new URL(other.url()).pathname).toBe('/login');
    // The set-up took this step's code: the next step's is new (the server takes one step either side).
    await other.getByLabel('Authentication code').fill(codeFor(secret, 1));
    await other.getByRole('button', { name: 'Verify' }).click();
    await other.waitForURL((url) => url.pathname === '/user/dashboard');

    // A recovery code signs in once.
    const third = await openPage(browser());
    await signInWithCode(third, account, recoveryCodes[0] ?? '');
    await third.waitForURL((url) => url.pathname === '/user/dashboard');
    await third.evaluate(() => localStorage.clear());
    await signInWithCode(third, account, recoveryCodes[0] ?? '');
    expect(await visible(third.getByText(MESSAGES.twoFactorCodeInvalid))).toBe(true);

    await openProfile(other);
    expect(await visible(other.getByText('9 of 10 recovery codes left.', { exact: false }))).toBe(true);
    await Promise.all([page.context().close(), other.context().close(), third.context().close()]);
  });
});

describe('sessions', () => {
  it('the profile lists this device and the others; ending the others signs them out', async () => {
    const account = await freshUser('user');
    const elsewhere = await openPage(browser(), PHONE);
    await signIn(elsewhere, account);
    const page = await openPage(browser());
    await signIn(page, account);
    await openProfile(page);

    const rows = page.getByTestId('sessions').locator('li');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await visible(rows.filter({ hasText: 'This device' }))).toBe(true);
    expect(await textOf(rows.filter({ hasText: 'This device' }))).toContain('Chrome on Linux');

    await page.getByRole('button', { name: 'End all other sessions' }).click();
    expect(await visible(page.getByText(MESSAGES.otherSessionsEnded))).toBe(true);
    await expect.poll(() => rows.count()).toBe(1);

    // The other device's next call is refused: it lands on the sign-in screen, saying why.
    await elsewhere.reload();
    await elsewhere.waitForURL((url) => url.pathname === '/login');
    expect(await visible(elsewhere.getByText(MESSAGES.sessionExpired))).toBe(true);
    await Promise.all([page.context().close(), elsewhere.context().close()]);
  });
});

describe('a role that requires two-factor sign-in', () => {
  it('sends its user to set it up after sign-in, offers nothing else until then, and then lets them in', async () => {
    // A server of its own: the policy is the whole server's, and the other files sign in every role.
    const dataDir = mkdtempSync(join(tmpdir(), 'lot-e2e-two-factor-'));
    const server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'admin-password', LOG_LEVEL: 'warn' });
    try {
      const call = async <T>(token: string | null, path: string, method = 'GET', body?: unknown): Promise<T> => {
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
        return (await response.json()) as T;
      };
      const admin = (
        await call<{ accessToken: string }>(null, '/api/auth/signin', 'POST', {
          username: 'admin',
          password: 'admin-password',
        })
      ).accessToken;
      const account = { username: 'boss', password: 'boss-password' };
      await call(admin, '/api/users', 'POST', { ...account, fullName: 'Big Boss', role: 'superagent' });
      await call(admin, '/api/admin/two-factor-policy', 'PUT', { roles: ['superagent'] });

      const context = await browser().newContext({ viewport: DESKTOP, baseURL: server.url });
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByLabel('Username').fill(account.username);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname === '/two-factor-setup');
      expect(await visible(page.getByText(MESSAGES.twoFactorEnrolmentRequired))).toBe(true);
      // No shell, no way round it: another address, or a reload, comes back here.
      expect(await page.locator('#sidebar').count()).toBe(0);
      await page.goto('/superagent/dashboard');
      await page.waitForURL((url) => url.pathname === '/two-factor-setup');

      await page.getByRole('button', { name: 'Begin set-up' }).click();
      const secret = (await textOf(page.getByTestId('two-factor-secret'))).replace(/\s/g, '');
      await page.getByLabel('Code from the app').fill(codeFor(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
      await page.getByRole('button', { name: 'I have saved these codes' }).click();
      await page.waitForURL((url) => url.pathname === '/superagent/dashboard');
      expect(await visible(page.locator('#sidebar nav'))).toBe(true);

      // On, and not to be turned off while the role requires it.
      await page.goto('/profile');
      expect(await visible(page.getByText('Your role requires two-factor sign-in.'))).toBe(true);
      expect(await textOf(page.getByTestId('two-factor-state'))).toBe('On');
      expect(await page.getByRole('button', { name: 'Turn off' }).count()).toBe(0);
      await context.close();
    } finally {
      server.child.kill('SIGTERM');
      await exitOf(server.child);
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Its own server starts, migrates and seeds inside the test: with another file running beside
    // it on two cores, that alone can take most of the usual 60 s.
  }, 120_000);
});

describe('backup keys', () => {
  it('the admin makes one on the profile, sees and copies it once, and it takes the backup until revoked after a confirmation', async () => {
    const page = await openPage(browser());
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    await signIn(page, DEMO.admin);
    await page.goto('/profile');
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Backup keys' }) });
    const name = `e2e cron ${Date.now()}`;
    await card.getByLabel('Key name').fill(name);
    await card.getByRole('button', { name: 'Create key' }).click();
    const secret = await card.getByLabel('The new backup key').inputValue();
    expect(secret).toMatch(BACKUP_KEY_PATTERN);
    await card.getByRole('button', { name: 'Copy', exact: true }).click();
    await visible(card.getByRole('button', { name: 'Copied', exact: true }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const violations = await axeViolations(page);
    expect(violations, describeViolations('profile with a new backup key', violations)).toEqual([]);

    const backup = () =>
      fetch(`${baseUrl()}/api/admin/backup`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status);
    expect(await backup()).toBe(200);

    // Shown once: gone when saved, and never again after a reload; the list tells its last use.
    await card.getByRole('button', { name: 'I have saved the key' }).click();
    await hidden(card.getByTestId('new-backup-key'));
    await page.reload();
    const row = card.getByTestId('backup-key').filter({ hasText: name });
    await visible(row);
    expect(await textOf(row)).toContain('Last used');
    expect(await textOf(card)).not.toContain(secret.slice(10));

    await row.getByRole('button', { name: `Revoke backup key ${name}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke backup key' });
    expect(await textOf(dialog)).toContain(`revoke the backup key “${name}”?`);
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await hidden(dialog);
    expect(await visible(page.getByText(SERVER_MESSAGES.backupKeyRevoked))).toBe(true);
    await expect.poll(() => textOf(row)).toContain('Revoked');
    expect(await backup()).toBe(401);
  });
});
