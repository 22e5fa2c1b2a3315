import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { Agent, createServer as createHttpServer, get as httpGet, request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '../test/chaos.ts';
import { sbin, writeHaproxyConfig } from '../test/haproxy.ts';
import { exitOf, freePort, startServer } from '../test/server-process.ts';

/** A GET through `agent`: its status. */
const get = (agent: Agent, url: string) =>
  new Promise<number>((resolve, reject) => {
    httpGet(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    }).on('error', reject);
  });

/**
 * Decision 068: deploy/haproxy.cfg in front of a process that dies with every call it reads (it
 * resets the connection, as a process killed mid-request does). HAProxy answers 502, then closes
 * the client's connection; unless the 502 says `Connection: close`, a client that sends its next
 * call on that connection (Node's fetch does, at once) loses it without an answer. It was the
 * cluster suite's "broken connection" in about 1 run of 8.
 */
describe('HAProxy with deploy/haproxy.cfg, a process dying mid-request or stopping', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lot-balancer-'));
  let backend: Server | undefined;
  const stops: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    backend?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** HAProxy with deploy/haproxy.cfg in front of `backends`, once it answers; its log as it grows. */
  async function balancer(backends: number[]) {
    const listen = await freePort();
    const child = spawn(sbin('haproxy'), ['-db', '-f', writeHaproxyConfig(dir, listen, backends, `${listen}.cfg`)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    stops.push(async () => {
      child.kill('SIGKILL');
      await exitOf(child);
    });
    const lb = `http://127.0.0.1:${listen}`;
    for (let tries = 0; !(await fetch(`${lb}/api/health`).catch(() => null))?.ok; tries++) {
      expect(tries, `HAProxy did not answer\n${log}`).toBeLessThan(100);
      await sleep(100);
    }
    return { lb, log: () => log };
  }

  /** One connection at a time, kept between calls as Node's fetch keeps it. */
  function keptConnection() {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    stops.push(() => agent.destroy());
    return agent;
  }

  /** A POST through `agent`: its status and Connection header, or "no answer" and why. */
  const postThrough = (agent: Agent, url: string, written?: () => void) =>
    new Promise<string>((resolve) => {
      const sent = request(url, { method: 'POST', agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(`${response.statusCode} ${response.headers.connection}`));
      });
      sent.on('error', (error: NodeJS.ErrnoException) => resolve(`no answer: ${error.code ?? error.message}`));
      if (written) sent.on('finish', written);
      sent.end('{}');
    });

  it('answers 502 with Connection: close, so that the call sent next is answered, never lost', async () => {
    const port = await freePort();
    // Health checks pass; any other call is read, then its connection reset.
    backend = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (data) => {
        if (data.toString().startsWith('GET /api/health '))
          socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
        else socket.resetAndDestroy();
      });
    });
    await new Promise<void>((resolve) => backend?.listen(port, '127.0.0.1', resolve));
    const { lb, log } = await balancer([port]);
    const agent = keptConnection();
    const post = (path: string) => postThrough(agent, `${lb}${path}`);
    // A call that is not the first on its connection gets no answer: HAProxy closes the connection
    // so that the client sends it again, as browsers do. In flight at a kill, the cluster suite's
    // client sends it again with its key.
    expect(await get(agent, `${lb}/api/health`)).toBe(200);
    expect(await post('/api/reused')).toBe('no answer: ECONNRESET');
    // The first call on a connection gets HAProxy's 502, which ends the connection and says so: the
    // next call goes on a new connection and is answered (without it: no answer, ECONNRESET).
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await post('/api/first'), await post('/api/next'));
    expect(answers, log()).toEqual(answers.map(() => '502 close'));
  });

  it('a process that closes its listener as a call reaches it loses that call: no answer, and no line in the log', async () => {
    // Node's server, as LOT's: a call the balancer has just sent, not yet read by a busy process
    // (still in the listener's queue, or accepted and unread), goes down with the listener. It was
    // the rolling restart's "call without an answer" on a loaded machine.
    const port = await freePort();
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const { lb, log } = await balancer([port]);
    const agent = keptConnection();
    expect(await get(agent, `${lb}/api/health`)).toBe(200);
    const busyThenClose = () => {
      // Busy (a loaded event loop) while HAProxy connects and sends the call; then the listener closes.
      const until = Date.now() + 300;
      while (Date.now() < until);
      server.close();
    };
    expect(await postThrough(agent, `${lb}/api/late`, busyThenClose)).toMatch(
      /^no answer: (ECONNRESET|socket hang up)/,
    );
    await sleep(200);
    expect(log()).not.toContain('/api/late');
  });

  it('LOT with STOP_DRAIN_MS: on SIGTERM HAProxy takes it out by its refused health check while it still serves, then it stops', async () => {
    const dataDir = join(dir, 'lot');
    mkdirSync(dataDir);
    const port = await freePort();
    const server = await startServer({ DATA_DIR: dataDir, PORT: String(port), STOP_DRAIN_MS: '3000' });
    stops.push(async () => {
      server.child.kill('SIGKILL');
      await exitOf(server.child);
    });
    // Beside it another process (any answer), as in a cluster: HAProxy's choice once LOT is out.
    const otherPort = await freePort();
    const other = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((resolve) => other.listen(otherPort, '127.0.0.1', resolve));
    stops.push(() => void other.close());
    const { lb, log } = await balancer([port, otherPort]);
    const agent = keptConnection();
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    await sleep(100);
    const health = await fetch(`${server.url}/api/health`);
    expect({ status: health.status, body: await health.json() }).toEqual({
      status: 503,
      body: { status: 'stopping' },
    });
    // Until HAProxy marks it down (2 refused checks: 0.5 to 1.5 s), and after, every call is answered.
    const answers: string[] = [];
    while (!log().includes('Server lot_api/api1 is DOWN')) {
      expect(performance.now() - signalled, log()).toBeLessThan(2_900);
      answers.push(await postThrough(agent, `${lb}/api/auth/signin`));
      await sleep(50);
    }
    expect(log()).toMatch(/Server lot_api\/api1 is DOWN, reason: Layer7 wrong status, code: 503/);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => !/^(200|4\d\d) /.test(answer))).toEqual([]);
    // Marked down before its listener closed: the process still answers there, unready (stopping).
    const ready = await fetch(`${server.url}/api/ready`);
    expect({ status: ready.status, message: ((await ready.json()) as { message?: string }).message }).toEqual({
      status: 503,
      message: 'The service is not ready: this process is stopping',
    });
    expect(await exitOf(server.child)).toBe(0);
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(3_000);
  }, 60_000);
});
