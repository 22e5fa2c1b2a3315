import type { ServerResponse } from 'node:http';
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
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { freePort } from '../../test/server-process.ts';
import { SseClient, type SseEvent } from '../../test/sse.ts';
import type { TestApp } from '../../test/test-app.ts';
import { DISPLAY_LIMITS } from './display.ts';

/**
 * The customer display's live stream (decision 014) on a real listening server: the current view
 * first, every change within a second, heartbeats, a limit per game, a clean stop, and a browser
 * that reconnects by itself to a restarted server and gets the current state.
 */

DISPLAY_LIMITS.heartbeatMs = 300;
DISPLAY_LIMITS.perGame = 3;

let t: TestApp;
let h: Hierarchy;
let app: FastifyInstance;
let port: number;
const clients: SseClient[] = [];

beforeAll(async () => {
  t = await createMoneyTestApp({ stoppedClock: true });
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '30', position: 2 },
  ]);
  await fund(t, h.U1.id, '1000.00');
  app = t.app;
  port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const client of clients) client.close();
  if (app !== t.app) await app.close();
  await t.close();
});

const follow = (code: string) => {
  const client = new SseClient(`http://127.0.0.1:${port}/api/display/${code}/events`);
  clients.push(client);
  return client;
};
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

  it('a change committed between reading the first view and opening the stream still reaches the display', async () => {
    const next = await openGame(t, h.U1, { numbers: [1, 2] });
    // What the route does, with the change landing in between: admitted (the view read), then the
    // entries replaced, then the stream opened.
    const admission = await app.displays.admit(next.code);
    expect(admission.first.entries).toHaveLength(2);
    expectStatus(await putEntries(t, h.U1.token, next.id, participants([1, 2, 3])), 200);
    const raw = new RecordedResponse();
    app.displays.open(next.code, raw as unknown as ServerResponse, {}, admission);
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
