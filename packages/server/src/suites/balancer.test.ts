import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get as httpGet, request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '../test/chaos.ts';
import { sbin, writeHaproxyConfig } from '../test/haproxy.ts';
import { exitOf, freePort } from '../test/server-process.ts';

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
describe('HAProxy with deploy/haproxy.cfg, a process dying mid-request', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lot-balancer-'));
  let backend: Server | undefined;
  const haproxy = { stop: async () => {} };
  afterAll(async () => {
    await haproxy.stop();
    backend?.close();
    rmSync(dir, { recursive: true, force: true });
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
    const listen = await freePort();
    const child = spawn(sbin('haproxy'), ['-db', '-f', writeHaproxyConfig(dir, listen, [port])], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    haproxy.stop = async () => {
      child.kill('SIGKILL');
      await exitOf(child);
    };
    const lb = `http://127.0.0.1:${listen}`;
    for (let tries = 0; !(await fetch(`${lb}/api/health`).catch(() => null))?.ok; tries++) {
      expect(tries, `HAProxy did not answer\n${log}`).toBeLessThan(100);
      await sleep(100);
    }

    // One connection at a time, kept between calls as Node's fetch keeps it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    afterAll(() => agent.destroy());
    const post = (path: string) =>
      new Promise<string>((resolve) => {
        const sent = request(`${lb}${path}`, { method: 'POST', agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(`${response.statusCode} ${response.headers.connection}`));
        });
        sent.on('error', (error: NodeJS.ErrnoException) => resolve(`no answer: ${error.code ?? error.message}`));
        sent.end('{}');
      });
    // A call that is not the first on its connection gets no answer: HAProxy closes the connection
    // so that the client sends it again, as browsers do. In flight at a kill, the cluster suite's
    // client sends it again with its key.
    expect(await get(agent, `${lb}/api/health`)).toBe(200);
    expect(await post('/api/reused')).toBe('no answer: ECONNRESET');
    // The first call on a connection gets HAProxy's 502, which ends the connection and says so: the
    // next call goes on a new connection and is answered (without it: no answer, ECONNRESET).
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await post('/api/first'), await post('/api/next'));
    expect(answers, log).toEqual(answers.map(() => '502 close'));
  });
});
