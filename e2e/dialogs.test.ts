import { describe, expect, it } from 'vitest';
import { DEMO, hidden, openPage, PHONE, signIn, useBrowser, visible } from './support.ts';

/** Every dialog is the one Modal on the native <dialog> (docs/decisions/019-dialogs-on-the-native-dialog.md). */
describe('a dialog', () => {
  const browser = useBrowser();

  it('keeps Tab inside, leaves the page behind inert, closes on Escape and gives focus back', async () => {
    const page = await openPage(browser());
    await signIn(page, DEMO.admin);
    await page.goto('/admin/winners');
    const opener = page.getByRole('button', { name: 'Add Winner Configuration' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Add Winner Configuration' });
    await visible(dialog);
    await page.screenshot({ path: 'test-results/screenshots/dialog-1280.png' });
    // Focus starts on the first field, and 25 Tabs never reach the page behind (after the dialog's
    // last control the browser may take focus to its own toolbar: then nothing in the page has it).
    expect(await page.evaluate(() => document.activeElement?.tagName)).toMatch(/INPUT|SELECT|TEXTAREA/);
    const visited = new Set<string>();
    for (let tab = 0; tab < 25; tab++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const focused = document.activeElement;
        if (!focused || focused === document.body) return 'browser';
        return focused.closest('dialog[open]')
          ? `${focused.tagName}:${focused.textContent}:${focused.id}`
          : 'page behind';
      });
      expect(where).not.toBe('page behind');
      visited.add(where);
    }
    expect(visited.size).toBeGreaterThan(5);
    // The page behind cannot be clicked: the sidebar's Dashboard link is under the backdrop.
    const link = page.getByRole('link', { name: 'Dashboard' }).first();
    const box = await link.boundingBox();
    if (!box) throw new Error('no Dashboard link');
    await page.mouse.click(box.x + 5, box.y + box.height / 2);
    // The backdrop click closes the dialog, and nothing behind it was followed.
    await hidden(dialog);
    expect(new URL(page.url()).pathname).toBe('/admin/winners');

    await opener.click();
    await visible(dialog);
    await page.keyboard.press('Escape');
    await hidden(dialog);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Add Winner Configuration');
  });

  it('opens as a sheet from the bottom on a phone, and its close button closes it', async () => {
    const page = await openPage(browser(), PHONE);
    await signIn(page, DEMO.admin);
    await page.goto('/admin/winners');
    await page.getByRole('button', { name: 'Add Winner Configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Winner Configuration' });
    await visible(dialog);
    await page.screenshot({ path: 'test-results/screenshots/dialog-375.png' });
    const box = await dialog.boundingBox();
    expect(box && Math.round(box.y + box.height)).toBe(PHONE.height);
    expect(box && Math.round(box.width)).toBe(PHONE.width);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await hidden(dialog);
  });
});
