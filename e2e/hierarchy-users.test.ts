import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiAs, DEMO, freshUser, hidden, openPage, signIn, useBrowser, visible } from './support.ts';

/** docs/product/screens.md: the super agent's and the agent's dashboards, agents and users. */

const browser = useBrowser();

/** Makes names unique to this run, so a search finds only this file's people. */
const tag = `hu${Date.now().toString(36)}`;

const rows = (page: Page) => page.getByTestId('user-row');
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });

/** Transfers from a row's Transfer action through the shared Transfer Funds dialog. */
async function transferFromRow(page: Page, fullName: string, amount: string) {
  await row(page, fullName).getByRole('button', { name: 'Transfer' }).click();
  const modal = page.getByRole('dialog', { name: 'Transfer Funds' });
  expect(await visible(modal.getByTestId('selected-receiver').filter({ hasText: fullName }))).toBe(true);
  await visible(modal.getByTestId('available-balance').filter({ hasText: '$' }));
  await modal.getByLabel('Amount').fill(amount);
  await modal.getByRole('button', { name: 'Send Funds' }).click();
  expect(await visible(page.getByText(`Funds successfully transferred to ${fullName}`, { exact: true }))).toBe(true);
  expect(await hidden(modal)).toBe(true);
}

describe('super agent screens', () => {
  it('the dashboard shows the cards, and a transfer to an agent moves both balances', async () => {
    // A super agent of this file's own, so its balance is not touched by other test files.
    const boss = await freshUser('superagent', { fullName: `Hera Boss ${tag}` });
    await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: boss.id, amount: '100.00' } });
    const agent = await freshUser('agent', { parentId: boss.id, fullName: `Hank Agent ${tag}` });
    await freshUser('user', { parentId: agent.id });
    await freshUser('user', { parentId: boss.id });

    const page = await openPage(browser());
    await signIn(page, boss);
    expect(await visible(page.getByTestId('stat-balance').filter({ hasText: '$100.00' }))).toBe(true);
    expect(await visible(page.getByTestId('stat-agents').filter({ hasText: /Agents\s*1(?!\d)/ }))).toBe(true);
    expect(await visible(page.getByTestId('stat-direct-users').filter({ hasText: /Direct Users\s*1(?!\d)/ }))).toBe(
      true,
    );
    expect(await visible(page.getByTestId('stat-total-users').filter({ hasText: /Total Users\s*2(?!\d)/ }))).toBe(true);
    for (const [name, href] of [
      ['Manage Agents', '/superagent/agents'],
      ['Manage Users', '/superagent/users'],
      ['View Transactions', '/transactions'],
      ['Go to Profile', '/profile'],
    ] as const) {
      expect(await page.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
    }

    await page.getByRole('link', { name: 'Manage Agents', exact: true }).click();
    await page.waitForURL(/\/superagent\/agents$/);
    expect(await visible(row(page, agent.fullName))).toBe(true);
    expect(await row(page, agent.fullName).getByTestId('user-balance').textContent()).toBe('$0.00');
    await transferFromRow(page, agent.fullName, '30.25');
    expect(await visible(row(page, agent.fullName).getByTestId('user-balance').filter({ hasText: '$30.25' }))).toBe(
      true,
    );

    await page.goto('/superagent/dashboard');
    expect(await visible(page.getByTestId('stat-balance').filter({ hasText: '$69.75' }))).toBe(true);
    expect(await visible(page.getByText(agent.username).first())).toBe(true);
  });

  it('adds, edits and deletes an agent with the super agent rules', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.superagent);
    await page.goto('/superagent/agents');
    await page.getByRole('button', { name: 'Add Agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Agent' });
    expect(await dialog.getByLabel('Parent').count()).toBe(0);
    await dialog.getByLabel('Username').fill('ab');
    await dialog.getByRole('button', { name: 'Create Agent' }).click();
    expect(await visible(dialog.getByText('Username must be at least 3 characters', { exact: true }))).toBe(true);
    const name = `Agatha Agent ${tag}`;
    await dialog.getByLabel('Username').fill(`ag_${tag}`);
    await dialog.getByLabel('Password', { exact: true }).fill('secret123');
    await dialog.getByLabel('Full Name').fill(name);
    await dialog.getByRole('button', { name: 'Create Agent' }).click();
    expect(await hidden(dialog)).toBe(true);
    await page.getByLabel('Search agents').fill(tag);
    expect(await visible(row(page, name))).toBe(true);

    await row(page, name).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Agent' });
    await edit.getByLabel('Full Name').fill(`${name} Jr`);
    await edit.getByRole('button', { name: 'Update Agent' }).click();
    expect(await hidden(edit)).toBe(true);
    expect(await visible(row(page, `${name} Jr`))).toBe(true);

    await row(page, name).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Delete' });
    expect(await visible(confirm.getByText(`Are you sure you want to delete ${name} Jr?`, { exact: true }))).toBe(true);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    expect(await hidden(row(page, name))).toBe(true);
  });

  it('Users Management: every form message, a user created under agent1, the filter toggle', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.superagent);
    await page.goto('/superagent/users');
    expect(await visible(page.getByRole('heading', { name: 'Users Management' }))).toBe(true);

    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    expect(await dialog.getByLabel('Status').count()).toBe(0);
    const parent = dialog.getByLabel('Parent');
    expect(await visible(parent)).toBe(true);
    const options = await parent.locator('option').allTextContents();
    expect(options.slice(0, 2)).toEqual(['Select Parent', 'Me (Super Agent)']);
    expect(options).toContain('Alice Agent (Agent)');
    expect(options).toContain('Bob Agent (Agent)');

    const create = dialog.getByRole('button', { name: 'Create User' });
    await create.click();
    for (const message of [
      'Username is required',
      'Password is required',
      'Full Name is required',
      'Parent is required',
    ]) {
      expect(await visible(dialog.getByText(message, { exact: true }))).toBe(true);
    }
    await dialog.getByLabel('Username').fill('ab');
    await dialog.getByLabel('Password', { exact: true }).fill('12345');
    await dialog.getByLabel('Full Name').fill('A');
    await create.click();
    for (const message of [
      'Username must be at least 3 characters',
      'Password must be at least 6 characters',
      'Full Name must be at least 2 characters',
    ]) {
      expect(await visible(dialog.getByText(message, { exact: true }))).toBe(true);
    }
    await dialog.getByLabel('Username').fill('bad name!');
    await create.click();
    expect(
      await visible(dialog.getByText('Username can only contain letters, numbers, and underscores', { exact: true })),
    ).toBe(true);

    // The server's refusal of a taken username, mapped (docs/product/validation-and-errors.md).
    await dialog.getByLabel('Username').fill('user1');
    await dialog.getByLabel('Password', { exact: true }).fill('secret123');
    await dialog.getByLabel('Full Name').fill('Someone Else');
    await parent.selectOption({ label: 'Alice Agent (Agent)' });
    await create.click();
    expect(
      await visible(dialog.getByText('This username is already taken. Please choose another one.', { exact: true })),
    ).toBe(true);

    const name = `Ursula Under ${tag}`;
    await dialog.getByLabel('Username').fill(`uu_${tag}`);
    await dialog.getByLabel('Full Name').fill(name);
    await dialog.getByLabel('Shop Name (Optional)').fill('Kiosk 9');
    await create.click();
    expect(await hidden(dialog)).toBe(true);

    await page.getByLabel('Search users').fill(tag);
    expect(await visible(row(page, name).getByText('Alice Agent'))).toBe(true);
    // Under an agent: listed in Agent Users, not in My Users.
    await page.getByRole('button', { name: 'My Users' }).click();
    expect(await visible(page.getByText('No users found', { exact: true }))).toBe(true);
    await page.getByRole('button', { name: 'Agent Users' }).click();
    expect(await visible(row(page, name))).toBe(true);

    // The agent sees it too, under the agent's own API scope.
    const agentView = await apiAs<{ username: string }[]>(DEMO.agent, '/api/users/role/user?limit=1000');
    expect(agentView.map((user) => user.username)).toContain(`uu_${tag}`);

    // Edit: the password label, Status, Update User.
    await row(page, name).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    expect(await visible(edit.getByLabel('New Password (leave blank to keep current)'))).toBe(true);
    expect(await edit.getByLabel('Parent').inputValue()).not.toBe('');
    await edit.getByLabel('Status').selectOption('inactive');
    await edit.getByRole('button', { name: 'Update User' }).click();
    expect(await hidden(edit)).toBe(true);
    expect(await visible(row(page, name).getByTestId('user-status').filter({ hasText: 'inactive' }))).toBe(true);
  });
});

describe('agent screens', () => {
  it('the dashboard, then a user created without a parent field, a transfer to it, and only direct users', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.agent);
    expect(await visible(page.getByText(/Welcome back, Alice Agent/))).toBe(true);
    for (const card of ['stat-balance', 'stat-users', 'stat-active-users', 'stat-users-balance']) {
      expect(await visible(page.getByTestId(card).filter({ hasText: /\d/ }))).toBe(true);
    }
    for (const [name, href] of [
      ['Go to Users', '/agent/users'],
      ['Go to Transfers', '/transactions'],
      ['View Transactions', '/transactions'],
      ['Go to Profile', '/profile'],
    ] as const) {
      expect(await page.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
    }

    await page.getByRole('link', { name: 'Go to Users', exact: true }).click();
    await page.waitForURL(/\/agent\/users$/);
    expect(await visible(row(page, 'Uma User'))).toBe(true);
    // agent2's users (user4, user5) are never shown to agent1.
    expect(await page.getByText('Xavier Xu').count()).toBe(0);
    expect(await page.getByText('Yara Young').count()).toBe(0);
    await page.getByLabel('Search users').fill('user4');
    expect(await visible(page.getByText('No users found', { exact: true }))).toBe(true);

    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    expect(await dialog.getByLabel('Parent').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Create User' }).click();
    for (const message of ['Username is required', 'Password is required', 'Full Name is required']) {
      expect(await visible(dialog.getByText(message, { exact: true }))).toBe(true);
    }
    // No length checks on the client: the server's own message is shown.
    await dialog.getByLabel('Username').fill(`ab_${tag}`);
    await dialog.getByLabel('Password', { exact: true }).fill('123');
    await dialog.getByLabel('Full Name').fill('Short Pass');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    expect(await visible(dialog.getByText('Password must be at least 6 characters', { exact: true }))).toBe(true);

    const name = `Ned Newcomer ${tag}`;
    await dialog.getByLabel('Username').fill(`nn_${tag}`);
    await dialog.getByLabel('Password', { exact: true }).fill('secret123');
    await dialog.getByLabel('Full Name').fill(name);
    await dialog.getByRole('button', { name: 'Create User' }).click();
    expect(await hidden(dialog)).toBe(true);

    await page.getByLabel('Search users').fill(tag);
    expect(await visible(row(page, name))).toBe(true);
    await transferFromRow(page, name, '1.25');
    expect(await visible(row(page, name).getByTestId('user-balance').filter({ hasText: '$1.25' }))).toBe(true);

    // The new user's parent is the agent.
    const [agent1] = await apiAs<{ id: number }[]>(DEMO.superagent, '/api/users/role/agent?search=agent1');
    const created = await apiAs<{ parentId: number }[]>(DEMO.agent, `/api/users/role/user?search=nn_${tag}`);
    expect(created.map((user) => user.parentId)).toEqual([agent1?.id]);
  });
});
