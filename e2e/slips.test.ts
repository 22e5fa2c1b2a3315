import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskName, maskPhone } from '@lot/domain/mask';
import type { DrawWaiting, Game, GameSummary } from '@lot/domain/schemas/games';
import {
  apiAs,
  baseUrl,
  decodeQr,
  DEMO,
  DESKTOP,
  drawPosition,
  freshUser,
  login,
  PHONE,
  playGame,
  publicUrl,
  screenshotOnFailure,
  sessionOf,
  signIn,
  useBrowser,
  visible,
  type Account,
  type GameEntry,
} from './support.ts';

/**
 * docs/product/game.md#slips: a shop prints entry slips and the result slip of a real game (played
 * through the API), on a 58 mm or 80 mm roll or on A4. Each print is counted by the server first;
 * the printed PDF is read back with Poppler: page width, text, and the QR code decoded from the
 * rendered page by a real decoder.
 */

const browser = useBrowser();

const SHOP_NAME = 'The Extraordinarily Long-Named Corner Shop of Lucky Numbers';
const ENTRIES: GameEntry[] = [
  { number: 1, name: 'Bartholomew Alexander Montgomery-Worthington', phoneNumber: '+44 7700 900123' },
  { number: 4, name: 'Ana Lu', phoneNumber: '555-2004' },
  { number: 5, name: 'Chidi Okafor', phoneNumber: '555 3005' },
];
const MM_TO_PT = 72 / 25.4;
const MM_TO_PX = 96 / 25.4;

let user: Account;
let game: Game;
let page: Page;
let workDir: string;
/** Every slip PDF's text, checked at the end for names and phones in full. */
const printedTexts: string[] = [];

const SERVER_RANDOMNESS_ONLY = 'Server randomness only: whoever holds the seed could know the outcome';

const slipsUrl = () => `/user/number-game/slips/${game.id}`;
/** Under the server's PUBLIC_URL (e2e/global-setup.ts), not the address the tests open. */
const verifyUrl = () => `${publicUrl()}/verify/${game.code}`;
/** An entry slip's QR code: the proof, the person's nonce after `#` (never sent to a server). */
const entryUrl = (number: number) => `${verifyUrl()}#n=${nonceOf(number)}`;
function nonceOf(number: number): string {
  const nonce = game.entries.find((entry) => entry.number === number)?.nonce;
  if (!nonce) throw new Error(`no nonce for number ${number}`);
  return nonce;
}
/** The nonce as printed: in fours, `a1b2 c3d4 e5f6 0718`. */
const grouped = (nonce: string) => nonce.match(/.{4}/g)?.join(' ') ?? '';
/** The protocol line of a LOT-DRAW-2 slip once the draw has started. */
const publicRandomness = (target: Game) => `LOT-DRAW-2 Public randomness: drand round ${target.beacon?.round}`;
const printsRecorded = (target: Page) => target.evaluate(() => (window as Window & { prints?: number }).prints ?? 0);

/** A 64 px red square PNG for the shop's logo. */
async function logoPng(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width: 64, height: 64, channels: 3, background: '#e11d48' } })
    .png()
    .toBuffer();
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'lot-slips-'));
  user = await freshUser('user', { fullName: 'Slip Shop Owner' });
  await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: user.id, amount: '1000' } });
  for (const [index, [name, percent]] of [
    ['Jackpot', '50'],
    ['Runner-up', '25'],
  ].entries()) {
    await apiAs(login(user), '/api/winners', { body: { name, percent, position: index + 1, isActive: true } });
  }
  // The shop's name and logo, as the profile page sends them (multipart).
  const signin = (await (
    await fetch(`${baseUrl()}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(login(user)),
    })
  ).json()) as { accessToken: string };
  const form = new FormData();
  form.set('shopName', SHOP_NAME);
  form.set('logo', new Blob([new Uint8Array(await logoPng())], { type: 'image/png' }), 'logo.png');
  const profile = await fetch(`${baseUrl()}/api/users/${user.id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${signin.accessToken}` },
    body: form,
  });
  if (!profile.ok) throw new Error(`profile: ${profile.status} ${await profile.text()}`);

  game = await playGame(login(user), { startRange: 1, endRange: 5, bet: 10, entries: ENTRIES });

  const context = await browser().newContext({ viewport: DESKTOP, baseURL: baseUrl() });
  // window.print opens a dialog headless Chromium cannot close: count the calls instead.
  await context.addInitScript(() => {
    const recorder = window as Window & { prints?: number };
    recorder.prints = 0;
    window.print = () => {
      recorder.prints = (recorder.prints ?? 0) + 1;
    };
  });
  page = await context.newPage();
  await signIn(page, login(user));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

type Printed = {
  pages: { width: number; height: number }[];
  text: string;
  /** The text as laid out on the page (pdftotext -layout): a line keeps what sits side by side. */
  layout: string;
  images: Buffer[];
  /** Each slip's height in millimetres. */
  slipHeights: number[];
};

/**
 * What the browser prints now: in print media, each slip of the print sheet must fit its paper (no
 * content wider than the slip, no part outside it); then the PDF with the page's own @page size,
 * read back with pdfinfo, pdftotext and pdftoppm (200 dpi).
 */
async function printToPdf(target: Page, paperMm: number | null, name: string): Promise<Printed> {
  await target.emulateMedia({ media: 'print' });
  const slips = await target.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.slip-print-sheet .slip'), (slip) => {
      const box = slip.getBoundingClientRect();
      const outside = Array.from(slip.querySelectorAll<HTMLElement>('*')).filter((element) => {
        const inner = element.getBoundingClientRect();
        return inner.width > 0 && (inner.left < box.left - 0.5 || inner.right > box.right + 0.5);
      });
      return {
        scrollWidth: slip.scrollWidth,
        clientWidth: slip.clientWidth,
        left: box.left,
        right: box.right,
        height: box.height,
        outside: outside.map((element) => element.getAttribute('class') ?? element.tagName),
      };
    }),
  );
  expect(slips.length).toBeGreaterThan(0);
  for (const slip of slips) {
    expect(slip.scrollWidth).toBeLessThanOrEqual(slip.clientWidth);
    expect(slip.outside).toEqual([]);
    expect(slip.left).toBeGreaterThanOrEqual(0);
    if (paperMm !== null) expect(slip.right).toBeLessThanOrEqual(paperMm * MM_TO_PX + 0.5);
  }
  const pdf = await target.pdf({ preferCSSPageSize: true, printBackground: true });
  await target.emulateMedia({ media: 'screen' });

  const dir = mkdtempSync(join(workDir, `${name}-`));
  const file = join(dir, 'slips.pdf');
  writeFileSync(file, pdf);
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '999', file], { encoding: 'utf8' });
  const pages = [...info.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((match) => ({
    width: Number(match[1]),
    height: Number(match[2]),
  }));
  // In reading order, whitespace made single: a name wrapped over two lines reads as one.
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  const layout = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  printedTexts.push(text);
  execFileSync('pdftoppm', ['-png', '-r', '200', file, join(dir, 'page')]);
  const images = readdirSync(dir)
    .filter((entry) => entry.endsWith('.png'))
    .sort()
    .map((entry) => readFileSync(join(dir, entry)));
  return { pages, text, layout, images, slipHeights: slips.map((slip) => slip.height / MM_TO_PX) };
}

function keepScreenshot(image: Buffer | undefined, name: string) {
  if (!image) throw new Error(`no page image for ${name}`);
  mkdirSync('test-results/screenshots', { recursive: true });
  writeFileSync(`test-results/screenshots/${name}.png`, image);
}

async function choosePaper(target: Page, label: '58 mm' | '80 mm' | 'A4 / Letter') {
  await target.getByText(label, { exact: true }).click();
  expect(await target.getByRole('radio', { name: label }).isChecked()).toBe(true);
}

/** Clicks a Print button and waits until the browser's print was called once more. */
async function clickPrint(target: Page, name: string) {
  const before = await printsRecorded(target);
  await target.getByRole('button', { name, exact: true }).click();
  await expect
    .poll(() => printsRecorded(target), { message: `${name}: window.print was not called` })
    .toBeGreaterThan(before);
}

/** The white beside the printed marks on a page image (200 dpi), left and right, in millimetres. */
async function sideMargins(png: Buffer): Promise<{ left: number; right: number }> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let [first, last] = [info.width, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if ((data[y * info.width + x] ?? 255) < 128) [first, last] = [Math.min(first, x), Math.max(last, x)];
  const mm = 25.4 / 200;
  return { left: first * mm, right: (info.width - 1 - last) * mm };
}

/** Each page is the roll's width and at least as long as its slip: nothing is cut or spills over. */
function expectRollPages(printed: Printed, paperMm: number) {
  printed.pages.forEach((size, index) => {
    expect(Math.abs(size.width - paperMm * MM_TO_PT)).toBeLessThan(0.6);
    expect(size.height).toBeGreaterThanOrEqual((printed.slipHeights[index] ?? Infinity) * MM_TO_PT);
  });
}

/** The result slip as printed: settled, each draw with its number beside it and its winner masked (or No winner). */
function expectResult(printed: Printed) {
  expect(printed.text).toMatch(/SETTLED/);
  for (const draw of game.draws) {
    const prize = game.prizes.find((p) => p.position === draw.position);
    // The draw's lines: from its position to the next one (or the totals).
    const [line = '', ...next] = printed.layout.split(`#${draw.position} ${prize?.name}`)[1]?.split('\n') ?? [];
    expect(line.trim()).toBe(String(draw.number));
    const following =
      next
        .join('\n')
        .split(/#\d+ |Pool/)[0]
        ?.replace(/\s/g, '')
        // A long masked name wraps, and the layout may put the prize or the masked phone between
        // its lines: the name is read without them.
        .replace(/\$[\d,]+\.\d{2}|·\*+\d+/g, '') ?? '';
    expect(following).toContain(draw.winner ? maskName(draw.winner.name).replace(/\s/g, '') : 'Nowinner');
  }
}

const copies = (text: string) => text.match(/COPY · printed \d+ times/g) ?? [];

describe('slips of a played game', () => {
  it('shows an entry slip per participant, masked, and the result slip with its draws, on a desktop and a phone', async () => {
    screenshotOnFailure(page);
    await page.goto(slipsUrl());
    const entrySlips = page.getByTestId('entry-slip');
    await expect.poll(() => entrySlips.count()).toBe(ENTRIES.length);
    for (const entry of ENTRIES) {
      const slip = page.locator(`[data-testid="entry-slip"][data-number="${entry.number}"]`);
      const text = await slip.innerText();
      expect(text).toContain(maskName(entry.name));
      expect(text).toContain(maskPhone(entry.phoneNumber));
      expect(text).not.toContain(entry.name);
      expect(text).toContain(SHOP_NAME);
      expect(text).toContain(game.code);
      // The person's entry code, in fours, and how the game was drawn.
      expect(await slip.getByTestId('slip-nonce').innerText()).toBe(grouped(nonceOf(entry.number)));
      expect(text).toMatch(/Entry code/i);
      expect(await slip.getByTestId('slip-protocol').textContent()).toBe(publicRandomness(game));
      // The game log its freeze goes into, and who witnesses it (this server: nobody).
      await expect.poll(() => slip.getByTestId('slip-log-origin').count()).toBe(1);
      expect(await slip.getByTestId('slip-log-origin').innerText()).toMatch(/^Game log: .*\/games$/);
      expect(await slip.getByTestId('slip-witnesses').innerText()).toBe('Freezes not witnessed');
      expect(await page.getByTestId(`print-count-${entry.number}`).innerText()).toBe('Not printed yet');
    }
    const result = page.getByTestId('result-slip');
    expect(await page.getByTestId('slip-status').innerText()).toMatch(/settled/i);
    expect(await result.getByTestId('slip-protocol').textContent()).toBe(publicRandomness(game));
    expect(await result.getByTestId('slip-draw').count()).toBe(game.draws.length);
    const resultText = await result.innerText();
    for (const draw of game.draws) {
      expect(resultText).toContain(draw.winner ? maskName(draw.winner.name) : 'No winner');
    }
    // PUBLIC_URL is set: the printed link and every QR code start with it, and no warning shows.
    expect(publicUrl()).not.toBe(baseUrl());
    expect(await result.locator('.slip-url').innerText()).toBe(verifyUrl());
    expect(await result.locator('.slip-proof').getAttribute('data-qr')).toBe(verifyUrl());
    for (const entry of ENTRIES) {
      const proof = page.locator(`[data-testid="entry-slip"][data-number="${entry.number}"] .slip-proof`);
      expect(await proof.getAttribute('data-qr')).toBe(entryUrl(entry.number));
    }
    expect(await page.getByTestId('public-url-warning').count()).toBe(0);
    // The logo came with the session: it shows on the slips once loaded.
    await visible(page.locator('[data-testid="entry-slip"] img.slip-logo'));
    mkdirSync('test-results/screenshots', { recursive: true });
    await page.screenshot({ path: 'test-results/screenshots/slips-page-1280.png', fullPage: true });

    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: 'test-results/screenshots/slips-page-375.png', fullPage: true });
    await page.setViewportSize(DESKTOP);
  });

  it('without PUBLIC_URL links use the address the page came in on, and a local one is warned of', async () => {
    screenshotOnFailure(page);
    // What a server without PUBLIC_URL answers to a page opened on 127.0.0.1.
    await page.route('**/api/public-url', (route) =>
      route.fulfill({ json: { publicUrl: baseUrl(), configured: false } }),
    );
    try {
      await page.reload();
      const warning = page.getByTestId('public-url-warning');
      await visible(warning);
      const text = await warning.innerText();
      expect(text).toContain('Customers’ phones cannot open these QR codes');
      expect(text).toContain(baseUrl());
      expect(text).toContain('PUBLIC_URL');
      expect(await page.getByTestId('result-slip').locator('.slip-url').innerText()).toBe(
        `${baseUrl()}/verify/${game.code}`,
      );
      await page.screenshot({ path: 'test-results/screenshots/slips-page-warning-1280.png' });
    } finally {
      await page.unroute('**/api/public-url');
    }
    await page.reload();
    await visible(page.getByTestId('result-slip'));
    expect(await page.getByTestId('public-url-warning').count()).toBe(0);
  });

  it('prints on a 58 mm roll: every entry slip and the result slip, one page each, 58 mm wide, the QR code opening the proof', async () => {
    screenshotOnFailure(page);
    await choosePaper(page, '58 mm');
    await clickPrint(page, 'Print all entry slips');
    const printed = await printToPdf(page, 58, '58mm');

    expect(printed.pages).toHaveLength(ENTRIES.length);
    expectRollPages(printed, 58);
    // Each person's slip: its QR code opens the proof with their nonce, which is printed on it too.
    for (const [index, entry] of ENTRIES.entries()) {
      expect(await decodeQr(printed.images[index] ?? Buffer.alloc(0))).toEqual([entryUrl(entry.number)]);
      expect(printed.text).toContain(grouped(nonceOf(entry.number)));
    }
    expect(printed.text).toContain(`Public randomness: drand round ${game.beacon?.round}`);
    const unspaced = printed.text.replace(/\s/g, '');
    for (const entry of ENTRIES) expect(unspaced).toContain(maskName(entry.name).replace(/\s/g, ''));
    expect(copies(printed.text)).toEqual([]);
    keepScreenshot(printed.images[0], 'slips-58mm');
    for (const entry of ENTRIES) {
      // The counts come back from the server after a print.
      await expect
        .poll(() => page.getByTestId(`print-count-${entry.number}`).textContent())
        .toMatch(/^Printed once · last /);
    }

    await clickPrint(page, 'Print result slip');
    const result = await printToPdf(page, 58, '58mm-result');
    expect(result.pages).toHaveLength(1);
    expectRollPages(result, 58);
    expect(await decodeQr(result.images[0] ?? Buffer.alloc(0))).toEqual([verifyUrl()]);
    expectResult(result);
    expect(copies(result.text)).toEqual([]);
    keepScreenshot(result.images[0], 'slips-58mm-result');
  });

  it('prints the result slip again on an 80 mm roll: 80 mm wide, the draws and masked winners, and COPY with the count', async () => {
    screenshotOnFailure(page);
    await choosePaper(page, '80 mm');
    await clickPrint(page, 'Print result slip');
    const printed = await printToPdf(page, 80, '80mm');

    expect(printed.pages).toHaveLength(1);
    expectRollPages(printed, 80);
    expect(await decodeQr(printed.images[0] ?? Buffer.alloc(0))).toEqual([verifyUrl()]);
    expectResult(printed);
    expect(copies(printed.text)).toEqual(['COPY · printed 2 times']);
    await expect.poll(() => page.getByTestId('print-count-result').textContent()).toMatch(/^Printed 2 times · last /);
    keepScreenshot(printed.images[0], 'slips-80mm');
  });

  it('prints the entry slips on A4 with margins, several to a sheet, each a COPY now; the paper is remembered on this device', async () => {
    screenshotOnFailure(page);
    await choosePaper(page, 'A4 / Letter');
    await clickPrint(page, 'Print all entry slips');
    const printed = await printToPdf(page, null, 'a4');

    // Two rows of two fit the sheet's 277 mm between its margins (5 mm between the rows).
    for (const height of printed.slipHeights) expect(height).toBeLessThan(136);
    expect(printed.pages).toHaveLength(1);
    expect(Math.abs((printed.pages[0]?.width ?? 0) - 210 * MM_TO_PT)).toBeLessThan(1);
    expect(copies(printed.text)).toEqual(ENTRIES.map(() => 'COPY · printed 2 times'));
    // The two columns sit in the middle of the sheet: as much white on the left as on the right.
    const margins = await sideMargins(printed.images[0] ?? Buffer.alloc(0));
    expect(margins.left).toBeGreaterThanOrEqual(10);
    expect(Math.abs(margins.left - margins.right)).toBeLessThan(1);
    keepScreenshot(printed.images[0], 'slips-a4');

    await page.reload();
    await visible(page.getByTestId('entry-slip'));
    expect(await page.getByRole('radio', { name: 'A4 / Letter' }).isChecked()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('slipWidth'))).toBe('a4');
  });

  it('prints nothing when the print cannot be recorded, and says so', async () => {
    screenshotOnFailure(page);
    const before = await printsRecorded(page);
    await page.route('**/slips/prints', (route) => route.abort('internetdisconnected'));
    try {
      await page.getByRole('button', { name: 'Print entry slip 4', exact: true }).click();
      await visible(page.getByRole('alert').filter({ hasText: 'nothing was printed' }));
    } finally {
      await page.unroute('**/slips/prints');
    }
    expect(await printsRecorded(page)).toBe(before);
    const counted = await apiAs<{ number: number | null; printCount: number }[]>(
      login(user),
      `/api/games/${game.id}/slips`,
    );
    expect(counted.find((slip) => slip.number === 4)?.printCount).toBe(2);
  });

  it('never prints a participant name or phone in full', () => {
    expect(printedTexts.length).toBeGreaterThan(0);
    const all = printedTexts.join('\n');
    for (const entry of ENTRIES) {
      for (const word of entry.name.split(/\s+/)) expect(all).not.toMatch(new RegExp(`\\b${word}\\b`));
      expect(all).not.toContain(entry.phoneNumber);
      expect(all).not.toContain(entry.phoneNumber.replace(/\D/g, ''));
    }
  });
});

describe('slips of a game not ended', () => {
  it('prints a customer’s slip on the play screen as their entry is saved (its row prints a COPY), offers the entry slips of a game in play (linked from there), the result slip only once it ends, and none for a discarded game', async () => {
    screenshotOnFailure(page);
    const call = await sessionOf(login(user));
    const opened = await call<Game>('/api/games', { body: { startRange: 1, endRange: 5, betAmount: '5.00' } });
    await call<Game>(`/api/games/${opened.id}/entries`, { method: 'PUT', body: { entries: ENTRIES.slice(0, 2) } });

    // The sale in one screen: the next customer's entry is saved and their slip prints, on the
    // paper chosen on this device, without leaving the play screen.
    await page.goto('/user/number-game/play');
    const [, , next] = ENTRIES;
    if (!next) throw new Error('no third entry');
    await page
      .getByRole('group', { name: 'Numbers' })
      .getByRole('button', { name: String(next.number), exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Enter Participant Details' });
    await dialog.getByLabel('Name').fill(next.name);
    await dialog.getByLabel('Phone Number').fill(next.phoneNumber);
    await clickPrint(page, 'Save and print slip');
    expect(new URL(page.url()).pathname).toBe('/user/number-game/play');
    await dialog.waitFor({ state: 'hidden' });
    const sheet = page.getByTestId('slip-print-sheet');
    const printedSlip = sheet.getByTestId('entry-slip');
    expect(await printedSlip.count()).toBe(1);
    expect(await printedSlip.getAttribute('data-number')).toBe(String(next.number));
    // The paper chosen on this device (the Slips page's choice; 80 mm until one is chosen).
    const paper = await page.evaluate(() => localStorage.getItem('slipWidth'));
    expect(await sheet.getAttribute('data-width')).toBe(paper ?? '80mm');
    const saved = await call<Game>(`/api/games/${opened.id}`);
    const nonce = saved.entries.find((entry) => entry.number === next.number)?.nonce ?? '';
    // The sheet is hidden on screen (only print shows it): its text, not its rendered text.
    expect(await printedSlip.getByTestId('slip-nonce').textContent()).toBe(grouped(nonce));
    expect(await printedSlip.textContent()).toContain(maskName(next.name));
    expect(await printedSlip.getByTestId('slip-copy').count()).toBe(0);
    // Their slip again from the Selected Numbers row: a COPY, counted by the server.
    await clickPrint(page, `Print slip ${next.number}`);
    await expect.poll(() => sheet.getByTestId('slip-copy').textContent()).toBe('COPY · printed 2 times');
    const counted = await call<{ kind: string; number: number | null; printCount: number }[]>(
      `/api/games/${opened.id}/slips`,
    );
    expect(counted).toMatchObject([{ kind: 'entry', number: next.number, printCount: 2 }]);
    expect(new URL(page.url()).pathname).toBe('/user/number-game/play');

    // The play screen leads to the game's slips.
    const link = page.getByRole('link', { name: 'Slips', exact: true });
    await visible(link);
    await page.screenshot({ path: 'test-results/screenshots/play-screen-slips-link.png' });
    await link.click();
    await page.waitForURL(`**/user/number-game/slips/${opened.id}`);
    await expect.poll(() => page.getByTestId('entry-slip').count()).toBe(3);
    await visible(page.getByTestId('result-slip-later'));
    expect(await page.getByTestId('result-slip').count()).toBe(0);

    await call<Game>(`/api/games/${opened.id}/void`, { body: { reason: 'Customer left' } });
    await page.reload();
    await visible(page.getByTestId('slips-discarded'));
    expect(await page.getByTestId('entry-slip').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Print/ }).count()).toBe(0);

    // Its public proof says that and nothing else: no verdict of checks, no draws, no void.
    await page.goto(`/verify/${opened.code}`);
    const verdict = page.getByTestId('verdict');
    await visible(verdict);
    expect(await verdict.getAttribute('data-verdict')).toBe('discarded');
    expect(await verdict.innerText()).toBe('Discarded — nothing was drawn');
    const proofText = await page.locator('main').innerText();
    expect(proofText).not.toMatch(/Verified|Voided|Not verified|Pending|Find my entry/);

    await page.goto('/user/number-game/slips/999999999');
    await visible(page.getByText('Game Not Found'));
  });
});

describe('slips of a game frozen, then voided by an admin', () => {
  it('names the beacon round once frozen; the result slip lists the draws it would have made, not paid, and prints them', async () => {
    screenshotOnFailure(page);
    const call = await sessionOf(login(user));
    const opened = await call<Game>('/api/games', { body: { startRange: 1, endRange: 5, betAmount: '2.00' } });
    await call<Game>(`/api/games/${opened.id}/entries`, { method: 'PUT', body: { entries: ENTRIES } });
    const waiting = await call<DrawWaiting>(`/api/games/${opened.id}/draws`, { body: { position: 1 } });
    expect(waiting.waitingForRound).toBeGreaterThan(0);

    // Frozen and waiting: the entry slips name the round the draw waits for.
    await page.goto(`/user/number-game/slips/${opened.id}`);
    const firstSlip = page.getByTestId('entry-slip').first();
    await visible(firstSlip);
    expect(await firstSlip.getByTestId('slip-protocol').textContent()).toBe(
      `LOT-DRAW-2 Public randomness: drand round ${waiting.waitingForRound}`,
    );
    await visible(page.getByTestId('result-slip-later'));

    await drawPosition(call, opened.id, 1);
    const reason = 'Shop closed early';
    await apiAs(DEMO.admin, `/api/games/${opened.id}/void`, { body: { reason, afterWinner: true } });
    const voided = await call<Game>(`/api/games/${opened.id}`);
    expect(voided.unplayedDraws.map((d) => d.position)).toEqual([2]);
    await page.reload();
    const result = page.getByTestId('result-slip');
    await visible(result);
    expect(await result.getByTestId('slip-status').innerText()).toMatch(/voided/i);
    expect(await result.getByTestId('slip-draw').count()).toBe(1);
    const unplayed = result.getByTestId('slip-unplayed');
    expect(await unplayed.count()).toBe(1);
    const notPaid = `Not paid — game voided by Admin A***: ${reason}`;
    const [draw] = voided.unplayedDraws;
    if (!draw) throw new Error('no unplayed draw');
    const text = await unplayed.innerText();
    expect(text).toContain(String(draw.number));
    expect(text).toContain(draw.winner ? maskName(draw.winner.name) : 'No winner');
    expect(text).toContain(notPaid);

    await choosePaper(page, '80 mm');
    await clickPrint(page, 'Print result slip');
    const printed = await printToPdf(page, 80, 'voided');
    expect(printed.pages).toHaveLength(1);
    expect(printed.text).toContain(notPaid);
    expect(printed.text).toContain(`drand round ${voided.beacon?.round}`);
    expect(await decodeQr(printed.images[0] ?? Buffer.alloc(0))).toEqual([`${publicUrl()}/verify/${voided.code}`]);
    for (const entry of ENTRIES) {
      for (const word of entry.name.split(/\s+/)) expect(printed.text).not.toMatch(new RegExp(`\\b${word}\\b`));
    }
    keepScreenshot(printed.images[0], 'slips-80mm-voided-frozen');
  });
});

describe('slips of a LOT-DRAW-1 game', () => {
  it('carry the warning, word for word, on every slip of a demo game (server randomness only)', async () => {
    const demoPage = await browser().newPage({ viewport: DESKTOP, baseURL: baseUrl() });
    screenshotOnFailure(demoPage);
    await signIn(demoPage, DEMO.user);
    const settled = await apiAs<GameSummary[]>(DEMO.user, '/api/games?status=settled');
    const demo = settled.find((g) => g.protocol === 'LOT-DRAW-1');
    if (!demo) throw new Error('the demo shop has no LOT-DRAW-1 game');
    await demoPage.goto(`/user/number-game/slips/${demo.id}`);
    await visible(demoPage.getByTestId('result-slip'));
    const labels = demoPage.getByTestId('slip-protocol');
    expect(await labels.count()).toBe(demo.entriesCount + 1);
    for (const label of await labels.all()) {
      expect(await label.textContent()).toBe(`LOT-DRAW-1 ${SERVER_RANDOMNESS_ONLY}`);
      expect(await label.getAttribute('data-protocol')).toBe('LOT-DRAW-1');
    }
    await demoPage
      .getByTestId('entry-slip')
      .first()
      .screenshot({ path: 'test-results/screenshots/slip-lot-draw-1.png' });
    await demoPage.close();
  });
});
