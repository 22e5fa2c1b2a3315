import { get, type ClientRequest, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrawWaiting, Game, GameProof } from '@lot/domain/schemas/games';
import { buildApp } from '../../app.ts';
import {
  configureWinners,
  drawCall,
  openGame,
  openGameCall,
  participants,
  passRound,
  putEntries,
  voidCall,
} from '../../test/game-fixtures.ts';
import { buildHierarchy, createMember, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { freePort } from '../../test/server-process.ts';
import { SseClient, type SseEvent } from '../../test/sse.ts';
import type { TestApp } from '../../test/test-app.ts';
import { addressKey, DISPLAY_LIMITS, withoutTicket } from '../../lib/display-streams.ts';

/**
 * The customer display's live stream (decision 014) on a real listening server: the current view
 * first, every change within a second, heartbeats, limits per client address that never keep the
 * shop's own ticketed display out (decision 046), a clean stop, and a browser that reconnects by
 * itself to a restarted server and gets the current state. TRUST_PROXY is on, so a test can come
 * from many addresses through X-Forwarded-For.
 */

DISPLAY_LIMITS.heartbeatMs = 300;
DISPLAY_LIMITS.perAddress = 3;

let t: TestApp;
let h: Hierarchy;
let app: FastifyInstance;
let port: number;
const clients: SseClient[] = [];

beforeAll(async () => {
  t = await createMoneyTestApp({ stoppedClock: true, trustProxy: true });
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '30', position: 2 },
  ]);
  await fund(t, h.U1.id, '1000.00');
  await fund(t, h.U2.id, '1000.00');
  app = t.app;
  port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const client of clients) client.close();
  for (const holder of holders) holder.destroy();
  if (app !== t.app) await app.close();
  await t.close();
});

const follow = (code: string, ticket?: string) => {
  const query = ticket === undefined ? '' : `?ticket=${encodeURIComponent(ticket)}`;
  const client = new SseClient(`http://127.0.0.1:${port}/api/display/${code}/events${query}`);
  clients.push(client);
  return client;
};
/** Streams opened and never read, as a script that only wants to take places would hold them. */
const holders: ClientRequest[] = [];
/** The message of the last refusal `hold` met. */
let lastRefusal = '';
/** A stream from `localAddress` (any 127.x.y.z reaches the server), or as forwarded for `address`. */
const hold = (code: string, address: string, localAddress?: string): Promise<number> =>
  new Promise((resolve, reject) => {
    // A socket of its own per stream (no keep-alive pool), destroyed when the test lets go.
    const request = get(
      {
        host: '127.0.0.1',
        port,
        path: `/api/display/${code}/events`,
        headers: address ? { 'x-forwarded-for': address } : {},
        agent: false,
        localAddress,
      },
      (response) => {
        if (response.statusCode === 200) return resolve(200);
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          lastRefusal = (JSON.parse(body) as { message: string }).message;
          resolve(response.statusCode ?? 0);
        });
      },
    );
    request.on('error', reject);
    holders.push(request);
  });
/** The whole of an anonymous stream the server ends by itself. */
const readStream = (code: string): Promise<string> =>
  new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: `/api/display/${code}/events`, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
const ticketFor = async (member: Member, code: string) =>
  t.request(member.token, { method: 'POST', url: `/api/display/${code}/tickets` });
/** A response that records what the stream writes (no socket): for driving DisplayStreams directly. */
class RecordedResponse extends Writable {
  written = '';
  readonly socket = null;
  writeHead() {
    return this;
  }
  flushHeaders() {}
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void) {
    this.written += chunk.toString();
    done();
  }
  /** The data of every `game` event written so far. */
  events(): string[] {
    return [...this.written.matchAll(/^event: game\ndata: (.*)$/gm)].map((match) => match[1] ?? '');
  }
}

const view = (event: SseEvent) => JSON.parse(event.data) as GameProof;
const games = (event: SseEvent) => event.event === 'game';

describe('the customer display stream', () => {
  let game: Game;
  let client: SseClient;

  it('answers the current public view first, names and phones masked', async () => {
    game = await openGame(t, h.U1, { numbers: [1, 2, 3] });
    client = follow(game.code);
    const first = view(await client.waitFor(games));
    expect(client.lastContentType).toMatch(/^text\/event-stream/);
    expect(first).toMatchObject({ code: game.code, status: 'open', draws: [] });
    expect(first.entries.map((e) => e.number)).toEqual([1, 2, 3]);
    expect(first.entries[0]?.name).not.toBe('Player 1');
  });

  it('keeps the stream open with a ping event the browser sees', async () => {
    const startedAt = Date.now();
    const ping = await client.waitFor((e) => e.event === 'ping', 1_000, client.events.length);
    expect(ping.at - startedAt).toBeLessThan(1_000);
  });

  it('entries replaced, the freeze, each draw and the void reach the display within one second; then the anonymous stream ends', async () => {
    let from = client.events.length;
    let started = Date.now();
    expectStatus(await putEntries(t, h.U1.token, game.id, participants([1, 2, 3, 4])), 200);
    let event = await client.waitFor((e) => games(e) && view(e).entries.length === 4, 1_000, from);
    expect(event.at - started).toBeLessThan(1_000);

    // The freeze: the round the draws wait for, so the display can count down to it.
    from = client.events.length;
    started = Date.now();
    const frozen = await drawCall(t, h.U1.token, game.id, 1);
    expectStatus(frozen, 202);
    const waiting = frozen.json<DrawWaiting>();
    event = await client.waitFor((e) => games(e) && view(e).status === 'drawing', 1_000, from);
    expect(event.at - started).toBeLessThan(1_000);
    expect(view(event)).toMatchObject({
      draws: [],
      frozenAt: waiting.game.frozenAt,
      beacon: { round: waiting.waitingForRound, expectedAt: waiting.expectedAt, signature: null },
    });

    passRound(t, waiting);
    for (const position of [1]) {
      from = client.events.length;
      started = Date.now();
      expectStatus(await drawCall(t, h.U1.token, game.id, position), 200);
      event = await client.waitFor((e) => games(e) && view(e).draws.length === position, 1_000, from);
      expect(event.at - started).toBeLessThan(1_000);
      expect(view(event).status).toBe('drawing');
      expect(view(event).beacon?.signature).toMatch(/^[0-9a-f]{96}$/);
    }
    // Once frozen, the shop's agent voids it.
    from = client.events.length;
    started = Date.now();
    expectStatus(await voidCall(t, h.A1.token, game.id, 'power cut'), 200);
    event = await client.waitFor((e) => games(e) && view(e).status === 'voided', 1_000, from);
    expect(event.at - started).toBeLessThan(1_000);
    expect(view(event).serverSeed).toMatch(/^[0-9a-f]{64}$/);
    // An ended game changes no more draws: the anonymous stream says so and ends (decision 088).
    await client.waitFor((e) => e.event === 'end', 1_000, from);
    client.close();
  });

  it('an unknown code is 404; more streams from one address than allowed are 429', async () => {
    const missing = await fetch(`http://127.0.0.1:${port}/api/display/nope/events`, {
      headers: { connection: 'close' },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    game = await openGame(t, h.U1, { numbers: [1] });
    const more = [follow(game.code), follow(game.code), follow(game.code)];
    await Promise.all(more.map((c) => c.waitFor(games)));
    const refused = await fetch(`http://127.0.0.1:${port}/api/display/${game.code}/events`, {
      headers: { connection: 'close' },
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ message: 'Too many displays are open from this address' });
    for (const c of more) c.close();
    expectStatus(await voidCall(t, h.U1.token, game.id, 'test over'), 200);
  });

  it("2,000 anonymous streams from 100 addresses fill the process: the shop's own display and a new viewer of another game still get every draw within a second", async () => {
    DISPLAY_LIMITS.perAddress = 20;
    // A ping to 2,000 streams every 300 ms would be most of the work: the real 15 s.
    DISPLAY_LIMITS.heartbeatMs = 15_000;
    // Ten other shops' games, 200 streams each (the most one game admits): 20 from each of 100
    // loopback addresses, each a socket of its own, opened as fast as the server takes them.
    const flooded = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const shop = await createMember(t, {
          username: `flooded_${i}`,
          fullName: `Flooded ${i}`,
          role: 'user',
          parentId: h.A2.id,
        });
        const opened = await openGameCall(t, shop.token, { startRange: 1, endRange: 20, betAmount: '1.00' });
        expectStatus(opened, 201);
        return opened.json<Game>().code;
      }),
    );
    const started = Date.now();
    const cpu = process.cpuUsage();
    // 100 at a time: more connections at once than the listen backlog holds would be reset.
    const statuses: number[] = [];
    for (let wave = 0; wave < 2_000; wave += 100) {
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, (_, j) => {
            const i = wave + j;
            return hold(flooded[i % 10] ?? '', '', `127.0.3.${1 + Math.floor(i / 20)}`);
          }),
        )),
      );
    }
    const openedIn = Date.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    expect(statuses.filter((status) => status === 200)).toHaveLength(2_000);
    console.log(
      `2,000 anonymous display streams from 100 addresses opened in ${openedIn} ms (${Math.round((user + system) / 1000)} ms of CPU, server and clients)`,
    );
    const refusal = async (code: string, localAddress: string) => {
      const status = await hold(code, '', localAddress);
      return status === 200 ? 'admitted' : lastRefusal;
    };
    // Full: the address, the game, and the process past each game's first places.
    const [first = ''] = flooded;
    expect(await refusal(first, '127.0.3.1')).toBe('Too many displays are open from this address');
    expect(await refusal(first, '127.0.4.1')).toBe('Too many displays of this game are open; try again shortly');
    const next = await openGame(t, h.U2, { numbers: [1, 2, 3] });
    DISPLAY_LIMITS.gameFloor = 0;
    try {
      expect(await refusal(next.code, '127.0.4.1')).toBe('Too many displays are open; try again shortly');
    } finally {
      DISPLAY_LIMITS.gameFloor = 20;
    }

    let display: SseClient | undefined;
    let customer: SseClient | undefined;
    try {
      // The shop's display, opened with a ticket its signed-in operator asked for, and a customer's
      // phone on the same (not flooded) game, anonymous.
      const ticket = await ticketFor(h.U2, next.code);
      expectStatus(ticket, 200);
      display = follow(next.code, ticket.json<{ ticket: string }>().ticket);
      customer = follow(next.code);
      const viewers = [display, customer];
      for (const viewer of viewers) {
        expect(view(await viewer.waitFor(games, 1_000))).toMatchObject({ code: next.code, status: 'open' });
      }

      const within = async (change: () => Promise<unknown>, seen: (proof: GameProof) => boolean) => {
        const from = viewers.map((viewer) => viewer.events.length);
        const changed = Date.now();
        await change();
        for (const [i, viewer] of viewers.entries()) {
          const event = await viewer.waitFor((e) => games(e) && seen(view(e)), 1_000, from[i]);
          expect(event.at - changed).toBeLessThan(1_000);
        }
      };
      await within(
        async () => expectStatus(await putEntries(t, h.U2.token, next.id, participants([1, 2, 3, 4])), 200),
        (proof) => proof.entries.length === 4,
      );
      let waiting: DrawWaiting | undefined;
      await within(
        async () => {
          const frozen = await drawCall(t, h.U2.token, next.id, 1);
          expectStatus(frozen, 202);
          waiting = frozen.json<DrawWaiting>();
        },
        (proof) => proof.status === 'drawing',
      );
      if (waiting) passRound(t, waiting);
      await within(
        async () => expectStatus(await drawCall(t, h.U2.token, next.id, 1), 200),
        (proof) => proof.draws.length === 1,
      );
      // The last draw settles the game: the customer's stream ends with it, the shop's stays.
      const from = customer.events.length;
      await within(
        async () => expectStatus(await drawCall(t, h.U2.token, next.id, 2), 200),
        (proof) => proof.draws.length === 2 && proof.status === 'settled',
      );
      await customer.waitFor((e) => e.event === 'end', 1_000, from);
      expect(display.events.some((e) => e.event === 'end')).toBe(false);
    } finally {
      display?.close();
      customer?.close();
      for (const holder of holders.splice(0)) holder.destroy();
      DISPLAY_LIMITS.perAddress = 3;
      DISPLAY_LIMITS.heartbeatMs = 300;
    }
  }, 60_000);

  it("an anonymous stream is renewed after its lifetime, the shop's is not; a stream of an ended game ends at once", async () => {
    DISPLAY_LIMITS.lifetimeMs = 200;
    DISPLAY_LIMITS.lifetimeJitterMs = 0;
    let display: SseClient | undefined;
    try {
      const next = await openGame(t, h.U1, { numbers: [1, 2] });
      const ticket = (await ticketFor(h.U1, next.code)).json<{ ticket: string }>().ticket;
      display = follow(next.code, ticket);
      await display.waitFor(games);
      const started = Date.now();
      const anonymous = await readStream(next.code);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      expect(anonymous).toMatch(/^retry: 1000\n\nid: \S+\nevent: game\ndata: \{.*\n\nevent: renew\ndata: 1\n\n$/s);
      // Two anonymous lifetimes later the shop's display still has its first connection.
      expect(await readStream(next.code)).toMatch(/event: renew\ndata: 1\n\n$/);
      expect(display.connections).toBe(1);
      expect(display.events.some((e) => e.event === 'renew')).toBe(false);

      expectStatus(await voidCall(t, h.U1.token, next.id, 'test over'), 200);
      const over = await readStream(next.code);
      expect(over).toMatch(/"status":"discarded".*\n\nretry: 3600000\nevent: end\ndata: 1\n\n$/s);
    } finally {
      display?.close();
      DISPLAY_LIMITS.lifetimeMs = 10 * 60_000;
      DISPLAY_LIMITS.lifetimeJitterMs = 60_000;
    }
  });

  it('a ticket opens only its own game, only for a while, and only someone who may read the game gets one', async () => {
    const next = await openGame(t, h.U4, { numbers: [1] });
    const url = (code: string, ticket: string) =>
      `http://127.0.0.1:${port}/api/display/${code}/events?ticket=${encodeURIComponent(ticket)}`;
    const { ticket } = (await ticketFor(h.U4, next.code)).json<{ ticket: string }>();
    // Another game's code, a forged signature, an expired ticket: 401, nothing streams.
    const other = await openGame(t, h.U3, { numbers: [1] });
    const forged = ticket.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const expired = app.context.displays.ticket(next.code, h.U4.id, t.now() - 61_000).ticket;
    for (const [code, given] of [
      [other.code, ticket],
      [next.code, forged],
      [next.code, expired],
    ] as const) {
      const refused = await fetch(url(code, given), { headers: { connection: 'close' } });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'The display ticket has expired' });
    }
    // The shop's super agent may ask; a shop outside its scope sees no such game; nobody signed out may ask.
    expectStatus(await ticketFor(h.S1, next.code), 200);
    expectStatus(await ticketFor(h.U5, next.code), 404);
    expectStatus(await t.request(null, { method: 'POST', url: `/api/display/${next.code}/tickets` }), 401);
    // A signed-in operator's displays have their own limit.
    DISPLAY_LIMITS.perOperator = 1;
    try {
      const first = follow(next.code, ticket);
      await first.waitFor(games, 1_000);
      const second = await fetch(url(next.code, ticket), { headers: { connection: 'close' } });
      expect(second.status).toBe(429);
      await second.body?.cancel();
      first.close();
    } finally {
      DISPLAY_LIMITS.perOperator = 10;
    }
    for (const game of [next, other]) {
      expectStatus(await voidCall(t, game === next ? h.U4.token : h.U3.token, game.id, 'test over'), 200);
    }
  });

  it('a change committed between reading the first view and opening the stream still reaches the display', async () => {
    const next = await openGame(t, h.U1, { numbers: [1, 2] });
    // What the route does, with the change landing in between: admitted (the view read), then the
    // entries replaced, then the stream opened.
    const admission = await app.context.displays.admit(next.code, { address: '192.0.2.1' });
    expect(admission.first.entries).toHaveLength(2);
    expectStatus(await putEntries(t, h.U1.token, next.id, participants([1, 2, 3])), 200);
    const raw = new RecordedResponse();
    app.context.displays.open(next.code, raw as unknown as ServerResponse, {}, admission);
    const views = async () => raw.events().map((data) => JSON.parse(data) as GameProof);
    const started = Date.now();
    while (!(await views()).some((v) => v.entries.length === 3) && Date.now() - started < 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await views()).map((v) => v.entries.length)).toEqual([2, 3]);
    raw.destroy();
    expectStatus(await voidCall(t, h.U1.token, next.id, 'test over'), 200);
  });

  it('the server stops without waiting for open streams; the display reconnects by itself and gets the current state', async () => {
    const next = await openGame(t, h.U1, { numbers: [5, 6, 7] });
    const display = follow(next.code);
    await display.waitFor(games);
    const started = Date.now();
    await app.close();
    // An open stream would hold close() for ever: it ends them first. (The test's client reconnects
    // once while the server is still stopping, which can add a second, more on a busy machine.)
    expect(Date.now() - started).toBeLessThan(5_000);
    // While no server answers, the game goes on elsewhere: the freeze.
    const testBeacon = t.beacon;
    if (!testBeacon) throw new Error('the test app has no beacon');
    app = await buildApp({
      database: t.database,
      totpKey: t.totpKey,
      seedKey: t.seedKey,
      logKey: t.logKey,
      jwtSecret: t.jwtSecret,
      logLevel: 'silent',
      serveWeb: false,
      clock: t.now,
      beacon: { mode: 'required', urls: [testBeacon.url], chainHash: testBeacon.chain.chainHash },
    });
    await app.ready();
    const drawn = await app.inject({
      method: 'POST',
      url: `/api/games/${next.id}/draws`,
      headers: { authorization: `Bearer ${h.U1.token}` },
      payload: { position: 1 },
    });
    expectStatus(drawn, 202);
    const from = display.events.length;
    await app.listen({ port, host: '127.0.0.1' });
    const event = await display.waitFor((e) => games(e) && view(e).status === 'drawing', 5_000, from);
    expect(display.connections).toBe(2);
    expect(view(event).beacon?.round).toBe(drawn.json<DrawWaiting>().waitingForRound);
  });
});

describe('what a stream counts against', () => {
  it('an IPv4 address by its /24 (also mapped into IPv6), an IPv6 address by its /56', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.0/24');
    expect(addressKey('203.0.113.255')).toBe('203.0.113.0/24');
    expect(addressKey('203.0.114.7')).toBe('203.0.114.0/24');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.0/24');
    expect(addressKey('0:0:0:0:0:ffff:203.0.113.9')).toBe('203.0.113.0/24');
    // Every /64 of a /56 is one network: 256 of them, one key.
    const subnets = Array.from({ length: 256 }, (_, i) => `2001:db8:1:${(0x200 + i).toString(16)}:aaaa::1`);
    expect(new Set(subnets.map(addressKey))).toEqual(new Set(['2001:db8:1:200::/56']));
    expect(addressKey('2001:0db8:0001:02ff:ffff:1:2:3')).toBe('2001:db8:1:200::/56');
    expect(addressKey('2001:db8:1:300::1')).toBe('2001:db8:1:300::/56');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/56');
    expect(addressKey('2001:db8::203.0.113.7')).toBe('2001:db8:0:0::/56');
  });

  it("an address only the shop's own network reaches counts by itself; what is no address, as its text", () => {
    for (const [one, other] of [
      ['127.0.0.2', '127.0.0.3'],
      ['10.1.2.3', '10.1.2.4'],
      ['172.16.0.1', '172.31.0.1'],
      ['192.168.1.10', '192.168.1.11'],
      ['169.254.0.1', '169.254.0.2'],
      ['::ffff:192.168.1.10', '::ffff:192.168.1.11'],
      ['fd12:3456:789a:1::1', 'fd12:3456:789a:1::2'],
      ['fe80::1%eth0', 'fe80::2'],
    ] as const) {
      expect(addressKey(one)).not.toBe(addressKey(other));
    }
    expect(addressKey('192.168.1.10')).toBe('192.168.1.10');
    expect(addressKey('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(addressKey('172.32.0.1')).toBe('172.32.0.0/24');
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('1:2:3:4:5:6:7:8:9')).toBe('1:2:3:4:5:6:7:8:9');
    expect(addressKey('1::2::3')).toBe('1::2::3');
  });

  it('the request log never shows a ticket', () => {
    expect(withoutTicket('/api/display/abc/events?ticket=7.99.sig')).toBe('/api/display/abc/events?ticket=…');
    expect(withoutTicket('/x?a=1&ticket=7.99.sig&b=2')).toBe('/x?a=1&ticket=…&b=2');
  });
});
