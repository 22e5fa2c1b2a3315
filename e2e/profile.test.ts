import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshUser, openPage, PHONE, signIn, useBrowser, visible } from './support.ts';

/** docs/product/screens.md#profile: the profile of the signed-in user, its logo, and Change Password. */

const browser = useBrowser();

let logoPath: string;
let secondLogoPath: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lot-profile-'));
  const square = async (background: string, name: string) => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background } })
      .png()
      .toBuffer();
    writeFileSync(join(dir, name), png);
    return join(dir, name);
  };
  logoPath = await square('#e11d48', 'shop-logo.png');
  secondLogoPath = await square('#2563eb', 'new-logo.png');
});

/** Waits until the sidebar shows a loaded logo that is the red square (or the blue one). */
async function sidebarLogoIs(page: Page, colour: 'red' | 'blue'): Promise<true> {
  await page.waitForFunction((wanted) => {
    const img = document.querySelector<HTMLImageElement>('#sidebar img');
    if (!img?.complete || img.naturalWidth === 0) return false;
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d');
    context?.drawImage(img, 0, 0);
    const [red = 0, , blue = 0] = context?.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data ?? [];
    return wanted === 'red' ? red > 200 && blue < 100 : blue > 200 && red < 100;
  }, colour);
  return true;
}

async function openProfile(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await page.waitForURL(/\/profile$/);
  await visible(page.getByRole('heading', { name: 'Edit Profile' }));
}

const sidebar = (page: Page) => page.locator('#sidebar');
const save = (page: Page) => page.getByRole('button', { name: 'Save Changes' });
const logoInput = (page: Page) => page.locator('input[type="file"]');

describe('profile: name and shop', () => {
  it('saves a new full name and shop name; the sidebar follows and a reload keeps them', async () => {
    const account = await freshUser('user');
    const page = await openPage(browser());
    await signIn(page, account);
    await openProfile(page);
    expect(await page.getByLabel('Full Name').inputValue()).toBe(account.fullName);

    await page.getByLabel('Full Name').fill('Rosa Marquez');
    await page.getByLabel('Shop Name').fill('Rosa Corner Shop');
    // Held back a moment so that the busy state can be seen.
    await page.route(`**/api/users/${account.id}`, async (route) => {
      if (route.request().method() === 'PUT') await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await save(page).click();
    expect(await visible(page.getByRole('button', { name: 'Saving...' }))).toBe(true);
    expect(await visible(page.getByText('Profile updated successfully'))).toBe(true);
    await page.unrouteAll();

    expect(await visible(sidebar(page).getByText('Rosa Marquez'))).toBe(true);
    expect(await visible(page.getByRole('region', { name: 'Your profile' }).getByText('Rosa Corner Shop'))).toBe(true);

    await page.reload();
    await visible(page.getByRole('heading', { name: 'Edit Profile' }));
    expect(await visible(sidebar(page).getByText('Rosa Marquez'))).toBe(true);
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Rosa Marquez');
    expect(await page.getByLabel('Shop Name').inputValue()).toBe('Rosa Corner Shop');
  });

  it('a blank Full Name is refused with the documented message and nothing is sent', async () => {
    const account = await freshUser('user');
    const page = await openPage(browser());
    await signIn(page, account);
    await openProfile(page);
    let sent = 0;
    page.on('request', (request) => {
      if (request.method() === 'PUT') sent += 1;
    });
    await page.getByLabel('Full Name').fill('   ');
    await save(page).click();
    expect(await visible(page.getByText('Full Name is required'))).toBe(true);
    expect(sent).toBe(0);
    expect(await sidebar(page).getByText(account.fullName).isVisible()).toBe(true);
  });
});

describe('profile: logo', () => {
  it('previews a chosen PNG, can drop it, and once saved the sidebar shows the logo; Remove logo brings the initial back', async () => {
    const account = await freshUser('user', { fullName: 'Logo Tester' });
    const page = await openPage(browser());
    await signIn(page, account);
    await openProfile(page);
    expect(await visible(page.getByText('JPG, PNG, GIF up to 5MB', { exact: true }))).toBe(true);
    expect(await logoInput(page).getAttribute('accept')).toBe('image/jpeg,image/png,image/gif');
    expect(await sidebar(page).locator('img').count()).toBe(0);

    // Choose, then drop the preview: nothing is uploaded.
    await logoInput(page).setInputFiles(logoPath);
    expect(await visible(page.getByRole('img', { name: 'Logo preview' }))).toBe(true);
    await page.getByRole('button', { name: 'Remove preview' }).click();
    expect(await page.getByRole('img', { name: 'Logo preview' }).count()).toBe(0);
    expect(await visible(page.getByText('No logo yet'))).toBe(true);

    // Choose again and save.
    await logoInput(page).setInputFiles(logoPath);
    await page.waitForFunction(
      () => (document.querySelector('img[alt="Logo preview"]') as HTMLImageElement | null)?.naturalWidth === 64,
    );
    await save(page).click();
    expect(await visible(page.getByText('Profile updated successfully'))).toBe(true);
    const sidebarLogo = sidebar(page).getByRole('img', { name: 'Logo Tester logo' });
    expect(await visible(sidebarLogo)).toBe(true);
    // A real image from the server (re-encoded there), not a broken link: the red square.
    expect(await sidebarLogoIs(page, 'red')).toBe(true);
    expect(await page.getByRole('img', { name: 'Logo preview' }).count()).toBe(0);

    // A new logo replaces it everywhere at once (the cached one is fetched again).
    await logoInput(page).setInputFiles(secondLogoPath);
    await save(page).click();
    expect(await visible(page.getByText('Profile updated successfully'))).toBe(true);
    expect(await sidebarLogoIs(page, 'blue')).toBe(true);

    // It survives a reload (hasLogo is persisted with the user; the server keeps the new image).
    await page.reload();
    expect(await visible(sidebarLogo)).toBe(true);
    expect(await sidebarLogoIs(page, 'blue')).toBe(true);

    // And it can be taken away again.
    await page.getByRole('button', { name: 'Remove logo' }).click();
    expect(await visible(page.getByText('Your logo will be removed when you save'))).toBe(true);
    await save(page).click();
    expect(await visible(page.getByText('Profile updated successfully'))).toBe(true);
    await sidebarLogo.waitFor({ state: 'detached' });
    expect(await sidebar(page).getByTestId('avatar-initial').textContent()).toBe('L');
  });

  it('refuses a file that is not an image or is over 5 MB before uploading, and shows the server refusing a fake PNG', async () => {
    const account = await freshUser('user');
    const page = await openPage(browser());
    await signIn(page, account);
    await openProfile(page);

    await logoInput(page).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    expect(await visible(page.getByText('Logo must be a JPG, PNG or GIF image'))).toBe(true);
    expect(await page.getByRole('img', { name: 'Logo preview' }).count()).toBe(0);

    await logoInput(page).setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
    });
    expect(await visible(page.getByText('Logo must be 5 MB or smaller'))).toBe(true);
    expect(await page.getByRole('img', { name: 'Logo preview' }).count()).toBe(0);

    // Named and typed as a PNG, but the bytes are not one: only the server can tell.
    await logoInput(page).setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('definitely not an image'),
    });
    expect(await visible(page.getByRole('img', { name: 'Logo preview unavailable' }))).toBe(true);
    expect(await visible(page.getByText('fake.png'))).toBe(true);
    const refused = page.waitForResponse((response) => response.request().method() === 'PUT');
    await save(page).click();
    expect((await refused).status()).toBe(415);
    expect(await visible(page.getByText('Logo must be a JPG, PNG or GIF image'))).toBe(true);
    expect(await sidebar(page).locator('img').count()).toBe(0);
  });
});

describe('profile: change password', () => {
  it('checks the confirmation, shows the server refusing a wrong current password, then changes it and keeps the session', async () => {
    const account = await freshUser('user', { password: 'first-pass-1' });
    const page = await openPage(browser());
    await signIn(page, account);
    await openProfile(page);
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    const open = () => page.getByRole('button', { name: 'Change Password' }).click();

    // Escape closes it.
    await open();
    await visible(dialog);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await open();
    await dialog.getByLabel('Current Password', { exact: true }).fill(account.password);
    await dialog.getByLabel('New Password', { exact: true }).fill('second-pass-2');
    await dialog.getByLabel('Confirm New Password', { exact: true }).fill('second-pass-3');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    expect(await visible(dialog.getByText('New passwords do not match'))).toBe(true);

    await dialog.getByLabel('Current Password', { exact: true }).fill('not-my-password');
    await dialog.getByLabel('Confirm New Password', { exact: true }).fill('second-pass-2');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    expect(await visible(dialog.getByText('Current password is incorrect'))).toBe(true);

    await dialog.getByLabel('Current Password', { exact: true }).fill(account.password);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    expect(await visible(page.getByText('Password changed successfully'))).toBe(true);
    await dialog.waitFor({ state: 'detached' });

    // The old token is dead on the server; the page goes on with the new one.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' }).click();
    await page.waitForURL(/\/transactions$/);
    await openProfile(page);
    expect(await page.getByLabel('Full Name').inputValue()).toBe(account.fullName);
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Edit Profile' }));
    expect(new URL(page.url()).pathname).toBe('/profile');

    // Sign out: the old password no longer works, the new one does.
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await visible(page.getByRole('alert').getByText('Invalid username or password'))).toBe(true);
    await signIn(page, { username: account.username, password: 'second-pass-2' });
    expect(new URL(page.url()).pathname).toBe('/user/dashboard');
  });
});

describe('profile: states and small screens', () => {
  it('a failed load shows an error panel whose Try Again loads the profile', async () => {
    const account = await freshUser('user');
    const page = await openPage(browser());
    await signIn(page, account);
    await page.route(`**/api/users/${account.id}`, (route) => route.abort());
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    expect(await visible(page.getByRole('button', { name: 'Try Again' }), 20_000)).toBe(true);
    expect(await page.getByRole('heading', { name: 'Edit Profile' }).count()).toBe(0);
    await page.unrouteAll();
    await page.getByRole('button', { name: 'Try Again' }).click();
    expect(await visible(page.getByRole('heading', { name: 'Edit Profile' }))).toBe(true);
  });

  it('on a phone the whole screen fits the width and the form still saves', async () => {
    const account = await freshUser('user');
    const page = await openPage(browser(), PHONE);
    await signIn(page, account);
    await page.goto('/profile');
    await visible(page.getByRole('heading', { name: 'Edit Profile' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByLabel('Shop Name').fill('Pocket Shop');
    await save(page).click();
    expect(await visible(page.getByText('Profile updated successfully'))).toBe(true);
    expect(await visible(page.getByRole('region', { name: 'Your profile' }).getByText('Pocket Shop'))).toBe(true);
    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
