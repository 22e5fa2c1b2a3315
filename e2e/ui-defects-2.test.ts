import { describe, expect, it } from 'vitest';
import { apiAs, DEMO, DESKTOP, freshUser, login, openPage, PHONE, signIn, useBrowser, visible } from './support.ts';

/** Defects found by trying every screen (second round), each held by a test. */
describe('the second round of defects stays fixed', () => {
  const browser = useBrowser();

  it("a dashboard figure that fails reads 'Couldn't load', without its change line, as tall as its neighbours", async () => {
    const page = await openPage(browser());
    // The agents count fails; the other figures load.
    await page.route('**/api/users/role/agent?*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down","code":"INTERNAL"}' }),
    );
    await signIn(page, DEMO.admin);
    const failed = page.getByTestId('stat-agents');
    await visible(failed.getByText("Couldn't load"));
    await page.getByTestId('stat-users').getByTestId('change').waitFor();
    expect(await failed.textContent()).not.toContain('in the last 30 days');
    expect(await page.getByTestId('stat-users').textContent()).toContain('in the last 30 days');
    // Side by side on a wide screen, the three cards of the first row are equally tall; on a phone each has its row.
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      if (viewport === PHONE) {
        await page.screenshot({ path: `/tmp/d/dashboard-failed-${viewport.width}.png` });
        continue;
      }
      const heights = await Promise.all(
        ['stat-users', 'stat-superagents', 'stat-agents'].map(async (id) =>
          Math.round((await page.getByTestId(id).locator(':scope > div').boundingBox())?.height ?? 0),
        ),
      );
      expect(new Set(heights).size, `heights at ${viewport.width}px: ${heights.join(', ')}`).toBe(1);
      await page.screenshot({ path: `/tmp/d/dashboard-failed-${viewport.width}.png`, fullPage: false });
    }
  });

  it("an inactive user's Transfer is disabled on the agent's list and says why", async () => {
    const superagent = await freshUser('superagent');
    const agent = await freshUser('agent', { parentId: superagent.id });
    const active = await freshUser('user', { parentId: agent.id, fullName: 'Active Receiver' });
    const inactive = await freshUser('user', { parentId: agent.id, fullName: 'Inactive Receiver' });
    await apiAs(DEMO.admin, `/api/users/${inactive.id}`, { method: 'PUT', body: { status: 'inactive' } });
    const page = await openPage(browser());
    await signIn(page, login(agent));
    await page.goto('/agent/users');
    const row = page.getByTestId('user-row').filter({ hasText: inactive.username });
    const transfer = row.getByRole('button', { name: 'Transfer' });
    await visible(transfer);
    expect(await transfer.isDisabled()).toBe(true);
    expect(await transfer.getAttribute('title')).toBe(
      'Inactive Receiver is inactive: funds can only be sent to active users',
    );
    const open = page
      .getByTestId('user-row')
      .filter({ hasText: active.username })
      .getByRole('button', { name: 'Transfer' });
    expect(await open.isDisabled()).toBe(false);
    await page.screenshot({ path: '/tmp/d/agent-users-inactive.png' });
  });
});
