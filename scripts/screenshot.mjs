#!/usr/bin/env node
// Screenshots of the running app in Debian's Chromium, at 1280 px and 375 px:
//   node scripts/screenshot.mjs BASE_URL OUT_DIR [username password] path...
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [base, out, ...rest] = process.argv.slice(2);
const login = rest.length >= 2 && !rest[0].startsWith('/') ? rest.splice(0, 2) : null;
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
});
for (const [name, width] of [
  ['desktop', 1280],
  ['phone', 375],
]) {
  const page = await browser.newPage({ viewport: { width, height: width === 375 ? 812 : 860 } });
  if (login) {
    await page.goto(`${base}/login`);
    await page.getByLabel('Username').fill(login[0]);
    await page.getByLabel('Password').fill(login[1]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 10_000 });
  }
  for (const path of rest) {
    await page.goto(`${base}${path}`);
    await page.waitForLoadState('networkidle');
    const file = `${out}/${path.replace(/\W+/g, '_') || 'root'}-${name}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await page.close();
}
await browser.close();
