#!/usr/bin/env node
// Screenshots of the BOCH BOCH screens at 1280 px and 375 px (the customer display at 1920×1080 and
// 375 px), with a LOT-DRAW-2 game played through: participants chosen, the draw waiting for its
// beacon round (with its countdown), each draw, the settled game, its slips; and the shop's
// LOT-DRAW-1 demo games (labelled), the Numbers Left overlay and every theme:
//   node scripts/screenshot-game.mjs BASE_URL OUT_DIR username password [BEACON_URL]
// The server must draw against a beacon (DRAW_BEACON=required, e.g. the test beacon with
// `--period 3`); the shop needs a balance, and its demo games (npm run seed:demo) for the LOT-DRAW-1
// shots. BEACON_URL (a chain other than drand quicknet) is pinned on the display, so its end-of-game
// check can verify the game.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [base, out, username, password, beaconUrl] = process.argv.slice(2);
if (!password) throw new Error('usage: screenshot-game.mjs BASE_URL OUT_DIR username password');
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-quic'],
});
/** The display's address query pinning BEACON_URL's chain (key, genesis, period from the beacon itself). */
let pins = '';
if (beaconUrl) {
  const info = await (await fetch(`${beaconUrl}/info`)).json();
  pins = `?${new URLSearchParams({ chain: info.hash, publicKey: info.public_key, genesisTime: String(info.genesis_time), period: String(info.period) })}`;
}
const players = ['Ana Lopez', 'Ben Okafor', 'Carla Diaz', 'Dev Patel', 'Eli Moreau', 'Fay Chen'];

async function signIn(page) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/dashboard$/);
}

const api = async (page, path, init = {}) =>
  page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, {
        method: init.method ?? 'GET',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('token')}` },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    { path, init },
  );

/** The server keeps the game in play: an open one is reset; a frozen one is drawn to its end. */
async function endGame(page) {
  const current = await api(page, '/api/games/current');
  const game = current.body;
  if (current.status !== 200 || !game) return;
  if (game.status === 'open') {
    await api(page, `/api/games/${game.id}/void`, { method: 'POST', body: { reason: 'Screenshots' } });
    return;
  }
  for (let position = game.draws.length + 1; position <= game.prizes.length;) {
    const answer = await api(page, `/api/games/${game.id}/draws`, { method: 'POST', body: { position } });
    if (answer.status === 202) await page.waitForTimeout(Math.max(200, answer.body.retryAfterMs));
    else position++;
  }
}

/**
 * Holds every draw request after the first (the freeze) until `release()`: the game waits for its
 * round as long as the screenshots need, as it would while the beacon is late.
 */
async function holdDraws(page) {
  let seen = 0;
  let release;
  const released = new Promise((resolve) => (release = resolve));
  await page.route('**/api/games/*/draws', async (route) => {
    if (seen++ > 0) await released;
    await route.continue();
  });
  return release;
}

/** Waits until a beacon round has just begun, so the round the freeze names is a whole period away. */
async function justAfterRound(page) {
  const { body: game } = await api(page, '/api/games/current');
  const { genesisTime, period } = game.beacon;
  const into = (Date.now() / 1000 - genesisTime) % period;
  await page.waitForTimeout(((period - into) % period) * 1000 + 100);
}

for (const [name, viewport, room] of [
  ['1280', { width: 1280, height: 860 }, { width: 1920, height: 1080 }],
  ['375', { width: 375, height: 812 }, { width: 375, height: 812 }],
]) {
  const page = await browser.newPage({ viewport });
  const display = await browser.newPage({ viewport: room });
  const shot = async (label, fullPage = true, target = page) => {
    const file = `${out}/${label}-${name}.png`;
    await target.screenshot({ path: file, fullPage });
    console.log(file);
  };
  await signIn(page);
  await endGame(page);
  await page.goto(`${base}/user/number-game`);
  await page.getByRole('link', { name: 'Play Now' }).waitFor();
  await shot('intro');

  await page.goto(`${base}/user/number-game/play`);
  await page.getByText('Total Pool').waitFor();
  await shot('play-empty-blue');
  const grid = page.getByRole('group', { name: 'Numbers' });
  for (const [i, player] of players.entries()) {
    await grid.getByRole('button', { name: String([3, 7, 8, 12, 15, 19][i]), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
    await dialog.getByLabel('Name').fill(player);
    await dialog.getByLabel('Phone Number').fill(`555-01${10 + i}`);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
  for (const theme of ['White', 'Green', 'Blue', 'Orange']) {
    await page.getByRole('radio', { name: theme }).click();
    await shot(`play-selected-${theme.toLowerCase()}`);
  }
  await page.getByRole('radio', { name: 'Blue' }).click();
  const code = (await page.getByTestId('game-code').textContent()).trim();
  await display.goto(`${base}/display/${code}${pins}`);
  await display.getByTestId('display-connection').filter({ hasText: 'Live' }).waitFor();

  // The first press freezes the game; the draw waits for its beacon round.
  const release = await holdDraws(page);
  await justAfterRound(page);
  await page.getByRole('button', { name: /Check Winner/ }).click();
  await page.getByTestId('beacon-countdown').waitFor();
  await display.getByTestId('beacon-countdown').waitFor();
  await shot('play-waiting', false);
  await shot('display-waiting', false, display);
  await page.getByTestId('beacon-wait').and(page.locator('[data-state="due"]')).waitFor();
  await shot('play-waiting-due', false);
  release();
  await page.getByRole('button', { name: /Check Winner \(1\// }).waitFor();
  const winner = page.getByRole('dialog', { name: 'We Have a Winner!' });
  if (await winner.isVisible().catch(() => false)) {
    await shot('winner-popup', false);
    await winner.getByRole('button', { name: 'Continue' }).click();
  }
  await shot('play-drawing-blue');
  await shot('display-drawing', false, display);
  await page.getByRole('button', { name: 'Numbers Left' }).click();
  await page.getByRole('dialog', { name: 'Numbers Left' }).waitFor();
  await shot('numbers-left', false);
  await page.keyboard.press('Escape');
  for (let drawn = 2; ; drawn++) {
    const check = page.getByRole('button', { name: /Check Winner/ });
    if ((await check.getAttribute('aria-disabled')) === 'true') break;
    await check.click();
    await page.getByRole('button', { name: new RegExp(`Check Winner \\(${drawn}/`) }).waitFor();
    const popup = page.getByRole('dialog', { name: 'We Have a Winner!' });
    if (await popup.isVisible().catch(() => false)) await popup.getByRole('button', { name: 'Continue' }).click();
  }
  await page.getByTestId('game-saved').waitFor();
  await shot('play-settled');
  await display.getByTestId('display-verdict').waitFor({ timeout: 15_000 });
  await display.waitForTimeout(4_000);
  await shot('display-settled', false, display);

  // The slips of the LOT-DRAW-2 game: the entry slips (entry code, QR with it) and the result slip.
  await page.getByRole('link', { name: 'Slips', exact: true }).click();
  await page.getByTestId('result-slip').waitFor();
  await shot('slips-lot-draw-2');
  await page
    .getByTestId('entry-slip')
    .first()
    .screenshot({ path: `${out}/slip-entry-lot-draw-2-${name}.png` });
  await page.getByTestId('result-slip').screenshot({ path: `${out}/slip-result-lot-draw-2-${name}.png` });

  // A LOT-DRAW-1 demo game of this shop: labelled on its slips and on the display.
  const { body: games } = await api(page, '/api/games?status=settled');
  const demo = games.find((g) => g.protocol === 'LOT-DRAW-1');
  if (demo) {
    await page.goto(`${base}/user/number-game/slips/${demo.id}`);
    await page.getByTestId('result-slip').waitFor();
    await shot('slips-lot-draw-1');
    await page
      .getByTestId('entry-slip')
      .first()
      .screenshot({ path: `${out}/slip-entry-lot-draw-1-${name}.png` });
    await display.goto(`${base}/display/${demo.code}`);
    await display.getByTestId('display-verdict').waitFor({ timeout: 15_000 });
    await shot('display-lot-draw-1', false, display);
  }
  await page.getByRole('link', { name: 'Back to the game' }).click();
  await page
    .getByRole('button', { name: 'New Game' })
    .click()
    .catch(() => undefined);
  await page.evaluate(() => localStorage.clear());
  await page.close();
  await display.close();
}
await browser.close();
