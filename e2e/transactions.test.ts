import { mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiAs,
  DEMO,
  freshUser,
  hidden,
  openPage,
  PHONE,
  player,
  signIn,
  textOf,
  useBrowser,
  visible,
} from './support.ts';

const browser = useBrowser();

/** Makes full names unique to this run, so a search finds only this file's people. */
const tag = `t${Date.now().toString(36)}`;

type Account = Awaited<ReturnType<typeof freshUser>>;
type Tx = { id: number; type: string; userId: number; receiverId: number | null; amount: string };

const topup = (userId: number, amount: string) => apiAs(DEMO.admin, '/api/balance/topup', { body: { userId, amount } });

/** Sign-in takes exactly a username and a password. */
const login = ({ username, password }: Account) => ({ username, password });

const sendAs = (from: Account, receiverId: number, amount: string) =>
  apiAs(login(from), '/api/balance/transfer', { body: { receiverId, amount } });

/** A super agent, an agent under it (with a balance) and users under the agent: data this file owns. */
async function team(name: string, users: string[], agentBalance?: string) {
  const superagent = await freshUser('superagent', { fullName: `${name} Super ${tag}` });
  const agent = await freshUser('agent', { parentId: superagent.id, fullName: `${name} Agentson ${tag}` });
  const members: Account[] = [];
  for (const fullName of users) {
    members.push(await freshUser('user', { parentId: agent.id, fullName: `${fullName} ${tag}` }));
  }
  if (agentBalance) await topup(agent.id, agentBalance);
  return { superagent, agent, users: members };
}

async function openTransactions(page: Page, login: Account | { username: string; password: string }, path = '') {
  await signIn(page, login);
  await page.goto(path || '/transactions');
  await visible(page.getByRole('heading', { name: /Transaction History|All Transactions/ }));
}

const rows = (page: Page) => page.getByTestId('transaction-row');
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Transfer Funds' });

async function openTransfer(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Transfer Funds' }).click();
  await visible(dialog(page));
  // The balance the form checks against has loaded.
  await visible(dialog(page).getByTestId('available-balance').filter({ hasText: '$' }));
  return dialog(page);
}

async function chooseReceiver(modal: Locator, search: string, fullName: string) {
  await modal.getByLabel('Receiver').fill(search);
  await modal.getByRole('button', { name: new RegExp(fullName) }).click();
  await visible(modal.getByTestId('selected-receiver').filter({ hasText: fullName }));
}

describe('transactions screen', () => {
  it('a transfer through the modal moves money: balance and table update, the receiver sees it as Received', async () => {
    const { agent, users } = await team('Marigold', ['Marigold Quillfeather', 'Marigold Bramble'], '100');
    const [alice, bob] = users as [Account, Account];
    const page = await openPage(browser());
    await openTransactions(page, agent);
    expect(await visible(page.getByTestId('balance').filter({ hasText: '$100.00' }))).toBe(true);

    const modal = await openTransfer(page);
    await chooseReceiver(modal, `QUILLFEATHER ${tag}`, alice.fullName);
    await modal.getByLabel('Amount').fill('25.50');
    await modal.getByRole('button', { name: 'Send Funds' }).click();

    expect(await visible(page.getByText(`Funds successfully transferred to ${alice.fullName}`, { exact: true }))).toBe(
      true,
    );
    expect(await hidden(dialog(page))).toBe(true);
    expect(await visible(page.getByTestId('balance').filter({ hasText: '$74.50' }))).toBe(true);
    const sent = rows(page).filter({ hasText: alice.username });
    expect(await visible(sent)).toBe(true);
    expect(await sent.first().getByText('Transfer', { exact: true }).isVisible()).toBe(true);
    expect(await sent.first().getByTestId('transaction-amount').textContent()).toBe('-$25.50');
    expect(await sent.first().getByText('Completed', { exact: true }).isVisible()).toBe(true);
    expect(await rows(page).filter({ hasText: bob.username }).count()).toBe(0);

    const receiverPage = await openPage(browser());
    await openTransactions(receiverPage, alice);
    expect(await visible(receiverPage.getByTestId('balance').filter({ hasText: '$25.50' }))).toBe(true);
    const received = rows(receiverPage).filter({ hasText: agent.username });
    expect(await visible(received)).toBe(true);
    expect(await received.first().getByText('Received', { exact: true }).isVisible()).toBe(true);
    expect(await received.first().getByTestId('transaction-amount').textContent()).toBe('+$25.50');
  });

  it('the receiver search matches part of a full name in any case and offers neither inactive users nor me', async () => {
    const { agent, users } = await team('Juniper', ['Juniper Quillon', 'Juniper Bracken', 'Juniper Dormant'], '10');
    const [quillon, bracken, dormant] = users as [Account, Account, Account];
    await apiAs(DEMO.admin, `/api/users/${dormant.id}`, { method: 'PUT', body: { status: 'inactive' } });

    const page = await openPage(browser());
    await openTransactions(page, agent);
    const modal = await openTransfer(page);
    const receiver = modal.getByLabel('Receiver');
    const matches = modal.getByRole('list', { name: 'Matching users' }).getByRole('button');

    // Everyone of this run's group that carries the tag: the two active users, not the inactive
    // one, and not the agent itself (whose own scope the server answers with).
    await receiver.fill(tag.toUpperCase());
    await expect.poll(() => matches.count()).toBe(2);
    expect(await matches.filter({ hasText: quillon.fullName }).count()).toBe(1);
    expect(await matches.filter({ hasText: bracken.fullName }).count()).toBe(1);

    await receiver.fill(`qUILLON ${tag}`);
    await expect.poll(() => matches.count()).toBe(1);
    expect(await matches.first().textContent()).toContain(quillon.username);

    await receiver.fill(`juniper dormant ${tag}`);
    expect(await visible(modal.getByText('No users found'))).toBe(true);
    await receiver.fill(dormant.username);
    expect(await visible(modal.getByText('No users found'))).toBe(true);

    await receiver.fill(agent.username);
    expect(await visible(modal.getByText('No users found'))).toBe(true);
    await receiver.fill(`Juniper Agentson ${tag}`);
    expect(await visible(modal.getByText('No users found'))).toBe(true);

    // By username too.
    await receiver.fill(bracken.username.toUpperCase());
    await expect.poll(() => matches.count()).toBe(1);
    expect(await matches.first().textContent()).toContain(bracken.fullName);
  });

  it('bad inputs are refused with the documented messages, on the client and from the server', async () => {
    const { agent, users } = await team('Hazel', ['Hazel Receiver'], '50');
    const [receiver] = users as [Account];
    const page = await openPage(browser());
    await openTransactions(page, agent);
    const modal = await openTransfer(page);
    const send = modal.getByRole('button', { name: 'Send Funds' });

    await send.click();
    expect(await visible(modal.getByText('Please select a receiver', { exact: true }))).toBe(true);
    expect(await visible(modal.getByText('Please enter a valid amount greater than 0', { exact: true }))).toBe(true);

    await chooseReceiver(modal, `hazel receiver ${tag}`, receiver.fullName);
    expect(await modal.getByText('Please select a receiver', { exact: true }).count()).toBe(0);
    const amountInvalid = modal.getByText('Please enter a valid amount greater than 0', { exact: true });
    for (const bad of ['0', '-5']) {
      await modal.getByLabel('Amount').fill('5');
      expect(await hidden(amountInvalid)).toBe(true);
      await modal.getByLabel('Amount').fill(bad);
      await send.click();
      expect(await visible(amountInvalid)).toBe(true);
    }
    // A third decimal is named as such, not as "greater than 0".
    await modal.getByLabel('Amount').fill('2.555');
    await send.click();
    expect(await visible(modal.getByText('Amount can have at most two decimals', { exact: true }))).toBe(true);
    expect(await amountInvalid.count()).toBe(0);
    await modal.getByLabel('Amount').fill('50.01');
    await send.click();
    expect(await visible(modal.getByText('Insufficient balance', { exact: true }))).toBe(true);
    expect(await modal.getByLabel('Amount').getAttribute('max')).toBe('50.00');

    // Nothing was sent: the only row is the top-up.
    const listed = await apiAs<Tx[]>(login(agent), '/api/transactions');
    expect(listed.map((t) => t.type)).toEqual(['topup']);

    // The server has the last word: the money leaves elsewhere while the form still shows $50.00.
    await sendAs(agent, receiver.id, '30');
    await modal.getByLabel('Amount').fill('40');
    await send.click();
    expect(await visible(page.getByText('Error: Insufficient balance', { exact: true }))).toBe(true);
    expect(await visible(modal.getByText('Insufficient balance', { exact: true }))).toBe(true);
    expect(await dialog(page).isVisible()).toBe(true);
    const after = await apiAs<{ amount: string }>(login(agent), '/api/balance');
    expect(after.amount).toBe('20.00');
  });

  it('a double click on Send Funds pays once, and the button reads Sending... while busy', async () => {
    const { agent, users } = await team('Rowan', ['Rowan Once'], '10');
    const [receiver] = users as [Account];
    const page = await openPage(browser());
    await openTransactions(page, agent);
    const modal = await openTransfer(page);
    await chooseReceiver(modal, `rowan once ${tag}`, receiver.fullName);
    await modal.getByLabel('Amount').fill('1');
    // Hold the request so the busy state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/balance/transfer', async (route) => {
      await held;
      await route.continue();
    });
    await modal.getByRole('button', { name: 'Send Funds' }).dblclick();
    const busy = modal.getByRole('button', { name: 'Sending...' });
    expect(await visible(busy)).toBe(true);
    expect(await busy.isDisabled()).toBe(true);
    release();
    expect(await visible(page.getByText(`Funds successfully transferred to ${receiver.fullName}`))).toBe(true);

    const listed = await apiAs<Tx[]>(login(agent), '/api/transactions');
    expect(listed.filter((t) => t.type === 'transfer')).toHaveLength(1);
    expect((await apiAs<{ amount: string }>(login(agent), '/api/balance')).amount).toBe('9.00');
  });

  it('pages at 10, filters by type and searches, starting again at page 1 when the filter changes', async () => {
    const { agent, users } = await team('Linden', ['Linden Pager'], '100');
    const [pager] = users as [Account];
    for (let i = 1; i <= 12; i++) await topup(pager.id, `${i}.00`);
    await sendAs(agent, pager.id, '3');
    await sendAs(agent, pager.id, '4');

    const page = await openPage(browser());
    await openTransactions(page, pager);
    expect(await visible(page.getByText('Showing 1 to 10 of 14 entries'))).toBe(true);
    expect(await rows(page).count()).toBe(10);
    // Newest first: the two received transfers lead.
    expect(await rows(page).first().getByTestId('transaction-amount').textContent()).toBe('+$4.00');

    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    await pagination.getByRole('button', { name: '2', exact: true }).click();
    expect(await visible(page.getByText('Showing 11 to 14 of 14 entries'))).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(4);

    // Changing the filter on page 2 lands on page 1 of the new list.
    await page.getByLabel('Transaction type').selectOption('transfer');
    expect(await visible(page.getByText('Showing 1 to 2 of 2 entries'))).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await rows(page).filter({ hasText: 'Received' }).count()).toBe(2);

    await page.getByLabel('Transaction type').selectOption('topup');
    expect(await visible(page.getByText('Showing 1 to 10 of 12 entries'))).toBe(true);
    await expect.poll(() => rows(page).filter({ hasText: 'Top Up' }).count()).toBe(10);
    await pagination.getByRole('button', { name: 'Next' }).click();
    expect(await visible(page.getByText('Showing 11 to 12 of 12 entries'))).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await rows(page).first().getByTestId('transaction-amount').textContent()).toBe('+$2.00');

    await page.getByLabel('Transaction type').selectOption('all');
    await page.getByLabel('Search transactions').fill(agent.username);
    expect(await visible(page.getByText('Showing 1 to 2 of 2 entries'))).toBe(true);
    await expect.poll(() => rows(page).filter({ hasText: 'Received' }).count()).toBe(2);

    await page.getByLabel('Search transactions').fill(`nobody-${tag}`);
    expect(await visible(page.getByText('No transactions found', { exact: true }))).toBe(true);
  });

  it('on a phone the rows are cards that fit the screen', async () => {
    const { agent, users } = await team('Aspen', ['Aspen Phone'], '20');
    const [phoneUser] = users as [Account];
    await sendAs(agent, phoneUser.id, '7.25');
    const page = await openPage(browser(), PHONE);
    await openTransactions(page, phoneUser);
    const row = rows(page).first();
    expect(await visible(row.getByText('Received', { exact: true }))).toBe(true);
    expect(await row.getByTestId('transaction-amount').isVisible()).toBe(true);
    const box = await row.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  it('a fresh user sees No transactions found; the modal closes on Escape, the backdrop and Cancel', async () => {
    const fresh = await freshUser('user', { fullName: `Fresh Empty ${tag}` });
    const page = await openPage(browser());
    await openTransactions(page, fresh);
    expect(await visible(page.getByText('No transactions found', { exact: true }))).toBe(true);
    expect(await visible(page.getByTestId('balance').filter({ hasText: '$0.00' }))).toBe(true);
    expect(await page.getByText(/Showing \d+ to/).count()).toBe(0);

    await openTransfer(page);
    await page.keyboard.press('Escape');
    expect(await hidden(dialog(page))).toBe(true);

    await openTransfer(page);
    // A click on the dimmed page around the dialog (its backdrop) closes it.
    await page.mouse.click(10, 10);
    expect(await hidden(dialog(page))).toBe(true);

    const modal = await openTransfer(page);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    expect(await hidden(dialog(page))).toBe(true);
  });

  it('the admin variant lists everyone’s transactions', async () => {
    const { agent, users } = await team('Cedar', ['Cedar Watched'], '30');
    const [watched] = users as [Account];
    await sendAs(agent, watched.id, '12.00');
    const page = await openPage(browser());
    await openTransactions(page, DEMO.admin, '/admin/transactions');
    await page.getByLabel('Search transactions').fill(watched.username);
    expect(await visible(page.getByText('Showing 1 to 1 of 1 entries'))).toBe(true);
    const row = rows(page).filter({ hasText: agent.username });
    expect(await visible(row.getByText('Transfer', { exact: true }))).toBe(true);
    expect(await row.getByText(watched.username, { exact: true }).isVisible()).toBe(true);
    // Neither party is the admin: the amount carries no sign.
    expect(await row.getByTestId('transaction-amount').textContent()).toBe('$12.00');
  });

  it('the Game and Taken back types list only their rows, and the totals cover every page of the filtered set', async () => {
    // 1,000.00 topped up, then 11 sample games at 1.00 (a pool of 3.00 each), then 25.00 taken back by
    // the admin: 13 rows, two pages.
    const shop = await player({ fullName: `Totals Shop ${tag}`, games: 11, bet: 1 });
    await apiAs(DEMO.admin, '/api/balance/take-back', {
      body: { userId: shop.id, amount: '25.00', reason: 'Till short' },
    });
    const page = await openPage(browser());
    await openTransactions(page, shop);
    const totals = async () =>
      Promise.all(
        ['total-count', 'total-in', 'total-out', 'total-net'].map((id) => page.getByTestId(id).textContent()),
      );
    await expect.poll(() => textOf(page.getByTestId('total-count'))).toBe('13');
    // The take-back is money out: the net of every row is the balance.
    expect(await totals()).toEqual(['13', '+$1,000.00', '-$58.00', '+$942.00']);
    expect(await page.getByTestId('balance').textContent()).toBe('$942.00');

    await page.getByLabel('Transaction type').selectOption({ label: 'Taken back' });
    await expect.poll(() => textOf(page.getByTestId('total-count'))).toBe('1');
    expect(await totals()).toEqual(['1', '$0.00', '-$25.00', '-$25.00']);
    expect(await rows(page).count()).toBe(1);

    await page.getByLabel('Transaction type').selectOption({ label: 'Game' });
    await expect.poll(() => textOf(page.getByTestId('total-count'))).toBe('11');
    expect(await totals()).toEqual(['11', '$0.00', '-$33.00', '-$33.00']);
    expect(await visible(page.getByText('Showing 1 to 10 of 11 entries'))).toBe(true);
    expect(await rows(page).count()).toBe(10);
    expect(
      await rows(page)
        .filter({ has: page.getByText('Game', { exact: true }) })
        .count(),
    ).toBe(10);
    mkdirSync('test-results/screenshots', { recursive: true });
    await page.screenshot({ path: 'test-results/screenshots/transactions-totals-desktop.png', fullPage: true });

    // The second page keeps the totals of the whole set.
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await visible(page.getByText('Showing 11 to 11 of 11 entries'))).toBe(true);
    expect(await totals()).toEqual(['11', '$0.00', '-$33.00', '-$33.00']);

    const phone = await openPage(browser(), PHONE);
    await openTransactions(phone, shop);
    await phone.getByLabel('Transaction type').selectOption({ label: 'Game' });
    await expect.poll(() => textOf(phone.getByTestId('total-count'))).toBe('11');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phone.screenshot({ path: 'test-results/screenshots/transactions-totals-phone.png', fullPage: true });
  });
});
