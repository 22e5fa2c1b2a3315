import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callServer, exitOf, freePort, startServer } from '../packages/server/src/test/server-process.ts';
import { DESKTOP, PHONE, screenshotOnFailure, useBrowser, visible } from './support.ts';

/**
 * Issue 34, decision 056: the process answering a transfer dies after the transfer committed and
 * before its answer reaches the browser. The person's retry (a re-click, or the client's own resend)
 * carries the same Idempotency-Key, so the money moves once and the screen says it went through.
 *
 * The file runs its own server on its own DATA_DIR behind a small proxy standing in for a load
 * balancer: the proxy kills the server (SIGKILL) as the transfer's answer comes back, drops the
 * browser's connection, and a new server starts on the same data.
 */

const browser = useBrowser();
const SHOTS = process.env.E2E_SCREENSHOTS;
const ADMIN = { username: 'admin', password: 'retry-admin-pass' };
const PASSWORD = 'retry-pass-1';

/** What the proxy does with a request while no server listens: answer 503 at once, or wait for one. */
type WhileDown = 'refuse' | 'hold';

/** One LOT server process on a fixed port and data directory, killed and started again. */
class Backend {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'lot-retry-'));
  process: ChildProcess | null = null;
  constructor(readonly port: number) {}

  async start() {
    this.process = (
      await startServer({ DATA_DIR: this.dataDir, PORT: String(this.port), ADMIN_PASSWORD: ADMIN.password })
    ).child;
  }

  kill() {
    this.process?.kill('SIGKILL');
  }

  async dispose() {
    if (this.process && this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill('SIGTERM');
      await exitOf(this.process);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** The balancer in front: forwards every request; armed, it loses the next transfer's answer. */
class Proxy {
  server: Server | null = null;
  whileDown: WhileDown = 'refuse';
  /** The Idempotency-Key of every transfer request that came through, in order. */
  transferKeys: string[] = [];
  #armed: (() => void) | null = null;

  constructor(readonly backend: Backend) {}

  /** The next transfer's answer never reaches the browser: `onCommitted` runs as it comes back. */
  loseNextTransferAnswer(onCommitted: () => void) {
    this.#armed = onCommitted;
  }

  async listen(): Promise<string> {
    this.server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address !== 'object') throw new Error('proxy has no port');
    return `http://127.0.0.1:${address.port}`;
  }

  async close() {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  async #handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const isTransfer = req.method === 'POST' && req.url === '/api/balance/transfer';
    if (isTransfer) this.transferKeys.push(String(req.headers['idempotency-key']));
    for (;;) {
      const outcome = await this.#forward(req, res, body, isTransfer);
      if (outcome !== 'refused') return;
      if (this.whileDown === 'refuse') {
        res
          .writeHead(503, { 'content-type': 'text/html', connection: 'close' })
          .end('<html><body>Service Unavailable</body></html>');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  #forward(req: IncomingMessage, res: ServerResponse, body: Buffer, isTransfer: boolean) {
    return new Promise<'done' | 'refused'>((resolve) => {
      const upstream = request(
        {
          host: '127.0.0.1',
          port: this.backend.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent: false,
        },
        (answer) => {
          const armed = isTransfer ? this.#armed : null;
          if (armed && answer.statusCode === 200) {
            // Committed (a transfer is one statement, decision 024): the process dies, the answer is lost.
            this.#armed = null;
            armed();
            answer.destroy();
            req.socket.destroy();
            return resolve('done');
          }
          // A connection per request: Chromium resends by itself a request whose reused connection
          // closed before any answer, which would hide the lost answer from the client under test.
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, connection: 'close' });
          answer.pipe(res);
          answer.on('error', () => res.destroy());
          answer.on('end', () => resolve('done'));
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED' && !res.headersSent) return resolve('refused');
        res.destroy();
        resolve('done');
      });
      upstream.end(body);
    });
  }
}

let backend: Backend;
let proxy: Proxy;
let proxyUrl = '';
let admin = '';

const call = async <T>(token: string, method: string, path: string, body?: unknown): Promise<T> => {
  const answer = await callServer(`http://127.0.0.1:${backend.port}`, method, path, token, body);
  if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json as T;
};
const signInApi = async (username: string, password: string) =>
  String(
    (await callServer(`http://127.0.0.1:${backend.port}`, 'POST', '/api/auth/signin', null, { username, password }))
      .json.accessToken,
  );

let count = 0;
/** An agent with $100 and a shop under it, created by the admin. */
async function agentAndShop() {
  const tag = `${Date.now().toString(36)}${++count}`;
  const create = (role: string, fullName: string, parentId?: number) =>
    call<{ id: number; username: string }>(admin, 'POST', '/api/users', {
      username: `retry_${role}_${tag}`,
      password: PASSWORD,
      fullName,
      role,
      parentId,
    });
  const superagent = await create('superagent', `Retry Super ${tag}`);
  const agent = await create('agent', `Retry Agent ${tag}`, superagent.id);
  const shop = await create('user', `Retry Shop ${tag}`, agent.id);
  await call(admin, 'POST', '/api/balance/topup', { userId: agent.id, amount: '100.00' });
  return { agent, shop: { ...shop, fullName: `Retry Shop ${tag}` } };
}

async function openTransfer(page: Page, agent: { username: string }, shop: { username: string; fullName: string }) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(agent.username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/agent\/dashboard$/);
  await page.goto('/transactions');
  await page.getByRole('button', { name: 'Transfer Funds' }).click();
  const modal = page.getByRole('dialog', { name: 'Transfer Funds' });
  await visible(modal.getByTestId('available-balance').filter({ hasText: '$100.00' }));
  await modal.getByLabel('Receiver').fill(shop.username);
  await modal.getByRole('button', { name: new RegExp(shop.fullName) }).click();
  await modal.getByLabel('Amount').fill('25');
  return modal;
}

/** The money moved exactly once: $25 from the agent to the shop, one transfer in the ledger. */
async function expectMovedOnce(agent: { username: string }, shop: { username: string }) {
  const token = await signInApi(agent.username, PASSWORD);
  expect((await call<{ amount: string }>(token, 'GET', '/api/balance')).amount).toBe('75.00');
  const shopToken = await signInApi(shop.username, PASSWORD);
  expect((await call<{ amount: string }>(shopToken, 'GET', '/api/balance')).amount).toBe('25.00');
  const transfers = await callServer(
    `http://127.0.0.1:${backend.port}`,
    'GET',
    '/api/transactions?type=transfer',
    token,
  );
  expect((transfers.json as unknown as unknown[]).length).toBe(1);
}

const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

beforeAll(async () => {
  backend = new Backend(await freePort());
  await backend.start();
  proxy = new Proxy(backend);
  proxyUrl = await proxy.listen();
  admin = await signInApi(ADMIN.username, ADMIN.password);
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await backend?.dispose();
});

describe('a transfer whose process dies before its answer arrives', () => {
  it('the person clicks again after the failure: the same key, the money moves once, and the screen says so', async () => {
    const { agent, shop } = await agentAndShop();
    const context = await browser().newContext({ viewport: DESKTOP, baseURL: proxyUrl });
    const page = await context.newPage();
    screenshotOnFailure(page);
    const modal = await openTransfer(page, agent, shop);

    // While the process is gone the balancer answers 503, so the client's own resends fail too.
    proxy.whileDown = 'refuse';
    proxy.transferKeys = [];
    const killed = new Promise<void>((resolve) => proxy.loseNextTransferAnswer(() => (backend.kill(), resolve())));
    await modal.getByRole('button', { name: 'Send Funds' }).click();
    await killed;
    await exitOf(backend.process as ChildProcess);
    // Said in the dialog (a notice sits under it) and as a notice.
    expect(await visible(modal.getByText('Cannot reach the server. Trying again…'))).toBe(true);
    expect(await visible(page.locator('[aria-live] [role="alert"]', { hasText: 'Trying again…' }))).toBe(true);
    await shot(page, 'transfer-retrying-desktop');
    // After 3.5 s of resends the dialog says the transfer failed; nothing tells the person it went through.
    expect(await visible(modal.getByText('Error: Transfer failed'), 15_000)).toBe(true);
    await shot(page, 'transfer-gave-up-desktop');
    // The first send and the client's three resends.
    expect(proxy.transferKeys).toHaveLength(4);

    await backend.start();
    await modal.getByRole('button', { name: 'Send Funds' }).click();
    expect(await visible(page.getByText(`Funds successfully transferred to ${shop.fullName}`))).toBe(true);
    expect(proxy.transferKeys).toHaveLength(5);
    expect(new Set(proxy.transferKeys).size).toBe(1);
    await expectMovedOnce(agent, shop);
    await context.close();
  });

  it('the client sends it again by itself while the process restarts: the money moves once', async () => {
    const { agent, shop } = await agentAndShop();
    const context = await browser().newContext({ viewport: PHONE, baseURL: proxyUrl });
    const page = await context.newPage();
    screenshotOnFailure(page);
    const modal = await openTransfer(page, agent, shop);

    // The balancer holds requests until a process listens again (as a queue would).
    proxy.whileDown = 'hold';
    proxy.transferKeys = [];
    let restarted: Promise<void> = Promise.resolve();
    proxy.loseNextTransferAnswer(() => {
      backend.kill();
      restarted = exitOf(backend.process as ChildProcess).then(() => backend.start());
    });
    await modal.getByRole('button', { name: 'Send Funds' }).click();
    // Said in the dialog (a notice sits under it) and as a notice.
    expect(await visible(modal.getByText('Cannot reach the server. Trying again…'))).toBe(true);
    expect(await visible(page.locator('[aria-live] [role="alert"]', { hasText: 'Trying again…' }))).toBe(true);
    await shot(page, 'transfer-retrying-phone');
    expect(await visible(page.getByText(`Funds successfully transferred to ${shop.fullName}`), 30_000)).toBe(true);
    await restarted;
    expect(proxy.transferKeys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(proxy.transferKeys).size).toBe(1);
    await expectMovedOnce(agent, shop);
    await context.close();
  });
});
