import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { decimalToCents } from '@lot/domain/money';
import {
  apiAs,
  baseUrl,
  DEMO,
  DESKTOP,
  freshUser,
  login,
  openPage,
  PHONE,
  player,
  signIn,
  textOf,
  useBrowser,
  visible,
  type Account,
} from './support.ts';

const browser = useBrowser();
const SHOTS = 'test-results/screenshots';
const BET = 5;
const GAMES = 2;

/** Money as a page writes it ("+$1,234.50", "-$7.50", "$0.00") in cents. */
function cents(text: string): number {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-') || trimmed.startsWith('−');
  const value = decimalToCents(trimmed.replace(/[^\d.]/g, ''));
  return negative ? -value : value;
}

const read = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim();

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The sales history's totals for an agent over a period: its games (X-Total-Count) and commission (X-Total-Commission). */
async function salesTotals(account: Account, agentId: number, from: Date, to: Date) {
  const signin = await fetch(`${baseUrl()}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(login(account)),
  });
  const { accessToken } = (await signin.json()) as { accessToken: string };
  const query = new URLSearchParams({ from: from.toISOString(), to: to.toISOString(), limit: '1' });
  const response = await fetch(`${baseUrl()}/api/sales-history/agent/${agentId}?${query}`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  expect(response.status).toBe(200);
  return {
    games: Number(response.headers.get('x-total-count')),
    commission: response.headers.get('x-total-commission') ?? '',
  };
}

describe('statements and the downline report', () => {
  let superagent: Account;
  let agent: Account;
  let shop: Account;

  beforeAll(async () => {
    superagent = await freshUser('superagent', { fullName: 'Stella Statement' });
    agent = await freshUser('agent', { parentId: superagent.id, fullName: 'Arno Statement' });
    shop = await player({ parentId: agent.id, fullName: 'Umberto Statement', games: GAMES, bet: BET });
    // A transfer from the agent, so the statement has money from someone in it too.
    await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: agent.id, amount: '100' } });
    await apiAs(login(agent), '/api/balance/transfer', { body: { receiverId: shop.id, amount: '25.50' } });
  }, 60_000);

  async function openStatementFromUsers(viewport = DESKTOP): Promise<Page> {
    const page = await openPage(browser(), viewport);
    await signIn(page, login(agent));
    await page.goto('/agent/users');
    const row = page.getByTestId('user-row').filter({ hasText: shop.username });
    await visible(row);
    await shoot(page, `statement-users-${viewport.width}`);
    await row.getByTestId('user-statement').click();
    await page.waitForURL(new RegExp(`/statements/${shop.id}`));
    await visible(page.getByTestId('statement-sheet'));
    return page;
  }

  it('shows opening + movements = closing, and the closing balance is the balance now', async () => {
    const page = await openStatementFromUsers();
    expect(await read(page, 'statement-account')).toBe(shop.fullName);
    expect(await page.locator('header h1').innerText()).toBe('Statement');
    // Top-up, the transfer, two games each held and settled.
    await expect.poll(() => page.getByTestId('statement-movement').count()).toBe(2 + GAMES * 2);

    const opening = cents(await read(page, 'statement-opening'));
    const closing = cents(await read(page, 'statement-closing'));
    const amounts = await page.getByTestId('movement-amount').allTextContents();
    const balances = await page.getByTestId('movement-balance').allTextContents();
    const sum = amounts.reduce((total, amount) => total + cents(amount), 0);
    expect(opening + sum).toBe(closing);
    expect(cents(balances.at(-1) ?? '')).toBe(closing);
    // Every running balance is the one before it plus its movement.
    let running = opening;
    amounts.forEach((amount, index) => {
      running += cents(amount);
      expect(cents(balances[index] ?? '')).toBe(running);
    });
    const balance = await apiAs<{ amount: string }>(login(agent), `/api/balance/${shop.id}`);
    expect(closing).toBe(decimalToCents(balance.amount));
    expect(cents(await read(page, 'statement-total-in')) - cents(await read(page, 'statement-total-out'))).toBe(
      closing - opening,
    );
    const kinds = await page.getByTestId('movement-kind').allTextContents();
    expect(kinds).toContain('Transfer received');
    expect(kinds).toContain('Game pool held');
    await shoot(page, 'statement-1280');

    // Printed: the statement alone, with the name and the closing balance, no menu.
    const closingText = await read(page, 'statement-closing');
    await page.emulateMedia({ media: 'print' });
    const pdf = await page.pdf({ preferCSSPageSize: true });
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(`${SHOTS}/statement.pdf`, pdf);
    const text = execFileSync('pdftotext', ['-layout', `${SHOTS}/statement.pdf`, '-'], { encoding: 'utf8' });
    expect(text).toContain(shop.fullName);
    // In the closing figure and as the last movement's balance: the balance column prints too.
    expect(text.split(closingText).length - 1).toBeGreaterThanOrEqual(2);
    for (const menu of ['Dashboard', 'Sales History', 'Sign out', 'Print']) expect(text).not.toContain(menu);
    await page.context().close();
  });

  it('an empty period says so, and the user reaches its own statement from the profile', async () => {
    const page = await openPage(browser(), PHONE);
    await signIn(page, login(shop));
    await page.goto('/profile');
    await page.getByTestId('my-statement').click();
    await page.waitForURL(new RegExp(`/statements/${shop.id}`));
    await visible(page.getByTestId('statement-movement'));
    await shoot(page, 'statement-375');
    await page.getByRole('button', { name: 'Last month' }).click();
    await visible(page.getByText('No movements in this period'));
    expect(await read(page, 'statement-closing')).toBe('$0.00');
    await page.context().close();
  });

  it("the agent's report lists its user with the sales history's games and commission", async () => {
    const page = await openPage(browser());
    await signIn(page, login(agent));
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL(/\/agent\/reports/);
    await page.getByRole('button', { name: 'Today' }).click();
    const row = page.locator(`[data-testid="report-row"][data-user-id="${shop.id}"]`);
    await visible(row);
    const start = new Date();
    start.setHours(0, 0, 0, 0);
    const end = new Date(start);
    end.setDate(end.getDate() + 1);
    end.setMilliseconds(-1);
    const sales = await salesTotals(agent, agent.id, start, end);
    expect(sales.games).toBe(GAMES);
    await expect.poll(() => textOf(row.getByTestId('figure-settledGames'))).toBe(String(GAMES));
    expect(cents(await row.getByTestId('figure-commission').innerText())).toBe(decimalToCents(sales.commission));
    expect(cents(await row.getByTestId('figure-transfersReceived').innerText())).toBe(2550);
    const totals = page.locator('[data-testid="report-row"][data-totals]');
    expect(cents(await totals.getByTestId('figure-commission').innerText())).toBe(decimalToCents(sales.commission));
    await shoot(page, 'reports-1280-agent');

    // A user's line opens its statement.
    await row.getByTestId('row-statement').click();
    await page.waitForURL(new RegExp(`/statements/${shop.id}`));
    await expect.poll(() => textOf(page.getByTestId('statement-account'))).toBe(shop.fullName);
    await page.context().close();
  });

  it('the admin drills down from a super agent to its agent to its user, and back', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await openPage(browser(), viewport);
      await signIn(page, DEMO.admin);
      await page.goto('/admin/reports');
      expect(await page.locator('header h1').innerText()).toBe('Reports');
      const superRow = page.locator(`[data-testid="report-row"][data-user-id="${superagent.id}"]`);
      await superRow.getByTestId('drill-down').click();
      const agentRow = page.locator(`[data-testid="report-row"][data-user-id="${agent.id}"]`);
      await visible(agentRow);
      await expect.poll(() => textOf(page.getByTestId('crumb-current'))).toBe(superagent.fullName);
      expect(await agentRow.getByTestId('figure-settledGames').innerText()).toBe(String(GAMES));
      await agentRow.getByTestId('drill-down').click();
      const shopRow = page.locator(`[data-testid="report-row"][data-user-id="${shop.id}"]`);
      await visible(shopRow);
      await expect.poll(() => page.locator('[data-testid="report-row"][data-user-id]').count()).toBe(1);
      await expect.poll(() => textOf(page.getByTestId('crumb-current'))).toBe(agent.fullName);
      expect(await shopRow.getByTestId('drill-down').count()).toBe(0);
      await shoot(page, `reports-${viewport.width}-drill-down`);
      // Back to the super agent's level, then to the top.
      await page.getByTestId('report-breadcrumb').getByRole('button', { name: superagent.fullName }).click();
      await visible(agentRow);
      await page.getByTestId('report-breadcrumb').getByRole('button', { name: 'My downline' }).click();
      await visible(superRow);
      if (viewport === DESKTOP) await shoot(page, 'reports-1280-admin');
      await page.context().close();
    }
  });
});
