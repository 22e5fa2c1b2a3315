import { describe, expect, it } from 'vitest';
import { apiAs, DEMO, freshUser, login, openPage, PHONE, signIn, textOf, useBrowser, visible } from './support.ts';

/** The audit trail screen (decision 029): the admin's filters, and an agent seeing its own hierarchy only. */

const browser = useBrowser();
const tag = `au${Date.now().toString(36)}`;

describe('audit trail', () => {
  it('the admin filters by actor, target, action and days; an agent sees only its hierarchy', async () => {
    const superagent = await freshUser('superagent', { fullName: `Audit Super ${tag}` });
    const agent = await freshUser('agent', { parentId: superagent.id, fullName: `Audit Agent ${tag}` });
    const shop = await freshUser('user', { parentId: agent.id, fullName: `Audit Shop ${tag}` });
    await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: agent.id, amount: '25.00' } });
    await apiAs(login(agent), '/api/balance/transfer', { body: { receiverId: shop.id, amount: '5.00' } });
    // A shop in no branch of this agent's sends money to its shop (decision 048: masked to the agent).
    const outsider = await freshUser('user', { fullName: `Outside Shop ${tag}` });
    await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: outsider.id, amount: '3.00' } });
    await apiAs(login(outsider), '/api/balance/transfer', { body: { receiverId: shop.id, amount: '1.00' } });

    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    await page.goto('/admin/audit');
    expect(await visible(page.getByRole('heading', { name: 'Audit Trail' }))).toBe(true);
    await visible(page.getByTestId('audit-row'));

    // Actor: the agent's username; action: Transfer → the one transfer, to the shop.
    await page.getByLabel('Actor', { exact: true }).fill(agent.username);
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Transfer' });
    await expect.poll(() => textOf(page.getByTestId('audit-total'))).toBe('1 entry');
    const row = page.getByTestId('audit-row');
    expect(await textOf(row.getByTestId('audit-target'))).toBe(shop.username);
    expect(await textOf(row)).toContain('amount: 5.00');

    // Target instead: the admin's top-up of the agent.
    await page.getByLabel('Actor', { exact: true }).fill('');
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Top-up' });
    await page.getByLabel('Target', { exact: true }).fill(agent.username);
    // The total said '1 entry' for the filter before too: wait for the row itself to change.
    await expect.poll(() => textOf(row.getByTestId('audit-action'))).toBe('Top-up');
    await expect.poll(() => textOf(page.getByTestId('audit-total'))).toBe('1 entry');
    expect(await textOf(row.getByTestId('audit-actor'))).toBe('admin');
    expect(await textOf(row.getByTestId('audit-target'))).toBe(agent.username);

    // A day range that ended yesterday holds none of it.
    await page.getByLabel('To', { exact: true }).fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 10));
    await expect.poll(() => textOf(page.getByTestId('audit-total'))).toBe('0 entries');
    expect(await visible(page.getByText('No audit entries match these filters'))).toBe(true);

    // From after To: refused at the field, not a list of '0 entries'; the filters are in the address.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('From', { exact: true }).fill(new Date().toISOString().slice(0, 10));
    await visible(page.getByText('From must be on or before To'));
    expect(await page.getByTestId('audit-total').count()).toBe(0);
    await page.reload();
    await visible(page.getByText('From must be on or before To'));
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(yesterday);
    expect(await page.getByLabel('Target', { exact: true }).inputValue()).toBe(agent.username);
    await page.context().close();

    // The agent's screen, on a phone: its own transfer, never the admin's sign-in; whoever acted from
    // outside its hierarchy (the admin, the outside shop) only as a masked name, without an address.
    const phone = await openPage(browser(), PHONE);
    await signIn(phone, login(agent));
    await phone.goto('/agent/audit');
    await visible(phone.getByTestId('audit-row'));
    const actions = async () => (await phone.getByTestId('audit-action').allTextContents()).map((t) => t.trim());
    await expect.poll(actions).toContain('Transfer');
    const shown = phone.locator('[data-testid="audit-actor"]:not([data-masked])');
    const actors = (await shown.allTextContents()).map((t) => t.trim());
    expect(actors.every((a) => a === agent.username || a === shop.username || a === '—')).toBe(true);
    const masked = phone
      .getByTestId('audit-row')
      .filter({ has: phone.locator('[data-masked="true"]', { hasText: 'O*** S***' }) });
    expect(await textOf(masked.getByTestId('audit-target'))).toBe(shop.username);
    expect(await textOf(masked)).not.toContain(outsider.username);
    await phone.getByLabel('Actor', { exact: true }).fill('admin');
    await phone.getByLabel('Action', { exact: true }).selectOption({ label: 'Signed in' });
    await expect.poll(() => textOf(phone.getByTestId('audit-total'))).toBe('0 entries');
    await phone.context().close();
  });
});
