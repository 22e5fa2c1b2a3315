#!/usr/bin/env node
// Screenshots of the BOCH BOCH screens in every theme, at 1920×1080 and 375 px, with a game set up
// (participants chosen, one prize drawn) and the Numbers Left overlay:
//   node scripts/screenshot-game.mjs BASE_URL OUT_DIR username password
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [base, out, username, password] = process.argv.slice(2);
if (!password) throw new Error('usage: screenshot-game.mjs BASE_URL OUT_DIR username password');
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-quic'],
});
const players = ['Ana Lopez', 'Ben Okafor', 'Carla Diaz', 'Dev Patel', 'Eli Moreau', 'Fay Chen'];

/** The server keeps the game in play: Reset Game ends it (voided with a reason once something is drawn). */
async function resetGame(page) {
  if ((await page.getByTestId('game-code').count()) === 0) return;
  const button = page.getByRole('button', { name: /^(Reset Game|New Game)$/ });
  const label = await button.textContent();
  await button.click();
  if (label?.includes('New Game')) return;
  const dialog = page.getByRole('dialog', { name: 'Reset Game' });
  await dialog.waitFor();
  const reason = dialog.getByLabel('Reason');
  if (await reason.count()) await reason.fill('Screenshots');
  await dialog.getByRole('button', { name: /^(Reset Game|Void Game)$/ }).click();
  await dialog.waitFor({ state: 'hidden' });
}

for (const [name, viewport] of [
  ['1920', { width: 1920, height: 1080 }],
  ['375', { width: 375, height: 812 }],
]) {
  const page = await browser.newPage({ viewport });
  const shot = async (label, fullPage = true) => {
    const file = `${out}/${label}-${name}.png`;
    await page.screenshot({ path: file, fullPage });
    console.log(file);
  };
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/dashboard$/);
  await page.goto(`${base}/user/number-game`);
  await page.getByRole('link', { name: 'Play Now' }).waitFor();
  await shot('intro');

  await page.goto(`${base}/user/number-game/play`);
  await page.getByText('Total Pool').waitFor();
  await resetGame(page);
  await shot('play-empty-blue');
  const grid = page.getByRole('group', { name: 'Numbers' });
  for (const [i, player] of players.entries()) {
    await grid.getByRole('button', { name: String([3, 7, 8, 12, 15, 19][i]), exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
    await dialog.getByLabel('Name').fill(player);
    await dialog.getByLabel('Phone Number').fill(`555-01${10 + i}`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }
  for (const theme of ['White', 'Green', 'Blue', 'Orange']) {
    await page.getByRole('radio', { name: theme }).click();
    await shot(`play-selected-${theme.toLowerCase()}`);
  }
  await page.getByRole('radio', { name: 'Blue' }).click();
  await page.getByRole('button', { name: /Check Winner/ }).click();
  await page.getByTestId('winners-panel').waitFor();
  const winner = page.getByRole('dialog', { name: 'We Have a Winner!' });
  if (await winner.isVisible().catch(() => false)) {
    await shot('winner-popup', false);
    await winner.getByRole('button', { name: 'Continue' }).click();
  }
  for (const theme of ['White', 'Orange']) {
    await page.getByRole('radio', { name: theme }).click();
    await shot(`play-drawing-${theme.toLowerCase()}`);
  }
  await page.getByRole('button', { name: 'Numbers Left' }).click();
  await page.getByRole('dialog', { name: 'Numbers Left' }).waitFor();
  await shot('numbers-left', false);
  await page.keyboard.press('Escape');
  // Leave no game in play on the server and nothing in this browser profile.
  await resetGame(page);
  await page.evaluate(() => localStorage.clear());
  await page.close();
}
await browser.close();
