import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiAs, baseUrl, DEMO, freshUser, hidden, openPage, PHONE, signIn, useBrowser, visible } from './support.ts';
import type { Activity } from '@lot/domain/schemas/reports';

/** docs/product/screens.md: the admin dashboard and the Users, Super Agents and Agents screens. */

const browser = useBrowser();

/** Makes names unique to this run, so a search finds only this file's people. */
const tag = `au${Date.now().toString(36)}`;

const rows = (page: Page) => page.getByTestId('user-row');
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });

/** Opens an admin list and narrows it to this run's people. */
async function openList(page: Page, path: string, search: string, searchLabel: string) {
  await page.goto(path);
  await page.getByLabel(searchLabel).fill(search);
}

async function canSignIn(username: string, password: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return response.status;
}

/** A list's headers as the admin sees them (the dashboard reads its numbers from them). */
async function adminHeaders(path: string): Promise<Headers> {
  const signin = await fetch(`${baseUrl()}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO.admin),
  });
  const { accessToken } = (await signin.json()) as { accessToken: string };
  const response = await fetch(`${baseUrl()}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
  return response.headers;
}

const dollars = (amount: string) =>
  `$${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('admin users, super agents and agents', () => {
  it('creates a super agent, an agent under it and a user under the agent; edits, refuses and deletes, tops up', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);

    // A super agent.
    const superName = `Saffron Super ${tag}`;
    const superUser = `sa_${tag}`;
    await openList(page, '/admin/superagents', tag, 'Search super agents');
    expect(await visible(page.getByText('No users found', { exact: true }))).toBe(true);
    await page.getByRole('button', { name: 'Add New Super Agent' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add New Super Agent' });
    expect(await visible(dialog)).toBe(true);
    // Status is offered only on edit.
    expect(await dialog.getByLabel('Status').count()).toBe(0);
    await dialog.getByLabel('Username').fill(superUser);
    await dialog.getByLabel('Password', { exact: true }).fill('secret123');
    await dialog.getByLabel('Full Name').fill(superName);
    await dialog.getByRole('button', { name: 'Create Super Agent' }).click();
    expect(await hidden(dialog)).toBe(true);
    expect(await visible(row(page, superName))).toBe(true);
    expect(await row(page, superName).getByText(`@${superUser}`).isVisible()).toBe(true);

    // An agent: every admin form message first, then the real one under the super agent.
    const agentName = `Saffron Agent ${tag}`;
    const agentUser = `ag_${tag}`;
    await openList(page, '/admin/agents', tag, 'Search agents');
    await page.getByRole('button', { name: 'Add New Agent' }).click();
    dialog = page.getByRole('dialog', { name: 'Add New Agent' });
    await dialog.getByRole('button', { name: 'Create Agent' }).click();
    for (const message of ['Username is required', 'Password is required', 'Full Name is required']) {
      expect(await visible(dialog.getByText(message, { exact: true }))).toBe(true);
    }
    expect(await visible(dialog.getByText('Super Agent is required', { exact: true }))).toBe(true);
    await dialog.getByLabel('Username').fill(agentUser);
    await dialog.getByLabel('Password', { exact: true }).fill('secret123');
    await dialog.getByLabel('Full Name').fill(agentName);
    await dialog.getByLabel('Shop Name (Optional)').fill('Saffron Kiosk');
    await dialog.getByLabel('Super Agent').selectOption({ label: `${superName} (${superUser})` });
    await dialog.getByRole('button', { name: 'Create Agent' }).click();
    expect(await hidden(dialog)).toBe(true);
    const agentRow = row(page, agentName);
    expect(await visible(agentRow)).toBe(true);
    expect(await agentRow.getByText('Saffron Kiosk').isVisible()).toBe(true);
    expect(await agentRow.getByText(superName).isVisible()).toBe(true);

    // A user under the agent; a taken username is mapped onto the username field first.
    const userName = `Saffron User ${tag}`;
    const userUser = `us_${tag}`;
    await openList(page, '/admin/users', tag, 'Search users');
    await page.getByRole('button', { name: 'Add New User' }).click();
    dialog = page.getByRole('dialog', { name: 'Add New User' });
    await dialog.getByLabel('Username').fill(agentUser);
    await dialog.getByLabel('Password', { exact: true }).fill('secret123');
    await dialog.getByLabel('Full Name').fill(userName);
    await dialog.getByLabel('Parent (Optional)').selectOption({ label: `${agentName} (Agent)` });
    await dialog.getByRole('button', { name: 'Create User' }).click();
    expect(
      await visible(dialog.getByText('This username is already taken. Please choose another one.', { exact: true })),
    ).toBe(true);
    expect(
      await visible(dialog.getByText('Username already exists. Please choose a different username.', { exact: true })),
    ).toBe(true);
    await dialog.getByLabel('Username').fill(userUser);
    await dialog.getByRole('button', { name: 'Create User' }).click();
    expect(await hidden(dialog)).toBe(true);
    const userRow = row(page, userUser);
    expect(await visible(userRow)).toBe(true);
    expect(await userRow.getByText(agentName).isVisible()).toBe(true);
    expect(await userRow.getByTestId('user-balance').textContent()).toBe('$0.00');
    const created = await apiAs<{ id: number; role: string; parentId: number | null }[]>(
      DEMO.admin,
      `/api/users/role/user?search=${userUser}`,
    );
    expect(created).toHaveLength(1);

    // Edit: the username is locked; a blank password keeps the old one.
    await userRow.getByRole('button', { name: 'Edit' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit User' });
    expect(await visible(dialog)).toBe(true);
    expect(await dialog.getByLabel('Username').isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Username').inputValue()).toBe(userUser);
    expect(await dialog.getByLabel('New Password (leave blank to keep current)').inputValue()).toBe('');
    await dialog.getByLabel('Full Name').fill(`${userName} Renamed`);
    await dialog.getByLabel('Status').selectOption('inactive');
    await dialog.getByRole('button', { name: 'Update User' }).click();
    expect(await hidden(dialog)).toBe(true);
    expect(await visible(row(page, `${userName} Renamed`))).toBe(true);
    expect(await row(page, userUser).getByTestId('user-status').textContent()).toBe('inactive');
    // Back to active, so the old password can be proven by signing in.
    await row(page, userUser).getByRole('button', { name: 'Edit' }).click();
    await dialog.getByLabel('Status').selectOption('active');
    await dialog.getByRole('button', { name: 'Update User' }).click();
    expect(await hidden(dialog)).toBe(true);
    expect(await canSignIn(userUser, 'secret123')).toBe(200);

    // Top up: the amount rule, then the money shows in the list.
    await row(page, userUser).getByRole('button', { name: 'Top Up' }).click();
    dialog = page.getByRole('dialog', { name: 'Top Up Balance' });
    await dialog.getByRole('button', { name: 'Top Up' }).click();
    expect(await visible(dialog.getByText('Please enter a valid amount greater than 0', { exact: true }))).toBe(true);
    await dialog.getByLabel('Amount').fill('25.50');
    await dialog.getByRole('button', { name: 'Top Up' }).click();
    expect(await visible(page.getByText(`Funds successfully topped up to ${userName} Renamed`, { exact: true }))).toBe(
      true,
    );
    expect(await hidden(dialog)).toBe(true);
    expect(await visible(row(page, userUser).getByTestId('user-balance').filter({ hasText: '$25.50' }))).toBe(true);

    // A refused delete: the agent still has a user; the server's words are shown, the row stays.
    await openList(page, '/admin/agents', tag, 'Search agents');
    await row(page, agentName).getByRole('button', { name: 'Delete' }).click();
    dialog = page.getByRole('dialog', { name: 'Confirm Delete' });
    expect(await visible(dialog.getByText(`Are you sure you want to delete ${agentName}?`, { exact: true }))).toBe(
      true,
    );
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const refusal = `Cannot delete ${agentName}: they still have agents or users under them.`;
    expect(await visible(dialog.getByText(refusal, { exact: true }))).toBe(true);
    expect(await visible(page.getByRole('alert').filter({ hasText: refusal }))).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row(page, agentName).count()).toBe(1);

    // A successful delete: confirmed, the row goes.
    const doomed = await freshUser('user', { fullName: `Saffron Doomed ${tag}` });
    await openList(page, '/admin/users', tag, 'Search users');
    expect(await visible(row(page, doomed.fullName))).toBe(true);
    await row(page, doomed.fullName).getByRole('button', { name: 'Delete' }).click();
    expect(
      await visible(dialog.getByText(`Are you sure you want to delete ${doomed.fullName}?`, { exact: true })),
    ).toBe(true);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    expect(await hidden(dialog)).toBe(true);
    expect(await hidden(row(page, doomed.fullName))).toBe(true);
    expect(await row(page, userUser).count()).toBe(1);
    expect(await canSignIn(doomed.username, doomed.password)).not.toBe(200);
  });

  it('the search is server-side and starts again at page 1; a phone shows the rows as cards that fit', async () => {
    const parent = await freshUser('superagent', { fullName: `Paging Super ${tag}` });
    for (let i = 1; i <= 11; i++) await freshUser('agent', { parentId: parent.id, fullName: `Pager ${tag} ${i}` });
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    await openList(page, '/admin/agents', `Pager ${tag}`, 'Search agents');
    expect(await visible(page.getByText('Showing 1 to 10 of 11 entries'))).toBe(true);
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: '2', exact: true }).click();
    expect(await visible(page.getByText('Showing 11 to 11 of 11 entries'))).toBe(true);
    await page.getByLabel('Search agents').fill(`Pager ${tag} 1`);
    // "1", "10", "11": a new search lands on page 1.
    expect(await visible(page.getByText('Showing 1 to 3 of 3 entries'))).toBe(true);

    const phone = await openPage(browser(), PHONE);
    await signIn(phone, DEMO.admin);
    await openList(phone, '/admin/agents', `Pager ${tag}`, 'Search agents');
    const first = rows(phone).first();
    expect(await visible(first.getByRole('button', { name: 'Top Up' }))).toBe(true);
    const box = await first.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });
});

describe('admin dashboard', () => {
  it('shows the counts with their changes, the top-ups and the voided or server-randomness games the API reports, the 5 latest transactions and the chart', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    // Other test files create people and move money at the same time: compare a consistent pair.
    let matched = false;
    for (let attempt = 0; attempt < 5 && !matched; attempt++) {
      const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      const [users, superagents, agents, activity] = await Promise.all([
        adminHeaders('/api/users/role/user?limit=1'),
        adminHeaders('/api/users/role/superagent?limit=1'),
        adminHeaders('/api/users/role/agent?limit=1'),
        apiAs<Activity>(DEMO.admin, `/api/reports/activity?days=30&tz=${encodeURIComponent(tz)}`),
      ]);
      const count = (headers: Headers) => Number(headers.get('x-total-count')).toLocaleString('en-US');
      const flagged = activity.flaggedGames;
      // The accounts created in the last 30 days and the 30 before (docs/product/screens.md#admin-dashboard).
      const change = ({ current, previous }: { current: number; previous: number }) =>
        `${current > 0 ? `+${current.toLocaleString('en-US')}` : 'No one new'} in the last 30 days · ${previous > 0 ? `+${previous.toLocaleString('en-US')}` : 'none'} the 30 before`;
      const expected = {
        'stat-users': `Total Users${count(users)}${change(activity.newAccounts.user)}`,
        'stat-superagents': `Super Agents${count(superagents)}${change(activity.newAccounts.superagent)}`,
        'stat-agents': `Agents${count(agents)}${change(activity.newAccounts.agent)}`,
        'stat-volume': `Transaction Volume${dollars(activity.topUps.current)}Top-ups in the last 30 days: money that entered the system, counted once.`,
        // Voided games and LOT-DRAW-1 games opened in the last 30 days, counted alike (reports.md#activity).
        'stat-voided-games': `Voided or server-randomness games${(flagged.voided + flagged.serverRandomness).toLocaleString('en-US')}${flagged.voided.toLocaleString('en-US')} voided${flagged.voidedAfterWinner > 0 ? ` (${flagged.voidedAfterWinner.toLocaleString('en-US')} voided after a winner)` : ''} · ${flagged.serverRandomness.toLocaleString('en-US')} LOT-DRAW-1 (server randomness only), last 30 daysView voided games · LOT-DRAW-1 per shop`,
      };
      await page.goto('/admin/dashboard');
      await page.getByTestId('stat-volume').getByTestId('change').waitFor();
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('[data-testid^="stat-"]')).every(
          (card) => !card.textContent?.includes('…'),
        ),
      );
      const shown = await Promise.all(
        Object.entries(expected).map(async ([id, text]) => {
          const card = (await page.getByTestId(id).textContent())?.trim() ?? '';
          // The volume's change against the 30 days before follows its sentence.
          return id === 'stat-volume' ? card.slice(0, text.length) : card;
        }),
      );
      matched = shown.every((text, index) => text === Object.values(expected)[index]);
      if (attempt === 4) expect(shown).toEqual(Object.values(expected));
    }
    expect(matched).toBe(true);
    // The latest transactions are a query of their own: they may come after the figures.
    await expect.poll(() => page.getByTestId('transaction-row').count()).toBe(5);
    await page.getByTestId('activity-chart').waitFor();
  });
});
