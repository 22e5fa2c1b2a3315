import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  day,
  freshUser,
  label,
  login,
  openPage,
  PHONE,
  player,
  signIn,
  textOf,
  useBrowser,
  visible,
} from './support.ts';

const browser = useBrowser();

/** Makes full names unique to this run, so pickers and lists find only this file's people. */
const tag = `h${Date.now().toString(36)}`;

/** Waits until a select has the option (options are never "visible" to playwright). */
async function hasOption(select: Locator, text: string): Promise<void> {
  await select.locator('option', { hasText: text }).first().waitFor({ state: 'attached', timeout: 10_000 });
}

// A hierarchy of this file's own: super agent → agents A (two players), B (one) and C (none), plus a direct user.
async function buildHierarchy() {
  const superagent = await freshUser('superagent', { fullName: `Sylvia Super ${tag}` });
  const [agentA, agentB, agentC] = await Promise.all([
    freshUser('agent', { parentId: superagent.id, fullName: `Alma Agent ${tag}` }),
    freshUser('agent', { parentId: superagent.id, fullName: `Bruno Agent ${tag}` }),
    freshUser('agent', { parentId: superagent.id, fullName: `Cleo Agent ${tag}` }),
  ]);
  const [busy, quiet, lone, direct] = await Promise.all([
    player({ parentId: agentA.id, fullName: `Abe Busy ${tag}`, games: 3, bet: 10 }), // 3 games, commission 15.00 each = 45.00
    player({ parentId: agentA.id, fullName: `Amy Quiet ${tag}`, games: 1, bet: 20 }), // 1 game, 30.00
    player({ parentId: agentB.id, fullName: `Ben Lone ${tag}`, games: 1, bet: 40 }), // 1 game, 60.00
    player({ parentId: superagent.id, fullName: `Dot Direct ${tag}`, games: 1, bet: 100 }), // 1 game, 150.00
  ]);
  return { superagent, agentA, agentB, agentC, busy, quiet, lone, direct };
}
let built: ReturnType<typeof buildHierarchy> | undefined;
/** Built once, by the first test that needs it. */
const hierarchy = () => (built ??= buildHierarchy());

const games = (page: Page) => page.getByTestId('total-games');
const commission = (page: Page) => page.getByTestId('total-commission');
const rows = (page: Page) => page.getByTestId('sale-row');
const showing = (page: Page, text: string) => visible(page.getByText(text, { exact: true }));
const options = (select: Locator) => select.locator('option').allTextContents();

describe('super agent sales history', () => {
  it('filters by agent and by user, by date, shows the empty filtered text and resets', async () => {
    const { superagent, agentA, agentB, agentC, busy, quiet, lone, direct } = await hierarchy();
    const page = await openPage(browser());
    await signIn(page, login(superagent));
    await page.goto('/superagent/sales-history');
    await visible(page.getByRole('heading', { name: 'Sales History' }));
    await visible(rows(page));

    // All Sales: every game under the super agent.
    const filterType = page.getByLabel('Filter Type');
    expect(await filterType.inputValue()).toBe('all');
    expect(await options(filterType)).toEqual(['All Sales', 'By Agent', 'By User']);
    await expect.poll(() => textOf(games(page))).toBe('6');
    await expect.poll(() => textOf(commission(page))).toBe('$285.00');
    expect(await showing(page, 'Showing 1 to 6 of 6 entries')).toBe(true);
    expect(await page.getByRole('columnheader', { name: 'Parent' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Reset All Filters' }).isDisabled()).toBe(true);

    // By Agent: the picker lists its agents; agent A's two players' four games.
    await filterType.selectOption({ label: 'By Agent' });
    const agentSelect = page.getByLabel('Agent', { exact: true });
    await hasOption(agentSelect, agentC.fullName);
    expect(await options(agentSelect)).toEqual(['All Agents', label(agentA), label(agentB), label(agentC)]);
    await agentSelect.selectOption({ label: label(agentA) });
    await expect.poll(() => textOf(games(page))).toBe('4');
    await expect.poll(() => textOf(commission(page))).toBe('$75.00');
    await expect.poll(() => rows(page).count()).toBe(4);
    expect(await rows(page).first().locator('[data-column="parent"]').textContent()).toContain(agentA.fullName);
    await agentSelect.selectOption({ label: label(agentB) });
    await expect.poll(() => textOf(games(page))).toBe('1');
    await expect.poll(() => textOf(commission(page))).toBe('$60.00');

    // An agent without players: the filtered empty text, zero totals.
    await agentSelect.selectOption({ label: label(agentC) });
    await expect.poll(() => textOf(games(page))).toBe('0');
    await expect.poll(() => textOf(commission(page))).toBe('$0.00');
    expect(await visible(page.getByText('No games match the selected filters.'))).toBe(true);

    // By User: the choice is dropped, the picker lists every user under the super agent.
    await filterType.selectOption({ label: 'By User' });
    const userSelect = page.getByLabel('User', { exact: true });
    await hasOption(userSelect, direct.fullName);
    expect((await options(userSelect)).sort()).toEqual(
      ['All Users', label(busy), label(quiet), label(lone), label(direct)].sort(),
    );
    await expect.poll(() => textOf(games(page))).toBe('6');
    await userSelect.selectOption({ label: label(busy) });
    await expect.poll(() => textOf(games(page))).toBe('3');
    await expect.poll(() => textOf(commission(page))).toBe('$45.00');
    expect(await showing(page, 'Showing 1 to 3 of 3 entries')).toBe(true);
    const first = rows(page).first();
    expect(await first.locator('[data-column="user"]').textContent()).toBe(busy.fullName);
    expect(await first.locator('[data-column="betAmount"]').textContent()).toContain('$10.00');
    expect(await first.locator('[data-column="commission"]').textContent()).toContain('$15.00');
    await userSelect.selectOption({ label: label(direct) });
    await expect.poll(() => textOf(games(page))).toBe('1');
    await expect.poll(() => textOf(commission(page))).toBe('$150.00');
    expect(await rows(page).first().locator('[data-column="parent"]').textContent()).toContain(superagent.fullName);

    // Dates: every game is from today.
    await page.getByLabel('Start Date').fill(day(1));
    await expect.poll(() => textOf(games(page))).toBe('0');
    expect(await visible(page.getByText('No games match the selected filters.'))).toBe(true);
    await page.getByLabel('Start Date').fill(day(0));
    await page.getByLabel('End Date').fill(day(0));
    await expect.poll(() => textOf(games(page))).toBe('1');

    // Reset All Filters: back to All Sales, no dates.
    await page.getByRole('button', { name: 'Reset All Filters' }).click();
    expect(await filterType.inputValue()).toBe('all');
    expect(await page.getByLabel('Start Date').inputValue()).toBe('');
    await expect.poll(() => textOf(games(page))).toBe('6');
    await expect.poll(() => textOf(commission(page))).toBe('$285.00');
  });

  it('shows the unfiltered empty text to a super agent without games, and fits a phone', async () => {
    const superagent = await freshUser('superagent', { fullName: `Empty Super ${tag}` });
    const page = await openPage(browser(), PHONE);
    await signIn(page, login(superagent));
    await page.goto('/superagent/sales-history');
    expect(await visible(page.getByText('No game history found.'))).toBe(true);
    await expect.poll(() => textOf(games(page))).toBe('0');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});

describe('agent sales history', () => {
  it('picks a user with the totals following, without a Parent column', async () => {
    const { agentA, busy, quiet } = await hierarchy();
    const page = await openPage(browser());
    await signIn(page, login(agentA));
    await page.goto('/agent/sales-history');
    await visible(page.getByRole('heading', { name: 'Sales History' }));
    await visible(rows(page));

    await expect.poll(() => textOf(games(page))).toBe('4');
    await expect.poll(() => textOf(commission(page))).toBe('$75.00');
    expect(await showing(page, 'Showing 1 to 4 of 4 entries')).toBe(true);
    // No Parent column: neither a header nor a cell.
    expect(await page.getByRole('columnheader', { name: 'User' }).count()).toBe(1);
    expect(await page.getByRole('columnheader', { name: 'Parent' }).count()).toBe(0);
    expect(await page.locator('[data-column="parent"]').count()).toBe(0);

    const userSelect = page.getByLabel('User', { exact: true });
    await hasOption(userSelect, quiet.fullName);
    expect(await options(userSelect)).toEqual(['All Users', label(busy), label(quiet)]);
    await userSelect.selectOption({ label: label(quiet) });
    await expect.poll(() => textOf(games(page))).toBe('1');
    await expect.poll(() => textOf(commission(page))).toBe('$30.00');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().locator('[data-column="user"]').textContent()).toBe(quiet.fullName);
    await userSelect.selectOption({ label: label(busy) });
    await expect.poll(() => textOf(games(page))).toBe('3');
    await expect.poll(() => textOf(commission(page))).toBe('$45.00');

    // Filtered to nothing: the filtered empty text; Reset brings every game back.
    await page.getByLabel('End Date').fill(day(-1));
    await expect.poll(() => textOf(games(page))).toBe('0');
    expect(await visible(page.getByText('No games match the selected filters.'))).toBe(true);
    await page.getByRole('button', { name: 'Reset All Filters' }).click();
    expect(await userSelect.inputValue()).toBe('');
    await expect.poll(() => textOf(games(page))).toBe('4');
  });

  it('shows the unfiltered empty text to an agent without games, and fits a phone', async () => {
    const { agentC } = await hierarchy();
    const page = await openPage(browser(), PHONE);
    await signIn(page, login(agentC));
    await page.goto('/agent/sales-history');
    expect(await visible(page.getByText('No game history found.'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
