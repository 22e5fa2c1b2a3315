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
  participants,
  passRound,
  putEntries,
  voidCall,
} from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
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
const hold = (code: string, address: string): Promise<number> =>
  new Promise((resolve, reject) => {
    // A socket of its own per stream (no keep-alive pool), destroyed when the test lets go.
    const request = get(
      {
        host: '127.0.0.1',
        port,
        path: `/api/display/${code}/events`,
        headers: { 'x-forwarded-for': address },
        agent: false,
      },
      (response) => resolve(response.statusCode ?? 0),
    );
    request.on('error', reject);
    holders.push(request);
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

  it('entries replaced, the freeze, each draw and the void reach the display within one second', async () => {
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
  });

  it('keeps the stream open with a ping event the browser sees', async () => {
    const startedAt = Date.now();
    const ping = await client.waitFor((e) => e.event === 'ping', 1_000, client.events.length);
    expect(ping.at - startedAt).toBeLessThan(1_000);
  });

  it('an unknown code is 404; more streams of one game than allowed are 429', async () => {
    const missing = await fetch(`http://127.0.0.1:${port}/api/display/nope/events`, {
      headers: { connection: 'close' },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    const more = [follow(game.code), follow(game.code)];
    await Promise.all(more.map((c) => c.waitFor(games)));
    const refused = await fetch(`http://127.0.0.1:${port}/api/display/${game.code}/events`, {
      headers: { connection: 'close' },
    });
    expect(refused.status).toBe(429);
    await refused.body?.cancel();
    for (const c of more) c.close();
  });

  it("100 anonymous streams on one code, from one address and from a hundred: the shop's own display still gets every change within a second", async () => {
    DISPLAY_LIMITS.perAddress = 20;
    let display: SseClient | undefined;
    try {
      const next = await openGame(t, h.U2, { numbers: [1, 2, 3] });
      const fromOne = await Promise.all(Array.from({ length: 100 }, () => hold(next.code, '203.0.113.7')));
      expect(fromOne.filter((status) => status === 200)).toHaveLength(20);
      expect(fromOne.filter((status) => status === 429)).toHaveLength(80);
      const fromMany = await Promise.all(Array.from({ length: 100 }, (_, i) => hold(next.code, `198.51.100.${i}`)));
      expect(fromMany.every((status) => status === 200)).toBe(true);
      // One more from the first address is refused: it is the address that is full, not the game.
      expect(await hold(next.code, '203.0.113.7')).toBe(429);

      // The shop's display, opened with a ticket its signed-in operator asked for.
      const ticket = await ticketFor(h.U2, next.code);
      expectStatus(ticket, 200);
      display = follow(next.code, ticket.json<{ ticket: string }>().ticket);
      const opened = display;
      expect(view(await opened.waitFor(games, 1_000))).toMatchObject({ code: next.code, status: 'open' });

      const within = async (change: () => Promise<unknown>, seen: (proof: GameProof) => boolean) => {
        const from = opened.events.length;
        const started = Date.now();
        await change();
        const event = await opened.waitFor((e) => games(e) && seen(view(e)), 1_000, from);
        expect(event.at - started).toBeLessThan(1_000);
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
      // The last draw settles the game.
      await within(
        async () => expectStatus(await drawCall(t, h.U2.token, next.id, 2), 200),
        (proof) => proof.draws.length === 2 && proof.status === 'settled',
      );
    } finally {
      display?.close();
      for (const holder of holders.splice(0)) holder.destroy();
      DISPLAY_LIMITS.perAddress = 3;
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
  it('an IPv4 address as is (also mapped into IPv6), an IPv6 address by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('the request log never shows a ticket', () => {
    expect(withoutTicket('/api/display/abc/events?ticket=7.99.sig')).toBe('/api/display/abc/events?ticket=…');
    expect(withoutTicket('/x?a=1&ticket=7.99.sig&b=2')).toBe('/x?a=1&ticket=…&b=2');
  });
});
