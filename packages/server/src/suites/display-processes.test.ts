import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { DrawWaiting, Game, GameProof } from '@lot/domain/schemas/games';
import { participants } from '../test/game-fixtures.ts';
import { callServer, exitOf, startServer, type Started } from '../test/server-process.ts';
import { SseClient, type SseEvent } from '../test/sse.ts';
import { startTestBeacon, type TestBeacon } from '../test/test-beacon.ts';
import { freshPostgres, TEST_DB } from '../test/test-app.ts';

/**
 * LOT scales out by running more API processes on one PostgreSQL (decision 014): a change made on
 * process A reaches a customer display following the game on process B within one second, through
 * LISTEN/NOTIFY; and when B's LISTEN connection is cut, B reconnects by itself and its displays get
 * the current state. The games are LOT-DRAW-2 against a test beacon of real 1 s rounds, as a
 * deployment plays them: the freeze on A reaches B's display (frozen, its round named, nothing
 * drawn), and B, which did not freeze the game, fetches the round itself and draws; the display on
 * A sees it. PostgreSQL only: PGlite is one process's database.
 */

const ADMIN_PASSWORD = 'display-admin-password';
const USER_PASSWORD = 'display-user-password';

describe.skipIf(TEST_DB !== 'postgres')('displays across processes (PostgreSQL only: skipped on PGlite)', () => {
  const servers: Started[] = [];
  const clients: SseClient[] = [];
  let beacon: TestBeacon | undefined;
  let drop = async () => {};
  let databaseUrl = '';
  afterAll(async () => {
    for (const client of clients) client.close();
    for (const server of servers) {
      server.child.kill('SIGTERM');
      // A clean stop ends the open streams; should it hang, the run must not.
      const stopped = await Promise.race([
        exitOf(server.child).then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      if (!stopped) server.child.kill('SIGKILL');
      expect(stopped, 'the server stopped on SIGTERM within 10 s').toBe(true);
    }
    await beacon?.close();
    await drop();
  });

  async function call(base: string, method: string, path: string, token: string | null, body?: unknown) {
    const { status, json } = await callServer(base, method, path, token, body);
    if (status >= 300) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(json)}`);
    return json;
  }

  const view = (event: SseEvent) => JSON.parse(event.data) as GameProof;

  it('a change on process A reaches a display on process B within one second, also after B lost its LISTEN connection', async () => {
    const database = await freshPostgres();
    drop = database.drop;
    databaseUrl = database.url;
    beacon = await startTestBeacon({ period: 1 });
    const env = {
      DATABASE_URL: database.url,
      DRAW_BEACON: 'required',
      DRAW_BEACON_URL: beacon.url,
      DRAW_BEACON_CHAIN: beacon.chain.chainHash,
      JWT_SECRET: 'a-display-test-secret-that-is-long-enough',
      TOTP_KEY: 'a-display-test-totp-key-that-is-long-enough',
      SEED_KEY: 'a-display-test-seed-key-that-is-long-enough',
      LOG_KEY: 'a-display-test-log-key-that-is-long-enough-',
      ADMIN_PASSWORD,
      LOG_LEVEL: 'error',
    };
    servers.push(await startServer(env));
    servers.push(await startServer(env));
    const [a, b] = servers.map((s) => s.url) as [string, string];

    const signin = async (username: string, password: string) =>
      (await call(a, 'POST', '/api/auth/signin', null, { username, password })).accessToken as string;
    const admin = await signin('admin', ADMIN_PASSWORD);
    const user = await call(a, 'POST', '/api/users', admin, {
      username: 'shop_one',
      password: USER_PASSWORD,
      fullName: 'Shop One',
      role: 'user',
    });
    await call(a, 'POST', '/api/winners', admin, {
      name: 'First',
      percent: '50',
      position: 1,
      isActive: true,
      userId: null,
    });
    await call(a, 'POST', '/api/winners', admin, {
      name: 'Second',
      percent: '30',
      position: 2,
      isActive: true,
      userId: null,
    });
    await call(a, 'POST', '/api/balance/topup', admin, { userId: user.id, amount: '100.00' });
    const shop = await signin('shop_one', USER_PASSWORD);
    const game = (await call(a, 'POST', '/api/games', shop, {
      startRange: 1,
      endRange: 10,
      betAmount: '1.00',
    })) as Game;
    await call(a, 'PUT', `/api/games/${game.id}/entries`, shop, { entries: participants([1, 2, 3]) });

    const display = new SseClient(`${b}/api/display/${game.code}/events`);
    clients.push(display);
    expect(view(await display.waitFor((e) => e.event === 'game')).entries).toHaveLength(3);

    // The freeze on A: B's display shows the game frozen, its round named, nothing drawn.
    let from = display.events.length;
    let started = Date.now();
    const frozen = await callServer(a, 'POST', `/api/games/${game.id}/draws`, shop, { position: 1 });
    expect(frozen.status).toBe(202);
    const round = (frozen.json as DrawWaiting).waitingForRound;
    let event = await display.waitFor((e) => view(e).status === 'drawing', 1_000, from);
    expect(event.at - started).toBeLessThan(1_000);
    expect(view(event).beacon?.round).toBe(round);
    expect(view(event).draws).toHaveLength(0);

    // B did not freeze it: asked once R's time has come, it fetches R itself and draws; A's display sees it.
    const onA = new SseClient(`${a}/api/display/${game.code}/events`);
    clients.push(onA);
    await onA.waitFor((e) => e.event === 'game');
    const waitFor = new Date((frozen.json as DrawWaiting).expectedAt).getTime() - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitFor) + 200));
    from = onA.events.length;
    started = Date.now();
    let drawn = await callServer(b, 'POST', `/api/games/${game.id}/draws`, shop, { position: 1 });
    for (let asked = 1; drawn.status === 202 && asked < 20; asked++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      started = Date.now();
      drawn = await callServer(b, 'POST', `/api/games/${game.id}/draws`, shop, { position: 1 });
    }
    expect(drawn.status).toBe(200);
    event = await onA.waitFor((e) => view(e).draws.length === 1, 1_000, from);
    expect(event.at - started).toBeLessThan(1_000);
    expect(view(event).beacon?.randomness).toBe(beacon.sign(round).randomness);

    // Cut every LISTEN connection: each process reconnects by itself and its displays re-read.
    const admin_ = new pg.Client({ connectionString: databaseUrl });
    await admin_.connect();
    const cut = await admin_.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
    );
    await admin_.end();
    expect(cut.rowCount).toBe(2);
    from = display.events.length;
    await call(a, 'POST', `/api/games/${game.id}/draws`, shop, { position: 2 });
    event = await display.waitFor((e) => view(e).status === 'settled', 5_000, from);
    expect(view(event).draws).toHaveLength(2);

    // Once both processes listen again (their new LISTEN connections are in pg_stat_activity),
    // changes flow again within a second (a second game, the other way round).
    const listening = new pg.Client({ connectionString: databaseUrl });
    await listening.connect();
    try {
      await expect
        .poll(
          async () =>
            (
              await listening.query(
                `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
              )
            ).rowCount,
          { timeout: 10_000, interval: 20 },
        )
        .toBe(2);
    } finally {
      await listening.end();
    }
    const next = (await call(b, 'POST', '/api/games', shop, {
      startRange: 1,
      endRange: 10,
      betAmount: '1.00',
    })) as Game;
    const nextOnA = new SseClient(`${a}/api/display/${next.code}/events`);
    clients.push(nextOnA);
    await nextOnA.waitFor((e) => e.event === 'game');
    from = nextOnA.events.length;
    started = Date.now();
    await call(b, 'PUT', `/api/games/${next.id}/entries`, shop, { entries: participants([4, 5]) });
    event = await nextOnA.waitFor((e) => view(e).entries.length === 2, 1_000, from);
    expect(event.at - started).toBeLessThan(1_000);
  }, 120_000);
});
