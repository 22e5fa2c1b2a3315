import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, DEMO, DESKTOP, PHONE, screenshotOnFailure, useBrowser } from './support.ts';

const browser = useBrowser();

type Role = keyof typeof DEMO;
type Item = { path: string; label: string; title: string };

const PROFILE: Item = { path: '/profile', label: 'Profile', title: 'Profile' };
const TRANSACTIONS: Item = { path: '/transactions', label: 'Transactions', title: 'Transactions' };

/** docs/product/screens.md#route-table: each role's sidebar (plus Profile and Transactions) and the header title of each screen. */
const MENUS: Record<Role, Item[]> = {
  admin: [
    { path: '/admin/dashboard', label: 'Dashboard', title: 'Dashboard' },
    { path: '/admin/users', label: 'Users', title: 'Users' },
    { path: '/admin/superagents', label: 'Super Agents', title: 'Super Agents' },
    { path: '/admin/agents', label: 'Agents', title: 'Agents' },
    { path: '/admin/transactions', label: 'All Transactions', title: 'Transactions' },
    { path: '/admin/winners', label: 'Winner Configurations', title: 'Winner Configurations' },
    { path: '/admin/sales-history', label: 'Sales History', title: 'Sales History' },
    { path: '/admin/unpaid-prizes', label: 'Unpaid Prizes', title: 'Unpaid Prizes' },
    { path: '/admin/reports', label: 'Reports', title: 'Reports' },
    { path: '/admin/audit', label: 'Audit Trail', title: 'Audit Trail' },
    { path: '/admin/shifts', label: 'Shifts', title: 'Shifts' },
    PROFILE,
    TRANSACTIONS,
  ],
  superagent: [
    { path: '/superagent/dashboard', label: 'Dashboard', title: 'Dashboard' },
    { path: '/superagent/agents', label: 'Agents', title: 'Agents' },
    { path: '/superagent/users', label: 'Users', title: 'Users' },
    { path: '/superagent/sales-history', label: 'Sales History', title: 'Sales History' },
    { path: '/superagent/unpaid-prizes', label: 'Unpaid Prizes', title: 'Unpaid Prizes' },
    { path: '/superagent/reports', label: 'Reports', title: 'Reports' },
    { path: '/superagent/audit', label: 'Audit Trail', title: 'Audit Trail' },
    { path: '/superagent/shifts', label: 'Shifts', title: 'Shifts' },
    PROFILE,
    TRANSACTIONS,
  ],
  agent: [
    { path: '/agent/dashboard', label: 'Dashboard', title: 'Dashboard' },
    { path: '/agent/users', label: 'Users', title: 'Users' },
    { path: '/agent/sales-history', label: 'Sales History', title: 'Sales History' },
    { path: '/agent/unpaid-prizes', label: 'Unpaid Prizes', title: 'Unpaid Prizes' },
    { path: '/agent/reports', label: 'Reports', title: 'Reports' },
    { path: '/agent/audit', label: 'Audit Trail', title: 'Audit Trail' },
    { path: '/agent/shifts', label: 'Shifts', title: 'Shifts' },
    PROFILE,
    TRANSACTIONS,
  ],
  user: [
    { path: '/user/dashboard', label: 'Dashboard', title: 'Dashboard' },
    { path: '/user/number-game', label: 'Lottery Game', title: 'Lottery Game' },
    { path: '/user/pay-prizes', label: 'Pay Prizes', title: 'Pay Prizes' },
    { path: '/user/unpaid-prizes', label: 'Unpaid Prizes', title: 'Unpaid Prizes' },
    { path: '/user/winner-settings', label: 'Winner Settings', title: 'Winner Settings' },
    { path: '/sales-history', label: 'Game History', title: 'Game History' },
    { path: '/user/day-close', label: 'Balance Statement', title: 'Balance Statement' },
    { path: '/user/shift', label: 'Shift', title: 'Shift' },
    PROFILE,
    TRANSACTIONS,
  ],
};

/** Full names of the demo accounts (npm run seed:demo), shown in the sidebar header. */
const DEMO_NAMES: Record<Role, string> = {
  admin: 'Administrator',
  superagent: 'Sam Super',
  agent: 'Alice Agent',
  user: 'Uma User',
};

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', superagent: 'Super Agent', agent: 'Agent', user: 'User' };

/** URLs of other roles' groups: each must land on the signed-in role's own dashboard. */
const FOREIGN: Record<Role, string[]> = {
  admin: ['/user/dashboard', '/superagent/agents', '/sales-history', '/agent'],
  superagent: ['/admin/users', '/agent/dashboard', '/sales-history', '/user'],
  agent: ['/superagent/agents', '/user/number-game', '/sales-history', '/admin'],
  user: ['/admin/users', '/superagent/dashboard', '/agent/users', '/admin'],
};

const path = (page: Page) => new URL(page.url()).pathname;

const headerTitle = (page: Page) => page.locator('header h1').innerText();

/** The hrefs of the highlighted sidebar entries. */
const highlighted = (page: Page) =>
  page
    .locator('#sidebar nav a[aria-current="page"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));

const sidebarLinks = (page: Page) =>
  page.locator('#sidebar nav a').evaluateAll((links) => links.map((link) => link.textContent?.trim()));

/** Whether the sidebar is shown: visible and at least partly inside the viewport (it slides out to the left). */
const sidebarOnScreen = (page: Page) =>
  page
    .locator('#sidebar')
    .evaluate((aside) => getComputedStyle(aside).visibility === 'visible' && aside.getBoundingClientRect().right > 0);

const userMenu = (page: Page) => page.getByRole('menu');

let shared: Page | undefined;

/**
 * One page for the whole file (a warm cache keeps it quick), signed in as the role through the
 * login screen before that role's tests, which run in order; failures keep a screenshot.
 */
function useSession(role: Role): () => Page {
  beforeAll(async () => {
    if (!shared) {
      const context = await browser().newContext({ viewport: DESKTOP, baseURL: baseUrl() });
      shared = await context.newPage();
      shared.setDefaultTimeout(10_000);
      await shared.goto('/login');
    }
    // Whatever the previous role left behind (its last test logs out, unless it failed).
    await shared.evaluate(() => localStorage.clear());
    await shared.setViewportSize(DESKTOP);
    await shared.goto('/login');
    await shared.getByLabel('Username').fill(DEMO[role].username);
    await shared.getByLabel('Password').fill(DEMO[role].password);
    await shared.getByRole('button', { name: 'Sign in' }).click();
    await shared.waitForURL(`**/${role}/dashboard`);
  });
  return () => {
    if (!shared) throw new Error('session not started');
    screenshotOnFailure(shared);
    return shared;
  };
}

for (const role of Object.keys(DEMO) as Role[]) {
  const dashboard = `/${role}/dashboard`;
  const menu = MENUS[role];

  describe(`${role}: navigation`, () => {
    const session = useSession(role);

    it('the sidebar lists exactly the role menu, Profile and Transactions', async () => {
      const page = session();
      await page.goto(dashboard);
      await expect.poll(() => sidebarLinks(page)).toEqual(menu.map((item) => item.label));
    });

    it('every menu item opens its route, only that item is highlighted, and the header title follows', async () => {
      const page = session();
      await page.goto(dashboard);
      for (const item of menu) {
        await page.locator('#sidebar nav').getByRole('link', { name: item.label, exact: true }).click();
        await page.waitForURL((url) => url.pathname === item.path);
        await expect.poll(() => highlighted(page)).toEqual([item.path]);
        await expect.poll(() => headerTitle(page)).toBe(item.title);
        await expect.poll(() => page.title()).toBe(`${item.title} · LOT`);
      }
    });

    it('a route opened by URL highlights its menu item', async () => {
      const page = session();
      const item = menu[1] as Item;
      await page.goto(item.path);
      await expect.poll(() => path(page)).toBe(item.path);
      await expect.poll(() => highlighted(page)).toEqual([item.path]);
    });

    it("wrong-role URLs, the bare group path, /, unknown paths and /login all land on the role's dashboard", async () => {
      const page = session();
      for (const target of [...FOREIGN[role], `/${role}`, '/', '/no/such/page', '/login']) {
        await page.goto(target);
        await page.waitForURL((url) => url.pathname === dashboard);
        expect(`${target} -> ${path(page)}`).toBe(`${target} -> ${dashboard}`);
      }
      await expect.poll(() => headerTitle(page)).toBe('Dashboard');
    });

    it('the user menu opens and closes on a second click, an outside click and Escape', async () => {
      const page = session();
      await page.goto(dashboard);
      const button = page.getByRole('button', { name: 'User menu' });

      await button.click();
      await expect.poll(() => userMenu(page).isVisible()).toBe(true);
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      expect(await userMenu(page).getByRole('menuitem').allInnerTexts()).toEqual(['Profile', 'Transactions', 'Logout']);
      await button.click();
      await expect.poll(() => userMenu(page).isVisible()).toBe(false);

      await button.click();
      await expect.poll(() => userMenu(page).isVisible()).toBe(true);
      await page.locator('header h1').click(); // outside the menu, and inert
      await expect.poll(() => userMenu(page).isVisible()).toBe(false);
      expect(await button.getAttribute('aria-expanded')).toBe('false');

      await button.click();
      await expect.poll(() => userMenu(page).isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => userMenu(page).isVisible()).toBe(false);
      expect(path(page)).toBe(dashboard);
    });

    it('the user menu links open Profile and Transactions and close the menu', async () => {
      const page = session();
      await page.goto(dashboard);
      for (const item of [PROFILE, TRANSACTIONS]) {
        await page.getByRole('button', { name: 'User menu' }).click();
        await userMenu(page).getByRole('menuitem', { name: item.label }).click();
        await page.waitForURL((url) => url.pathname === item.path);
        await expect.poll(() => headerTitle(page)).toBe(item.title);
        await expect.poll(() => userMenu(page).isVisible()).toBe(false);
      }
    });

    it('at 1280 px the sidebar is always shown and there is no Open menu button', async () => {
      const page = session();
      await page.setViewportSize(DESKTOP);
      await page.goto(dashboard);
      await expect.poll(() => sidebarOnScreen(page)).toBe(true);
      // The sidebar header: the three-letter brand, the user's initial, full name and role.
      const header = page.locator('#sidebar');
      expect(await header.getByText('LOT', { exact: true }).isVisible()).toBe(true);
      expect(await header.getByText(DEMO_NAMES[role], { exact: true }).isVisible()).toBe(true);
      expect(await header.getByText(ROLE_LABELS[role], { exact: true }).isVisible()).toBe(true);
      expect(await header.getByTestId('avatar-initial').innerText()).toBe(DEMO_NAMES[role].charAt(0));
      expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Close menu' }).isVisible()).toBe(false);
      expect(await page.getByTestId('sidebar-overlay').isVisible()).toBe(false);
      // Choosing an item keeps it there.
      await page.locator('#sidebar nav').getByRole('link', { name: 'Profile', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/profile');
      expect(await sidebarOnScreen(page)).toBe(true);
    });

    it('at 375 px the sidebar is hidden, opens with Open menu and closes on the overlay, Close menu and navigation', async () => {
      const page = session();
      await page.setViewportSize(PHONE);
      try {
        await page.goto(dashboard);
        const sidebar = page.locator('#sidebar');
        const overlay = page.getByTestId('sidebar-overlay');
        const openMenu = page.getByRole('button', { name: 'Open menu' });
        expect(await sidebar.getAttribute('data-open')).toBe('false');
        await expect.poll(() => sidebarOnScreen(page)).toBe(false);
        expect(await overlay.evaluate((element) => getComputedStyle(element).pointerEvents)).toBe('none');
        // The hidden menu is out of the Tab order: the first stop is the Open menu button.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open menu');

        await openMenu.click();
        await expect.poll(() => sidebar.getAttribute('data-open')).toBe('true');
        await expect.poll(() => sidebarOnScreen(page)).toBe(true);
        expect(await sidebar.getByText(DEMO_NAMES[role]).isVisible()).toBe(true);
        await overlay.click({ position: { x: 350, y: 400 } });
        await expect.poll(() => sidebar.getAttribute('data-open')).toBe('false');
        await expect.poll(() => sidebarOnScreen(page)).toBe(false);

        await openMenu.click();
        await expect.poll(() => sidebarOnScreen(page)).toBe(true);
        await page.getByRole('button', { name: 'Close menu' }).click();
        await expect.poll(() => sidebar.getAttribute('data-open')).toBe('false');
        await expect.poll(() => sidebarOnScreen(page)).toBe(false);

        const item = menu[1] as Item;
        await openMenu.click();
        await expect.poll(() => sidebarOnScreen(page)).toBe(true);
        await sidebar.getByRole('link', { name: item.label, exact: true }).click();
        await page.waitForURL((url) => url.pathname === item.path);
        await expect.poll(() => sidebar.getAttribute('data-open')).toBe('false');
        await expect.poll(() => sidebarOnScreen(page)).toBe(false);
        await expect.poll(() => highlighted(page)).toEqual([item.path]);
        await expect.poll(() => headerTitle(page)).toBe(item.title);
      } finally {
        await page.setViewportSize(DESKTOP);
      }
    });

    it('Logout in the user menu returns to /login, and protected URLs then go to /login', async () => {
      const page = session();
      await page.goto(dashboard);
      await page.getByRole('button', { name: 'User menu' }).click();
      await userMenu(page).getByRole('menuitem', { name: 'Logout' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([
        null,
        null,
      ]);
      for (const target of [dashboard, '/profile']) {
        await page.goto(target);
        await page.waitForURL((url) => url.pathname === '/login');
        expect(`${target} -> ${path(page)}`).toBe(`${target} -> /login`);
      }
    });
  });
}
