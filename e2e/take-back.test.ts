import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  apiAs,
  DEMO,
  freshUser,
  hidden,
  login,
  openPage,
  PHONE,
  signIn,
  textOf,
  useBrowser,
  visible,
} from './support.ts';

/** docs/product/money.md#take-back: an agent takes money back from a user through its users list. */

const browser = useBrowser();
const tag = `tb${Date.now().toString(36)}`;
const SHOTS = process.env.E2E_SCREENSHOTS;

describe('take back', () => {
  it('asks amount and reason, refuses more than the balance, confirms, and moves the money', async () => {
    const agent = await freshUser('agent', {
      parentId: (await freshUser('superagent')).id,
      fullName: `Tara Agent ${tag}`,
    });
    const shop = await freshUser('user', { parentId: agent.id, fullName: `Sol Shop ${tag}` });
    await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: shop.id, amount: '50.00' } });

    for (const viewport of SHOTS ? [PHONE] : []) {
      // The phone layout of the list with its four actions, for a person to look at.
      const phone = await openPage(browser(), viewport);
      await signIn(phone, agent);
      await phone.goto('/agent/users');
      await visible(phone.getByTestId('user-row').filter({ hasText: shop.fullName }));
      mkdirSync(SHOTS as string, { recursive: true });
      await phone.screenshot({ path: `${SHOTS}/take-back-list-phone.png`, fullPage: true });
      await phone.getByRole('button', { name: 'Take Back' }).click();
      await visible(phone.getByRole('dialog', { name: 'Take Back Funds' }));
      await phone.screenshot({ path: `${SHOTS}/take-back-dialog-phone.png` });
      await phone.context().close();
      // The admin's list, with its Parent column and four actions, at desktop width.
      const wide = await openPage(browser());
      await signIn(wide, DEMO.admin);
      await wide.goto('/admin/users');
      await visible(wide.getByTestId('user-row'));
      await wide.screenshot({ path: `${SHOTS}/take-back-admin-users-desktop.png` });
      await wide.context().close();
    }

    const page = await openPage(browser());
    await signIn(page, agent);
    await page.goto('/agent/users');
    const row = page.getByTestId('user-row').filter({ hasText: shop.fullName });
    await expect.poll(() => textOf(row.getByTestId('user-balance'))).toBe('$50.00');

    await row.getByRole('button', { name: 'Take Back' }).click();
    const dialog = page.getByRole('dialog', { name: 'Take Back Funds' });
    expect(await visible(dialog.getByTestId('take-back-current-balance').filter({ hasText: '$50.00' }))).toBe(true);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await visible(dialog.getByText('Please enter a valid amount greater than 0', { exact: true }))).toBe(true);
    expect(await visible(dialog.getByText('A reason is required', { exact: true }))).toBe(true);

    await dialog.getByLabel('Amount').fill('50.01');
    await dialog.getByLabel('Reason').fill('Shop closed for the season');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    expect(await visible(dialog.getByText('You cannot take back more than the balance', { exact: true }))).toBe(true);

    await dialog.getByLabel('Amount').fill('20');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const question = dialog.getByTestId('take-back-question');
    await expect.poll(() => textOf(question)).toBe(`Take back $20.00 from ${shop.fullName}? It moves to your balance.`);
    expect(await visible(dialog.getByText('Reason: Shop closed for the season', { exact: true }))).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/take-back-confirm-desktop.png` });
    await dialog.getByRole('button', { name: 'Take Back' }).click();
    expect(await visible(page.getByText(`Funds successfully taken back from ${shop.fullName}`, { exact: true }))).toBe(
      true,
    );
    expect(await hidden(dialog)).toBe(true);
    await expect.poll(() => textOf(row.getByTestId('user-balance'))).toBe('$30.00');
    const own = await apiAs<{ amount: string }>(login(agent), '/api/balance');
    expect(own.amount).toBe('20.00');
    await page.context().close();
  });
});
