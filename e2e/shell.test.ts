import { describe, expect, it } from 'vitest';
import { attributeBecomes, DEMO, openPage, PHONE, signIn, useBrowser, visible } from './support.ts';

const browser = useBrowser();

describe('sign-in and the shell', () => {
  it('an admin signs in and lands on the admin dashboard with the LOT brand and the admin menu', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    expect(new URL(page.url()).pathname).toBe('/admin/dashboard');
    expect(await visible(page.getByRole('navigation').getByRole('link', { name: 'Super Agents' }))).toBe(true);
    expect(await visible(page.locator('aside').getByText('LOT', { exact: true }))).toBe(true);
  });

  it('on a phone the sidebar slides in and closes on the overlay', async () => {
    const page = await openPage(browser(), PHONE);
    await signIn(page, DEMO.user);
    const sidebar = page.locator('#sidebar');
    await attributeBecomes(sidebar, 'data-open', 'false');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await attributeBecomes(sidebar, 'data-open', 'true');
    await page.getByTestId('sidebar-overlay').click({ position: { x: 350, y: 400 } });
    await attributeBecomes(sidebar, 'data-open', 'false');
  });
});
