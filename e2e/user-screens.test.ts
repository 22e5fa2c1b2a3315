import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiAs,
  day,
  DEMO,
  freshUser,
  hidden,
  login,
  openPage,
  PHONE,
  playGame,
  player,
  sampleGame,
  signIn,
  textOf,
  useBrowser,
  visible,
  type Account,
} from './support.ts';

const browser = useBrowser();

/** Makes full names unique to this run. */
const tag = `u${Date.now().toString(36)}`;

type Transaction = { type: string; userId: number; receiverId: number | null; amount: string };
type Winner = { name: string; percent: string; position: number; isActive: boolean };
type Sale = { id: number; number: number | null; winningNumbersCount: number };
type SaleDetail = Sale & {
  startRange: number;
  endRange: number;
  betAmount: string;
  totalPrize: string;
  commission: string;
  selectedNumbersCount: number;
  gameData: { selectedNumbers: { number: number }[] };
  winners: { id: number; number: number; name: string; phoneNumber: string; position: number; prizeAmount: string }[];
};

/** Cents from an API amount, and back to how the screen shows money. */
const toCents = (amount: string) => Math.round(Number(amount) * 100);
const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function openAs(account: { username: string; password: string }, path: string, viewport?: typeof PHONE) {
  const page = await openPage(browser(), viewport);
  await signIn(page, account);
  if (path !== '/user/dashboard') await page.goto(path);
  return page;
}

const me = (account: { username: string; password: string }) =>
  apiAs<{ userId: number; amount: string }>(account, '/api/balance');

describe('user dashboard', () => {
  const stat = (page: Page, id: string) => page.getByTestId(id).locator('p').nth(1);

  it("shows the demo user's balance, sent, received and transaction count exactly as the API has them", async () => {
    const page = await openAs(DEMO.user, '/user/dashboard');
    await visible(page.getByRole('heading', { name: /Welcome back/ }));
    // Computed here from every row the API lists, independently of the totals the screen asks for.
    const { userId, amount } = await me(DEMO.user);
    const rows = await apiAs<Transaction[]>(DEMO.user, '/api/transactions?limit=1000');
    const sent = rows
      .filter((row) => row.userId === userId && ['transfer', 'decrease', 'game'].includes(row.type))
      .reduce((sum, row) => sum + toCents(row.amount), 0);
    const received = rows.filter((row) => row.receiverId === userId).reduce((sum, row) => sum + toCents(row.amount), 0);
    // The seed played games: money went out, and what is left is what came in minus what went out.
    expect(sent).toBeGreaterThan(0);
    expect(received - sent).toBe(toCents(amount));

    await expect.poll(() => textOf(stat(page, 'stat-balance'))).toBe(dollars(toCents(amount)));
    await expect.poll(() => textOf(stat(page, 'stat-sent'))).toBe(dollars(sent));
    await expect.poll(() => textOf(stat(page, 'stat-received'))).toBe(dollars(received));
    await expect.poll(() => textOf(stat(page, 'stat-transactions'))).toBe(String(rows.length));
    expect(await page.getByTestId('current-balance').textContent()).toBe(dollars(toCents(amount)));
    await expect.poll(() => page.getByTestId('transaction-row').count()).toBe(Math.min(5, rows.length));

    // The links of docs/product/screens.md#user-dashboard.
    expect(await page.getByRole('link', { name: 'View Transactions' }).getAttribute('href')).toBe('/transactions');
    expect(await page.getByRole('link', { name: 'Go to Profile' }).getAttribute('href')).toBe('/profile');
    expect(await visible(page.getByRole('heading', { name: 'BOCH BOCH Game' }))).toBe(true);
    await page.getByRole('link', { name: 'Play Now' }).click();
    await page.waitForURL(/\/user\/number-game$/);
  });

  it('Transfer Funds sends money to another user and every figure follows', async () => {
    const sender = await freshUser('user', { fullName: `Sam Sender ${tag}` });
    const receiver = await freshUser('user', { fullName: `Rita Receiver ${tag}` });
    await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: sender.id, amount: '100' } });
    const page = await openAs(login(sender), '/user/dashboard');
    await expect.poll(() => textOf(stat(page, 'stat-received'))).toBe('$100.00');
    await expect.poll(() => textOf(stat(page, 'stat-sent'))).toBe('$0.00');

    await page.getByRole('button', { name: 'Transfer Funds' }).click();
    const modal = page.getByRole('dialog', { name: 'Transfer Funds' });
    await visible(modal.getByTestId('available-balance').filter({ hasText: '$100.00' }));
    // The receiver search: by full name, ignoring case.
    await modal.getByLabel('Receiver').fill(`rita receiver ${tag}`.toUpperCase());
    await modal.getByRole('button', { name: new RegExp(receiver.fullName) }).click();
    await modal.getByLabel('Amount').fill('25.50');
    await modal.getByRole('button', { name: 'Send Funds' }).click();
    // The notice stays 6 s; the transfer behind it waited over 10 s once, with four browser files at
    // a time on 2 cores.
    expect(await visible(page.getByText(`Funds successfully transferred to ${receiver.fullName}`), 20_000)).toBe(true);
    expect(await hidden(modal)).toBe(true);

    await expect.poll(() => textOf(stat(page, 'stat-balance'))).toBe('$74.50');
    await expect.poll(() => textOf(stat(page, 'stat-sent'))).toBe('$25.50');
    await expect.poll(() => textOf(stat(page, 'stat-received'))).toBe('$100.00');
    await expect.poll(() => textOf(stat(page, 'stat-transactions'))).toBe('2');
    await expect.poll(() => textOf(page.getByTestId('current-balance'))).toBe('$74.50');
    expect((await me(login(receiver))).amount).toBe('25.50');
  });
});

describe('my winner settings', () => {
  const rows = (page: Page) => page.getByTestId('winner-row');
  const row = (page: Page, name: string) => rows(page).filter({ has: page.getByText(name, { exact: true }) });
  const total = (page: Page) => page.getByTestId('winner-total');

  it("lists only the demo user's own configurations, with their total", async () => {
    const page = await openAs(DEMO.user, '/user/winner-settings');
    await visible(page.getByRole('heading', { name: 'My Winner Settings' }));
    const { userId } = await me(DEMO.user);
    const own = await apiAs<Winner[]>(DEMO.user, `/api/winners/user/${userId}`);
    expect(own.length).toBeGreaterThan(0);
    await expect.poll(() => rows(page).count()).toBe(own.length);
    for (const winner of own) {
      expect(await row(page, winner.name).getByTestId('winner-percent').textContent()).toBe(`${winner.percent}%`);
      expect(await row(page, winner.name).getByTestId('winner-position').textContent()).toBe(`#${winner.position}`);
    }
    // The global configurations are the admin's: not in a user's list, and no User column.
    expect(await row(page, 'First Prize').count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'User' }).count()).toBe(0);
  });

  it('adds, validates, edits, deactivates and deletes, with the section 5 messages and the total notes', async () => {
    const owner = await freshUser('user', { fullName: `Wanda Winner ${tag}` });
    const page = await openAs(login(owner), '/user/winner-settings');
    expect(await visible(page.getByText('No winner configurations found.'))).toBe(true);
    await expect.poll(() => textOf(total(page))).toBe('0.00%');
    expect(await visible(page.getByText('Note: Total is less than 100%'))).toBe(true);

    await page.getByRole('button', { name: 'Add Winner Configuration' }).click();
    const add = page.getByRole('dialog', { name: 'Add Winner Configuration' });
    await visible(add);
    // A user's own: no User field; Position defaults to 1, Active to checked.
    expect(await add.getByLabel('User', { exact: true }).count()).toBe(0);
    expect(await add.getByLabel('Position').inputValue()).toBe('1');
    expect(await add.getByLabel('Active', { exact: true }).isChecked()).toBe(true);
    expect(await add.getByLabel('Description (Optional)').count()).toBe(1);
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await visible(add.getByText('Name is required'))).toBe(true);
    expect(await visible(add.getByText('Percentage is required'))).toBe(true);

    await add.getByLabel('Name').fill('Gold');
    await add.getByLabel('Percentage').fill('100.5');
    await add.getByLabel('Position').fill('0');
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await visible(add.getByText('Percentage must be between 0 and 100'))).toBe(true);
    expect(await visible(add.getByText('Position must be a positive number'))).toBe(true);
    expect(await add.getByText('Name is required').count()).toBe(0);
    // Nothing was saved by the refused attempts.
    expect(await apiAs<Winner[]>(login(owner), `/api/winners/user/${owner.id}`)).toEqual([]);

    await add.getByLabel('Percentage').fill('60');
    await add.getByLabel('Position').fill('1');
    await add.getByLabel('Description (Optional)').fill('The big one');
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await hidden(add)).toBe(true);
    expect(await visible(row(page, 'Gold').filter({ hasText: 'The big one' }))).toBe(true);
    await expect.poll(() => textOf(total(page))).toBe('60.00%');
    expect(await visible(page.getByText('Note: Total is less than 100%'))).toBe(true);

    await page.getByRole('button', { name: 'Add Winner Configuration' }).click();
    await visible(add);
    await add.getByLabel('Name').fill('Silver');
    await add.getByLabel('Percentage').fill('50');
    await add.getByLabel('Position').fill('2');
    await add.getByRole('button', { name: 'Create Configuration' }).click();
    expect(await hidden(add)).toBe(true);
    await expect.poll(() => textOf(total(page))).toBe('110.00%');
    expect(await visible(page.getByText('Warning: Total exceeds 100%'))).toBe(true);
    expect(await page.getByText('Note: Total is less than 100%').count()).toBe(0);

    // Edit opens with the saved values; 60 + 40 is exactly 100: no note.
    await page.getByRole('button', { name: 'Edit Silver' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Winner Configuration' });
    await visible(edit);
    expect(await edit.getByLabel('Name').inputValue()).toBe('Silver');
    expect(await edit.getByLabel('Percentage').inputValue()).toBe('50.00');
    expect(await edit.getByLabel('Position').inputValue()).toBe('2');
    await edit.getByLabel('Name').fill('');
    await edit.getByRole('button', { name: 'Update Configuration' }).click();
    expect(await visible(edit.getByText('Name is required'))).toBe(true);
    await edit.getByLabel('Name').fill('Silver');
    await edit.getByLabel('Percentage').fill('40');
    await edit.getByRole('button', { name: 'Update Configuration' }).click();
    expect(await hidden(edit)).toBe(true);
    await expect.poll(() => textOf(total(page))).toBe('100.00%');
    expect(await hidden(page.getByText('Warning: Total exceeds 100%'))).toBe(true);
    expect(await page.getByText('Note: Total is less than 100%').count()).toBe(0);

    // Inactive: badged, greyed and out of the total.
    await page.getByRole('button', { name: 'Edit Silver' }).click();
    await visible(edit);
    await edit.getByLabel('Active', { exact: true }).uncheck();
    await edit.getByRole('button', { name: 'Update Configuration' }).click();
    expect(await hidden(edit)).toBe(true);
    await expect.poll(() => row(page, 'Silver').getAttribute('data-active')).toBe('false');
    expect(await row(page, 'Silver').getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    expect(await row(page, 'Silver').getAttribute('class')).toContain('text-slate-500');
    await expect.poll(() => textOf(total(page))).toBe('60.00%');

    // Delete asks first; Cancel keeps it.
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

    const saved = await apiAs<Winner[]>(login(owner), `/api/winners/user/${owner.id}`);
    expect(saved.map(({ name, percent, position, isActive }) => ({ name, percent, position, isActive }))).toEqual([
      { name: 'Silver', percent: '40.00', position: 2, isActive: false },
    ]);
  });
});

describe('game history', () => {
  const games = (page: Page) => page.getByTestId('total-games');
  const commission = (page: Page) => page.getByTestId('total-commission');
  const rows = (page: Page) => page.getByTestId('sale-row');
  const showing = (page: Page, text: string) => visible(page.getByText(text, { exact: true }));

  it('shows the totals, pages on the server, filters by date, resets and has no User or Parent column', async () => {
    // 12 games at $10: commission $15.00 each, $180.00 in all.
    const shop = await player({ fullName: `Hugo History ${tag}`, games: 12, bet: 10 });
    const page = await openAs(login(shop), '/sales-history');
    await visible(page.getByRole('heading', { name: 'Game History' }));
    await expect.poll(() => textOf(games(page))).toBe('12');
    await expect.poll(() => textOf(commission(page))).toBe('$180.00');
    expect(await showing(page, 'Showing 1 to 10 of 12 entries')).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(10);
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers.filter(Boolean)).toEqual([
      'Date',
      'Range',
      'Bet Amount',
      'Total Prize',
      'Commission',
      'Selected Numbers',
      'Winners',
      'Winners detail',
    ]);
    const first = rows(page).first();
    expect(await first.locator('[data-column="range"]').textContent()).toContain('1-3');
    expect(await first.locator('[data-column="betAmount"]').textContent()).toContain('$10.00');
    expect(await first.locator('[data-column="totalPrize"]').textContent()).toContain('$15.00');
    expect(await first.locator('[data-column="commission"]').textContent()).toContain('$15.00');
    expect(await first.locator('[data-column="selected"]').textContent()).toContain('3');
    expect(await first.locator('[data-column="winners"]').textContent()).toContain('1');
    expect(await rows(page).getByRole('link', { name: 'View Winners' }).count()).toBe(10);

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('button', { name: '2', exact: true }).click();
    expect(await showing(page, 'Showing 11 to 12 of 12 entries')).toBe(true);
    await expect.poll(() => rows(page).count()).toBe(2);

    // Dates (start 00:00, end 23:59:59.999, both inclusive): every game is from today.
    await page.getByLabel('Start Date').fill(day(1));
    await expect.poll(() => textOf(games(page))).toBe('0');
    await expect.poll(() => textOf(commission(page))).toBe('$0.00');
    expect(await visible(page.getByText('No games match the selected filters.'))).toBe(true);
    await page.getByLabel('Start Date').fill(day(0));
    await page.getByLabel('End Date').fill(day(0));
    await expect.poll(() => textOf(games(page))).toBe('12');
    // A changed filter starts at page 1 again.
    expect(await showing(page, 'Showing 1 to 10 of 12 entries')).toBe(true);
    await page.getByLabel('Start Date').fill('');
    await page.getByLabel('End Date').fill(day(-1));
    await expect.poll(() => textOf(games(page))).toBe('0');

    await page.getByRole('button', { name: 'Reset All Filters' }).click();
    expect(await page.getByLabel('End Date').inputValue()).toBe('');
    await expect.poll(() => textOf(games(page))).toBe('12');
    expect(await page.getByRole('button', { name: 'Reset All Filters' }).isDisabled()).toBe(true);
  });

  it("the demo user's totals are the API's", async () => {
    const { userId } = await me(DEMO.user);
    const all = await apiAs<(Sale & { commission: string })[]>(DEMO.user, `/api/sales-history/user/${userId}`);
    const page = await openAs(DEMO.user, '/sales-history');
    expect(all.length).toBeGreaterThan(0);
    const sum = dollars(all.reduce((cents, sale) => cents + toCents(sale.commission), 0));
    await expect.poll(() => textOf(games(page))).toBe(String(all.length));
    await expect.poll(() => textOf(commission(page))).toBe(sum);
    await expect.poll(() => rows(page).count()).toBe(Math.min(10, all.length));
  });

  it('with no games: the empty text and a Play a Game link', async () => {
    const newcomer = await freshUser('user', { fullName: `Nora Newcomer ${tag}` });
    const page = await openAs(login(newcomer), '/sales-history');
    expect(await visible(page.getByText('No game history found.'))).toBe(true);
    await expect.poll(() => textOf(games(page))).toBe('0');
    await page.getByRole('link', { name: 'Play a Game' }).click();
    await page.waitForURL(/\/user\/number-game$/);
  });

  it('a failed load shows the Error panel, and Try Again loads it', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.user);
    await page.route('**/api/sales-history/user/**', (route) => route.abort());
    await page.goto('/sales-history');
    const panel = page.getByRole('alert').filter({ hasText: 'Failed to fetch sales history' });
    expect(await visible(panel)).toBe(true);
    await page.unroute('**/api/sales-history/user/**');
    await panel.getByRole('button', { name: 'Try Again' }).click();
    expect(await visible(rows(page))).toBe(true);
  });
});

describe('game winners detail', () => {
  const numbers = (page: Page) => page.getByTestId('selected-number');
  const winning = (page: Page) => numbers(page).and(page.locator('[data-winning="true"]'));
  const numbersOf = async (locator: Locator) =>
    (await locator.evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-number'))))).sort(
      (a, b) => a - b,
    );

  it('opens a game from the history: its figures, its winner and the winning number highlighted', async () => {
    const shop = await player({ fullName: `Gina Game ${tag}`, games: 1, bet: 20 });
    const [sale] = await apiAs<Sale[]>(login(shop), `/api/sales-history/user/${shop.id}`);
    const detail = await apiAs<SaleDetail & { gameData: { winningNumbers: number[] } }>(
      login(shop),
      `/api/sales-history/${sale?.id}`,
    );
    // The server drew one of 1–3, all of them chosen: its player won half of the $60 pool.
    const [won] = detail.winners;
    if (!won) throw new Error('the sample game always has a winner');
    const page = await openAs(login(shop), '/sales-history');
    await page.getByRole('link', { name: 'View Winners' }).click();
    await page.waitForURL(/\/game-winners\/\d+$/);
    await expect.poll(() => textOf(page.getByTestId('game-range'))).toBe('1-3');
    expect(await page.getByTestId('game-bet').textContent()).toBe('$20.00');
    expect(await page.getByTestId('game-prize').textContent()).toBe('$30.00');
    expect(await page.getByTestId('game-commission').textContent()).toBe('$30.00');
    expect(await page.getByTestId('game-selected').textContent()).toBe('3');
    const winners = page.getByTestId('game-winner');
    expect(await winners.count()).toBe(1);
    expect(await winners.getByTestId('winner-name').textContent()).toBe(won.name);
    expect(await winners.getByTestId('winner-phone').textContent()).toBe(won.phoneNumber);
    expect(await winners.getByTestId('winner-prize').textContent()).toBe('$30.00');
    expect(await numbersOf(numbers(page))).toEqual([1, 2, 3]);
    expect(await numbersOf(winning(page))).toEqual([won.number]);
    expect(await page.getByTestId('drawn-number').allTextContents()).toEqual(
      detail.gameData.winningNumbers.map(String),
    );

    await page.getByRole('link', { name: 'Back to History' }).click();
    await page.waitForURL(/\/sales-history$/);
  });

  it("a game's winners by position, highlighted on the grid exactly as the API has them", async () => {
    // Two prize positions and every number of 1–3 sold: both draws have a winner, whatever is drawn.
    const shop = await player({ fullName: `Wanda Winners ${tag}`, games: 0, bet: 10 });
    await apiAs(login(shop), '/api/winners', { body: { name: 'P2', percent: '25', position: 2, isActive: true } });
    const played = await playGame(login(shop), sampleGame(10));
    if (played.saleId === null) throw new Error('the game did not settle');
    const game = await apiAs<SaleDetail>(login(shop), `/api/sales-history/${played.saleId}`);
    expect(game.winners).toHaveLength(2);
    const byPosition = [...game.winners].sort((a, b) => a.position - b.position);
    // The first prize is paid at the shop (with its slip's entry code), the second not yet: each
    // winner says where its claim stands.
    const slip = played.entries.find((entry) => entry.number === byPosition[0]?.number);
    await apiAs(login(shop), `/api/claims/${byPosition[0]?.id}/pay`, {
      body: { entryCode: slip?.nonce, claimerName: 'Walk-in Winner' },
    });
    const page = await openAs(login(shop), `/game-winners/${game.id}`);
    await visible(page.getByRole('heading', { name: `Game #${game.number}` }));
    const claims = page.getByTestId('game-winner').getByTestId('claim-status');
    await expect
      .poll(() => claims.evaluateAll((items) => items.map((item) => item.getAttribute('data-status'))))
      .toEqual(['paid', 'unpaid']);
    const [paid, unpaid] = await claims.allTextContents();
    expect(paid).toMatch(new RegExp(`^Paid .+, Wanda Winners ${tag}$`));
    expect(unpaid).toBe('Not paid yet');
    expect(await page.getByTestId('game-winner').getByTestId('winner-name').allTextContents()).toEqual(
      byPosition.map((w) => w.name),
    );
    expect(await page.getByTestId('winner-prize').allTextContents()).toEqual(
      byPosition.map((w) => dollars(toCents(w.prizeAmount))),
    );
    expect(await numbers(page).count()).toBe(game.gameData.selectedNumbers.length);
    expect(await numbersOf(winning(page))).toEqual(game.winners.map((w) => w.number).sort((a, b) => a - b));
    expect(await page.getByTestId('game-commission').textContent()).toBe(dollars(toCents(game.commission)));
  });

  it('a game without winners says so', async () => {
    const shop = await player({ fullName: `Ned Nobody ${tag}`, games: 0, bet: 10 });
    // 3, 7 and 9 of 1–20 at $10, one prize position: the server's draw misses all three 17 times in
    // 20, so a few games are enough to get one whose whole $30.00 pool is commission.
    const entries = [3, 7, 9].map((number) => ({ number, name: `N${number}`, phoneNumber: `555-020${number}` }));
    let saleId: number | null = null;
    for (let attempt = 0; attempt < 12 && saleId === null; attempt++) {
      const game = await playGame(login(shop), { startRange: 1, endRange: 20, bet: 10, entries });
      if (game.draws.every((draw) => draw.winner === null)) saleId = game.saleId;
    }
    if (saleId === null) throw new Error('12 games in a row had a winner');
    const page = await openAs(login(shop), `/game-winners/${saleId}`);
    expect(await visible(page.getByText('No winners in this game.'))).toBe(true);
    expect(await page.getByTestId('game-commission').textContent()).toBe('$30.00');
    expect(await numbers(page).count()).toBe(3);
    expect(await winning(page).count()).toBe(0);
  });

  it('another user’s game, a missing one and a malformed id are Game Not Found', async () => {
    const other: Account = await player({ fullName: `Olga Other ${tag}`, games: 1, bet: 10 });
    const [theirs] = await apiAs<Sale[]>(login(other), `/api/sales-history/user/${other.id}`);
    if (!theirs) throw new Error('no game');
    const page = await openAs(DEMO.user, `/game-winners/${theirs.id}`);
    expect(await visible(page.getByRole('heading', { name: 'Game Not Found' }))).toBe(true);
    // Nothing of the other user's game leaks onto the page.
    expect(await page.getByTestId('game-winner').count()).toBe(0);
    expect(await page.getByText('Olga Other').count()).toBe(0);
    for (const id of ['999999999', 'abc', '0']) {
      await page.goto(`/game-winners/${id}`);
      expect(await visible(page.getByRole('heading', { name: 'Game Not Found' }))).toBe(true);
    }
    await page.getByRole('link', { name: 'Back to History' }).click();
    await page.waitForURL(/\/sales-history$/);
  });

  it('a failed load shows the Error panel with Try Again and Back to History', async () => {
    const { userId } = await me(DEMO.user);
    const [sale] = await apiAs<Sale[]>(DEMO.user, `/api/sales-history/user/${userId}`);
    if (!sale) throw new Error('no demo game');
    const page = await openPage(browser());
    await signIn(page, DEMO.user);
    await page.route(`**/api/sales-history/${sale.id}`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom","code":"INTERNAL"}' }),
    );
    await page.goto(`/game-winners/${sale.id}`);
    const panel = page.getByRole('alert').filter({ hasText: 'Failed to fetch game data' });
    expect(await visible(panel, 20_000)).toBe(true);
    expect(await panel.getByRole('link', { name: 'Back to History' }).isVisible()).toBe(true);
    await page.unroute(`**/api/sales-history/${sale.id}`);
    await panel.getByRole('button', { name: 'Try Again' }).click();
    expect(await visible(page.getByRole('heading', { name: `Game #${sale.number}` }))).toBe(true);
  });
});

describe('on a phone', () => {
  it('every user screen fits 375 px without sideways scrolling', async () => {
    const { userId } = await me(DEMO.user);
    const [sale] = await apiAs<Sale[]>(DEMO.user, `/api/sales-history/user/${userId}`);
    if (!sale) throw new Error('no demo game');
    const page = await openAs(DEMO.user, '/user/dashboard', PHONE);
    const screens: [string, Locator][] = [
      ['/user/dashboard', page.getByTestId('transaction-row')],
      ['/user/winner-settings', page.getByTestId('winner-row')],
      ['/sales-history', page.getByTestId('sale-row')],
      [`/game-winners/${sale.id}`, page.getByTestId('selected-number')],
    ];
    for (const [path, content] of screens) {
      await page.goto(path);
      await visible(content);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(PHONE.width);
    }
  });
});
