import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { maskName } from '@lot/domain/mask';
import type { Game } from '@lot/domain/schemas/games';
import {
  apiAs,
  baseUrl,
  chromiumPath,
  decodeQr,
  DEMO,
  DESKTOP,
  freshUser,
  login,
  playGame,
  publicUrl,
  screenshotOnFailure,
  signIn,
  visible,
  type Account,
} from './support.ts';

/**
 * docs/product/money.md#prize-claims: a shop pays a prize by scanning the winner's entry slip with
 * the camera. Chromium's fake camera plays a video of the slip's QR code (made here from the code
 * the slip prints); the payout receipt prints and is read back from the PDF; a second scan of the
 * same slip is refused with where and when it was paid, and offers only a COPY of the receipt.
 */

const CLAIMER = 'Grace Winner';
const W = 640;
const H = 480;

let shop: Account;
let game: Game;
let slipUrl: string;
/** The winner's entry code, as the slip prints it (four groups of four). */
let slipCode: string;
let browser: Browser;
let page: Page;
let workDir: string;

/**
 * A Y4M video (I420) of the slip's QR code on white, for --use-file-for-fake-video-capture: the
 * luma plane is the picture in greys, the chroma planes neutral.
 */
async function qrVideo(text: string, file: string) {
  const { default: QRCode } = await import('qrcode');
  const { default: sharp } = await import('sharp');
  const png = await QRCode.toBuffer(text, { scale: 8, margin: 4, errorCorrectionLevel: 'M' });
  const qr = await sharp(png).resize(380, 380, { kernel: 'nearest' }).toBuffer();
  const luma = await sharp({ create: { width: W, height: H, channels: 3, background: '#ffffff' } })
    .composite([{ input: qr, left: (W - 380) / 2, top: (H - 380) / 2 }])
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  expect(luma.length).toBe(W * H);
  const chroma = Buffer.alloc((W / 2) * (H / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]));
}

const printsRecorded = () => page.evaluate(() => (window as Window & { prints?: number }).prints ?? 0);

/** What the browser prints now (the receipt's own @page size), as text and page images. */
async function printedReceipt(name: string) {
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  await page.emulateMedia({ media: 'screen' });
  const dir = mkdtempSync(join(workDir, `${name}-`));
  const file = join(dir, 'receipt.pdf');
  writeFileSync(file, pdf);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  const width = Number(/Page size:\s+([\d.]+) x/.exec(info)?.[1]);
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  execFileSync('pdftoppm', ['-png', '-r', '200', file, join(dir, 'page')]);
  const images = readdirSync(dir)
    .filter((entry) => entry.endsWith('.png'))
    .sort()
    .map((entry) => readFileSync(join(dir, entry)));
  return { width, text, images };
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'lot-claims-'));
  shop = await freshUser('user', { fullName: 'Claims Shop Owner' });
  await apiAs(DEMO.admin, '/api/balance/topup', { body: { userId: shop.id, amount: '1000' } });
  await apiAs(login(shop), '/api/winners', { body: { name: 'Jackpot', percent: '50', position: 1, isActive: true } });
  game = await playGame(login(shop), {
    startRange: 1,
    endRange: 2,
    bet: 10,
    entries: [
      { number: 1, name: 'Grace Hopper', phoneNumber: '555-0101' },
      { number: 2, name: 'Alan Turing', phoneNumber: '555-0202' },
    ],
  });
  const won = game.draws[0]?.winner;
  const nonce = game.entries.find((entry) => entry.number === won?.number)?.nonce;
  if (!won || !nonce) throw new Error('the game has no winner with an entry code');
  slipUrl = `${publicUrl()}/verify/${game.code}#n=${nonce}`;
  slipCode = nonce.replace(/(.{4})(?!$)/g, '$1 ');
  const video = join(workDir, 'slip.y4m');
  await qrVideo(slipUrl, video);

  // A browser of its own: the fake camera is chosen when Chromium starts.
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: baseUrl() });
  await context.grantPermissions(['camera'], { origin: baseUrl() });
  // window.print opens a dialog headless Chromium cannot close: count the calls instead.
  await context.addInitScript(() => {
    const recorder = window as Window & { prints?: number };
    recorder.prints = 0;
    window.print = () => {
      recorder.prints = (recorder.prints ?? 0) + 1;
    };
  });
  page = await context.newPage();
  await signIn(page, login(shop));
});

afterAll(async () => {
  await browser?.close();
  rmSync(workDir, { recursive: true, force: true });
});

describe('Pay prizes', () => {
  beforeEach(() => screenshotOnFailure(page));

  it('pays a prize found by scanning the entry slip and prints the payout receipt', async () => {
    const draw = game.draws[0];
    if (!draw?.winner) throw new Error('no winner');
    await page.getByRole('link', { name: 'Pay Prizes' }).click();
    await page.getByRole('button', { name: 'Scan entry slip' }).click();

    const prize = page.getByTestId('claim-prize');
    await visible(prize, 20_000);
    expect(await page.getByTestId('claim-winner').innerText()).toContain(maskName(draw.winner.name));
    expect(await prize.getAttribute('data-status')).toBe('unpaid');
    expect(await prize.innerText()).toContain('Not paid yet');
    // The camera stopped with the read.
    expect(await page.getByTestId('camera-view').count()).toBe(0);

    // The name is required (the shared schema's message), then the payment goes through.
    await page.getByRole('button', { name: /^Pay .* and print receipt$/ }).click();
    await visible(page.getByText("The claimer's name is required"));
    await page.getByLabel('Claimer’s name').fill(CLAIMER);
    // The scan filled in the slip's entry code (decision 086); another code is refused under the
    // field with the server's words, and nothing is paid or printed.
    const code = page.getByLabel('Entry code on the slip');
    expect(await code.inputValue()).toBe(slipCode);
    await code.fill(slipCode.replace(/^./, (c) => (c === 'f' ? '0' : 'f')));
    await page.getByRole('button', { name: /^Pay .* and print receipt$/ }).click();
    await visible(page.getByText(/^This is not the entry code of this prize’s slip/));
    expect(await prize.getAttribute('data-status')).toBe('unpaid');
    expect(await printsRecorded()).toBe(0);
    await code.fill(slipCode);
    await page.getByRole('button', { name: /^Pay .* and print receipt$/ }).click();
    await visible(page.getByTestId('claim-paid'));
    await expect.poll(printsRecorded).toBe(1);
    await expect.poll(() => prize.getAttribute('data-status')).toBe('paid');

    const printed = await printedReceipt('first');
    expect(printed.width).toBeCloseTo((80 * 72) / 25.4, 0);
    expect(printed.text).toContain('BOCH BOCH · PAYOUT RECEIPT');
    expect(printed.text).toContain(CLAIMER);
    expect(printed.text).toContain(game.code);
    expect(printed.text).not.toContain('COPY');
    // Numbered by its prize, dated with the year, with a line to sign (decision 090).
    expect(printed.text).toMatch(/Receipt no\.\s*P-\d{6}/);
    expect(printed.text).toContain('Paid on');
    expect(printed.text).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M/);
    expect(printed.text).toContain('Claimer’s signature');
    expect(await decodeQr(printed.images[0] ?? Buffer.alloc(0))).toEqual([`${publicUrl()}/verify/${game.code}`]);
  });

  it('refuses a second payment of the same slip and prints only a COPY of its receipt', async () => {
    await page.getByRole('button', { name: 'Scan another slip' }).click();
    await page.getByRole('button', { name: 'Scan entry slip' }).click();
    const refusal = page.getByTestId('claim-refusal');
    await visible(refusal, 20_000);
    // The refusal names the time as the prize's status line does, on the browser's clock (decision 090).
    const when = /^Paid ([A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M), /.exec(
      await page.getByTestId('claim-status').first().innerText(),
    );
    expect(when).not.toBeNull();
    expect(await refusal.innerText()).toMatch(new RegExp(`^Already paid at .+ on ${when?.[1]}$`));
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0);

    await page.getByRole('button', { name: 'Print a COPY of the receipt' }).click();
    await expect.poll(printsRecorded).toBe(2);
    const printed = await printedReceipt('copy');
    expect(printed.text).toContain('COPY · printed 2 times');
    expect(printed.text).toContain(CLAIMER);
  });

  it('shows the prize as paid on the game’s public proof', async () => {
    await page.goto(`/verify/${game.code}`);
    const claim = page.getByTestId('verify-claim');
    await visible(claim);
    expect(await claim.getAttribute('data-status')).toBe('paid');
    expect(await claim.innerText()).toMatch(/^Paid .+, .+$/);
  });
});
