import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiAs,
  DEMO,
  day,
  freshUser,
  hidden,
  label,
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
const tag = `w${Date.now().toString(36)}`;

type Winner = { id: number; name: string; percent: string; position: number; isActive: boolean };

describe('admin winner configurations', () => {
  const rows = (page: Page) => page.getByTestId('winner-row');
  const row = (page: Page, name: string) => rows(page).filter({ has: page.getByText(name, { exact: true }) });
  const total = (page: Page) => page.getByTestId('winner-total');

  it('adds, validates, edits, deactivates and deletes a user’s configurations, with the total notes', async () => {
    const owner = await freshUser('user', { fullName: `Winnie Player ${tag}` });
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    await page.goto('/admin/winners');
    await visible(page.getByRole('heading', { name: 'Winner Configurations' }));
    await visible(page.getByTestId('winner-row'));

    await page.getByLabel('Filter by User').selectOption({ label: label(owner) });
    expect(await visible(page.getByText('No winner configurations found.'))).toBe(true);

    // The form speaks the domain schema's words, and a new one is for the user being looked at.
    await page.getByRole('button', { name: 'Add Winner Configuration' }).click();
    const add = page.getByRole('dialog', { name: 'Add Winner Configuration' });
    await visible(add);
    expect(await add.getByLabel('User', { exact: true }).inputValue()).toBe(String(owner.id));
    expect(await add.getByLabel('Position').inputValue()).toBe('1');
    expect(await add.getByLabel('Active', { exact: true }).isChecked()).toBe(true);
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await visible(add.getByText('Name is required'))).toBe(true);
    expect(await visible(add.getByText('Percentage is required'))).toBe(true);

    await add.getByLabel('Name').fill('Gold');
    await add.getByLabel('Percentage').fill('150');
    await add.getByLabel('Position').fill('0');
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await visible(add.getByText('Percentage must be between 0 and 100'))).toBe(true);
    expect(await visible(add.getByText('Position must be a positive number'))).toBe(true);
    expect(await add.getByText('Name is required').count()).toBe(0);

    await add.getByLabel('Percentage').fill('60');
    await add.getByLabel('Position').fill('1');
    await add.getByLabel('Description (Optional)').fill('The top prize');
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await hidden(add)).toBe(true);
    expect(await visible(row(page, 'Gold').filter({ hasText: 'The top prize' }))).toBe(true);
    await expect.poll(() => textOf(total(page))).toBe('60.00%');
    expect(await visible(page.getByText('Note: Total is less than 100%'))).toBe(true);

    // 60 + 50: over 100. Position 1 is Gold's: the server's refusal stands under Position (decision 035).
    await page.getByRole('button', { name: 'Add Winner Configuration' }).click();
    await visible(add);
    await add.getByLabel('Name').fill('Silver');
    await add.getByLabel('Percentage').fill('50');
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await visible(add.getByText('Position 1 already has a prize'))).toBe(true);
    await add.getByLabel('Position').fill('2');
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await hidden(add)).toBe(true);
    await expect.poll(() => textOf(total(page))).toBe('110.00%');
    expect(await visible(page.getByText('Warning: Total exceeds 100%'))).toBe(true);
    expect(await page.getByText('Note: Total is less than 100%').count()).toBe(0);

    // Edit: the form opens with the saved values; 60 + 40 is exactly 100, so no note at all.
    await page.getByRole('button', { name: 'Edit Silver' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Winner Configuration' });
    await visible(edit);
    expect(await edit.getByLabel('Percentage').inputValue()).toBe('50.00');
    expect(await edit.getByLabel('User', { exact: true }).isDisabled()).toBe(true);
    await edit.getByLabel('Percentage').fill('');
    await edit.getByRole('button', { name: 'Update Configuration' }).click();
    expect(await visible(edit.getByText('Percentage is required'))).toBe(true);
    await edit.getByLabel('Percentage').fill('40');
    await edit.getByRole('button', { name: 'Update Configuration' }).click();
    expect(await hidden(edit)).toBe(true);
    await expect.poll(() => textOf(total(page))).toBe('100.00%');
    expect(await hidden(page.getByText('Warning: Total exceeds 100%'))).toBe(true);
    expect(await page.getByText('Note: Total is less than 100%').count()).toBe(0);

    // Inactive: greyed, badged, and left out of the total.
    await page.getByRole('button', { name: 'Edit Silver' }).click();
    await visible(edit);
    await edit.getByLabel('Active', { exact: true }).uncheck();
    await edit.getByRole('button', { name: 'Update Configuration' }).click();
    expect(await hidden(edit)).toBe(true);
    await expect.poll(() => row(page, 'Silver').getAttribute('data-active')).toBe('false');
    expect(await row(page, 'Silver').getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    expect(await row(page, 'Silver').getAttribute('class')).toContain('text-slate-500');
    expect(await row(page, 'Gold').getAttribute('class')).not.toContain('text-slate-500');
    await expect.poll(() => textOf(total(page))).toBe('60.00%');
    expect(await visible(page.getByText('Note: Total is less than 100%'))).toBe(true);

    // Delete asks first; Cancel keeps it, Delete removes it.
    await page.getByRole('button', { name: 'Delete Gold' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Winner Configuration' });
    expect(await visible(confirm.getByText('Are you sure you want to delete Gold?'))).toBe(true);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await hidden(confirm)).toBe(true);
    expect(await rows(page).count()).toBe(2);
    await page.getByRole('button', { name: 'Delete Gold' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    expect(await hidden(confirm)).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(1);
    await expect.poll(() => textOf(total(page))).toBe('0.00%');

    // What the server holds is what the screen said.
    const saved = await apiAs<Winner[]>(DEMO.admin, `/api/winners?userId=${owner.id}`);
    expect(saved.map(({ name, percent, position, isActive }) => ({ name, percent, position, isActive }))).toEqual([
      { name: 'Silver', percent: '40.00', position: 2, isActive: false },
    ]);

    // Global: only configurations without an owner.
    await page.getByLabel('Filter by User').selectOption('global');
    await visible(rows(page));
    expect(await row(page, 'Silver').count()).toBe(0);
    expect(await rows(page).filter({ hasNotText: 'Global' }).count()).toBe(0);
  });

  it('fits a phone screen', async () => {
    const page = await openPage(browser(), PHONE);
    await signIn(page, DEMO.admin);
    await page.goto('/admin/winners');
    await visible(page.getByTestId('winner-row'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});

describe('admin sales history', () => {
  const games = (page: Page) => page.getByTestId('total-games');
  const commission = (page: Page) => page.getByTestId('total-commission');
  const rows = (page: Page) => page.getByTestId('sale-row');
  const showing = (page: Page, text: string) => visible(page.getByText(text, { exact: true }));
  const options = (select: Locator) => select.locator('option').allTextContents();

  // Its set-up plays fifteen games, one shop's eleven one after another, each waiting for its round.
  it('narrows from super agent to agent to user, by date, resets, and pages on the server', async () => {
    // A hierarchy of this file's own: super agent → agents A and B → users, plus a direct user.
    const superagent = await freshUser('superagent', { fullName: `Hester Super ${tag}` });
    const agentA = await freshUser('agent', { parentId: superagent.id, fullName: `Alba Agent ${tag}` });
    const agentB = await freshUser('agent', { parentId: superagent.id, fullName: `Boris Agent ${tag}` });
    const [busy, quiet, lone, direct] = await Promise.all([
      player({ parentId: agentA.id, fullName: `Abel Busy ${tag}`, games: 11, bet: 10 }), // 11 games, commission 15.00 each = 165.00
      player({ parentId: agentA.id, fullName: `Ada Quiet ${tag}`, games: 2, bet: 20 }), // 2 games, 30.00 each = 60.00
      player({ parentId: agentB.id, fullName: `Bea Lone ${tag}`, games: 1, bet: 40 }), // 1 game, 60.00
      player({ parentId: superagent.id, fullName: `Dora Direct ${tag}`, games: 1, bet: 100 }), // 1 game, 150.00
    ]);

    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    await page.goto('/admin/sales-history');
    await visible(page.getByRole('heading', { name: 'Sales History' }));
    await visible(rows(page));
    const superSelect = page.getByLabel('Super Agent');
    const agentSelect = page.getByLabel('Agent', { exact: true });
    const userSelect = page.getByLabel('User', { exact: true });
    // Everyone's games: the demo's eight, this file's fifteen, and whatever other files played.
    expect(Number(await games(page).textContent())).toBeGreaterThanOrEqual(23);
    expect(await page.getByRole('button', { name: 'Reset All Filters' }).isDisabled()).toBe(true);

    // Super agent: its games only, and the agent list narrows to its agents.
    await superSelect.selectOption({ label: label(superagent) });
    await expect.poll(() => textOf(games(page))).toBe('15');
    await expect.poll(() => textOf(commission(page))).toBe('$435.00');
    expect(await showing(page, 'Showing 1 to 10 of 15 entries')).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(10);
    // The pickers fill from their own queries (the users: one per agent and the direct ones).
    await expect.poll(() => options(agentSelect)).toEqual(['All Agents', label(agentA), label(agentB)]);
    // Its users: the agents' users and its direct one.
    await expect
      .poll(async () => (await options(userSelect)).sort())
      .toEqual(['All Users', label(busy), label(quiet), label(lone), label(direct)].sort());

    // Agent A: 13 games over two pages (the server pages; the totals cover all 13).
    await agentSelect.selectOption({ label: label(agentA) });
    await expect.poll(() => textOf(games(page))).toBe('13');
    await expect.poll(() => textOf(commission(page))).toBe('$225.00');
    expect(await showing(page, 'Showing 1 to 10 of 13 entries')).toBe(true);
    await expect.poll(() => options(userSelect)).toEqual(['All Users', label(busy), label(quiet)]);
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: '2', exact: true }).click();
    expect(await showing(page, 'Showing 11 to 13 of 13 entries')).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(3);
    await expect.poll(() => textOf(games(page))).toBe('13');

    // A user: back to page 1, that user's games and parent.
    await userSelect.selectOption({ label: label(quiet) });
    await expect.poll(() => textOf(games(page))).toBe('2');
    await expect.poll(() => textOf(commission(page))).toBe('$60.00');
    expect(await showing(page, 'Showing 1 to 2 of 2 entries')).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(2);
    const first = rows(page).first();
    expect(await first.locator('[data-column="user"]').textContent()).toBe(quiet.fullName);
    expect(await first.locator('[data-column="parent"]').textContent()).toContain(agentA.fullName);
    expect(await first.locator('[data-column="range"]').textContent()).toContain('1-3');
    expect(await first.locator('[data-column="betAmount"]').textContent()).toContain('$20.00');
    expect(await first.locator('[data-column="totalPrize"]').textContent()).toContain('$30.00');
    expect(await first.locator('[data-column="commission"]').textContent()).toContain('$30.00');

    // Another agent: the user choice is dropped (it belonged to agent A).
    await agentSelect.selectOption({ label: label(agentB) });
    await expect.poll(() => textOf(games(page))).toBe('1');
    await expect.poll(() => textOf(commission(page))).toBe('$60.00');
    expect(await userSelect.inputValue()).toBe('');

    // Another super agent level: agent and user reset; the direct user is reachable by user alone.
    await superSelect.selectOption({ label: 'All Super Agents' });
    expect(await agentSelect.inputValue()).toBe('');
    await superSelect.selectOption({ label: label(superagent) });
    expect(await agentSelect.inputValue()).toBe('');
    await expect.poll(() => textOf(games(page))).toBe('15');
    await userSelect.selectOption({ label: label(direct) });
    await expect.poll(() => textOf(games(page))).toBe('1');
    await expect.poll(() => textOf(commission(page))).toBe('$150.00');
    expect(await rows(page).first().locator('[data-column="parent"]').textContent()).toContain(superagent.fullName);
    await userSelect.selectOption({ label: 'All Users' });
    await expect.poll(() => textOf(games(page))).toBe('15');

    // Dates: every game is from today; tomorrow onwards has none, today through today has all.
    await page.getByLabel('Start Date').fill(day(1));
    await expect.poll(() => textOf(games(page))).toBe('0');
    await expect.poll(() => textOf(commission(page))).toBe('$0.00');
    expect(await visible(page.getByText('No games match the selected filters.'))).toBe(true);
    await page.getByLabel('Start Date').fill(day(0));
    await page.getByLabel('End Date').fill(day(0));
    await expect.poll(() => textOf(games(page))).toBe('15');
    await page.getByLabel('Start Date').fill('');
    await page.getByLabel('End Date').fill(day(-1));
    await expect.poll(() => textOf(games(page))).toBe('0');

    // Reset All Filters: every control cleared, everyone's games again.
    await page.getByRole('button', { name: 'Reset All Filters' }).click();
    expect(await superSelect.inputValue()).toBe('');
    expect(await page.getByLabel('End Date').inputValue()).toBe('');
    await expect.poll(async () => Number(await textOf(games(page)))).toBeGreaterThanOrEqual(23);
    const everyone = Number(await textOf(games(page)));
    expect(await showing(page, `Showing 1 to 10 of ${everyone} entries`)).toBe(true);
    expect(await page.getByRole('button', { name: 'Reset All Filters' }).isDisabled()).toBe(true);
  }, 120_000);

  it('fits a phone screen', async () => {
    const page = await openPage(browser(), PHONE);
    await signIn(page, DEMO.admin);
    await page.goto('/admin/sales-history');
    await visible(rows(page));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});
