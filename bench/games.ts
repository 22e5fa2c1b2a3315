/**
 * Whole games through the API as the web client plays them (packages/web/src/features/play/api/):
 * POST /api/games, PUT /api/games/{id}/entries, then POST /api/games/{id}/draws for every position,
 * the last of which settles the game. The client sends no Idempotency-Key with these calls (a draw
 * resent after a lost answer is answered again by its position), so neither does the bench. SHOPS
 * shops play at once, each its own user with a balance, one game after another.
 *
 * Beside it, the anchor: the same games by the service functions (openGame, replaceEntries,
 * drawNext) called directly on a database handle in this process, with no HTTP. Not captured SQL
 * replayed: a game's statements carry values made by the ones before them (its id, a fresh code and
 * seed, the ledger row's id) and a random draw decides what settling writes, so the statements of
 * one game replayed would insert the same code twice and settle winners the draw never picked.
 * Calling the service runs exactly the statements it runs for every game, with its own values,
 * including the NOTIFY that tells displays of the change.
 */
import type { PgListener } from '../packages/server/src/lib/listener.ts';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { GameEvents } from '../packages/server/src/lib/game-events.ts';
import { DrawBeacon } from '../packages/server/src/lib/draw-beacon.ts';
import { commandContext, withCaller, type AppContext } from '../packages/server/src/lib/context.ts';
import { nodeDrawCrypto } from '../packages/server/src/lib/draw-crypto.ts';
import { drawNext, openGame, replaceEntries } from '../packages/server/src/modules/games/games.service.ts';
import { findRoundRow } from '../packages/server/src/modules/games/games.repository.ts';
import { claimStatusesOf } from '../packages/server/src/modules/claims/claims.repository.ts';
import { openSeedBox } from '../packages/server/src/lib/seed-box.ts';
import { startTestBeacon } from '../packages/server/src/test/test-beacon.ts';
import {
  api,
  BENCH_SEED_KEY,
  BROWSER_HEADERS,
  freshDatabase,
  percentile,
  startServer,
  TIMING,
  turnAbout,
  type Row,
  type Server,
} from './lib.ts';
import { accounts, ADMIN_PASSWORD, type Player } from './transfer.ts';

export const SHOPS = Number(process.env.BENCH_SHOPS ?? 8);
/** The prizes every game draws (global winner settings): three draws per game. */
export const PRIZES = [
  { name: 'First', percent: '50', position: 1 },
  { name: 'Second', percent: '20', position: 2 },
  { name: 'Third', percent: '10', position: 3 },
];
export const SETUP = { startRange: 1, endRange: 100, betAmount: '1.00' };
/** Twenty participants on the numbers 1, 6, 11, … of the range. */
export const ENTRIES = Array.from({ length: 20 }, (_, i) => ({
  number: 1 + 5 * i,
  name: `Participant ${i + 1}`,
  phoneNumber: `555${String(1000 + i)}`,
}));

/** One shop's whole game, step by step; answers how long each draw took (ms). */
export type Play = (shop: Player) => Promise<number[]>;

/** The calls the web client sends (content-type when there is a body, the bearer token, the browser's headers). */
export async function call<T>(
  server: { url: string },
  method: string,
  path: string,
  token: string,
  body: unknown,
): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...BROWSER_HEADERS, 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export function overHttp(server: { url: string }): Play {
  return async (shop) => {
    const game = await call<{ id: number }>(server, 'POST', '/api/games', shop.token, SETUP);
    await call(server, 'PUT', `/api/games/${game.id}/entries`, shop.token, { entries: ENTRIES });
    const draws: number[] = [];
    for (let position = 1; position <= PRIZES.length; position++) {
      const started = performance.now();
      await call(server, 'POST', `/api/games/${game.id}/draws`, shop.token, { position });
      draws.push(performance.now() - started);
    }
    return draws;
  };
}

export type Run = { rate: number; games: number; drawP95: number; drawP50: number };

/** Every shop plays games one after another for `seconds`; games per second and the draws' latency. */
export async function playFor(play: Play, shops: Player[], seconds: number): Promise<Run> {
  const draws: number[] = [];
  let games = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    shops.map(async (shop) => {
      while (performance.now() < end) {
        draws.push(...(await play(shop)));
        games++;
      }
    }),
  );
  const rate = games / ((performance.now() - started) / 1000);
  return { rate, games, drawP95: percentile(draws, 95), drawP50: percentile(draws, 50) };
}

async function measured(play: Play, shops: Player[]): Promise<Run> {
  if (TIMING.warmup > 0) await playFor(play, shops, TIMING.warmup);
  return playFor(play, shops, TIMING.seconds);
}

/** Games on PostgreSQL over HTTP vs the service's own statements in one process; `pgUrl` is the server. */
export async function gameScenarios(pgUrl: string): Promise<Row[]> {
  const url = await freshDatabase(pgUrl, 'lot_bench_games');
  const server = await startServer({ DATABASE_URL: url, ADMIN_PASSWORD });
  const database = await openDatabase({ kind: 'postgres', url, poolSize: SHOPS });
  try {
    const admin = await api<{ accessToken: string }>(server.url, '/api/auth/signin', null, {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    for (const prize of PRIZES) await api(server.url, '/api/winners', admin.accessToken, prize);
    const { players: shops } = await accounts(server, SHOPS);

    // The anchor's changes are announced as the server's are (NOTIFY lot_games); nothing listens here.
    const quiet = { on: () => undefined, onGap: () => undefined } as unknown as PgListener;
    const gameEvents = new GameEvents(database, quiet, { warn: () => undefined });
    const app: AppContext = {
      ...commandContext({
        db: database.db,
        seeds: await openSeedBox(database.db, BENCH_SEED_KEY),
        beacon: new DrawBeacon({ mode: 'off', urls: [], chainHash: '' }),
        drawCrypto: nodeDrawCrypto,
        config: { totpKey: '' },
      }),
      events: { gameChanged: (code) => gameEvents.publish(code), callerChanged: () => {}, sessionsChanged: () => {} },
    };
    const inProcessWith =
      (
        draw: (ctx: ReturnType<typeof withCaller<Player['caller']>>, id: number, position: number) => Promise<unknown>,
      ): Play =>
      async ({ caller }) => {
        const ctx = withCaller(app, caller);
        const game = await openGame(ctx, { ...SETUP, betAmount: 100 });
        await replaceEntries(ctx, game.id, { entries: ENTRIES });
        const draws: number[] = [];
        for (let position = 1; position <= PRIZES.length; position++) {
          const started = performance.now();
          await draw(ctx, game.id, position);
          draws.push(performance.now() - started);
        }
        return draws;
      };
    const inProcess = inProcessWith(drawNext);
    /**
     * Before, for comparison (decision 052): the draw as it was until issue 33 — the game read (the
     * process's memory of it forgotten first), the same statement, then the game read back (and,
     * once settled, its claims) in round trips of their own, as the old drawNext answered. Kept here
     * only, to measure both in one run.
     */
    const inProcessBefore = inProcessWith(async (ctx, id, position) => {
      ctx.games.delete(id);
      await drawNext(ctx, id, position);
      const row = await findRoundRow(ctx.db, id);
      if (row?.round.status === 'settled') await claimStatusesOf(ctx.db, id);
    });

    const result = await turnAbout(
      () => measured(overHttp(server), shops),
      () => measured(inProcess, shops),
      { ours: (r) => r.rate, anchor: (r) => r.rate },
    );
    const { ours, anchor } = result;
    const ratio = anchor.rate > 0 ? ours.rate / anchor.rate : 0;
    const gap = ours.drawP95 - anchor.drawP95;
    // The draw from memory in one statement that answers (after) vs the old read, statement, read-back (before).
    const trips = await turnAbout(
      () => measured(inProcess, shops),
      () => measured(inProcessBefore, shops),
      { ours: (r) => -r.drawP95, anchor: (r) => -r.drawP95 },
    );
    const what = `${SHOPS} shops at once, ${ENTRIES.length} entries, ${PRIZES.length} draws`;
    return [
      {
        scenario: `whole games on PostgreSQL over HTTP (${what}) vs the service's statements in one process`,
        ours: `${ours.rate.toFixed(1)} games/s (${ours.games} games)`,
        anchor: `${anchor.rate.toFixed(1)} games/s (${anchor.games} games)`,
        ratio: ratio.toFixed(2),
        target: '≥ 0.7',
        met: ratio >= 0.7,
        raw: { ours, anchor, runs: result.runs, shops: SHOPS },
      },
      {
        scenario: `the draw call's p95 in those games vs the same draw in one process`,
        ours: `p95 ${ours.drawP95.toFixed(1)} ms (p50 ${ours.drawP50.toFixed(1)})`,
        anchor: `p95 ${anchor.drawP95.toFixed(1)} ms (p50 ${anchor.drawP50.toFixed(1)})`,
        ratio: `${gap >= 0 ? '+' : ''}${gap.toFixed(1)} ms`,
        target: '≤ in-process + 5 ms, < 50 ms',
        met: gap <= 5 && ours.drawP95 < 50,
        raw: { ours: ours.drawP95, anchor: anchor.drawP95 },
      },
      {
        scenario: `the draw's p95 in one process: after (remembered: one statement, decision 052) vs before (read, statement, read back)`,
        ours: `after p95 ${trips.ours.drawP95.toFixed(1)} ms (p50 ${trips.ours.drawP50.toFixed(1)})`,
        anchor: `before p95 ${trips.anchor.drawP95.toFixed(1)} ms (p50 ${trips.anchor.drawP50.toFixed(1)})`,
        ratio: (trips.anchor.drawP95 > 0 ? trips.ours.drawP95 / trips.anchor.drawP95 : 0).toFixed(2),
        target: '< 1',
        met: trips.ours.drawP95 < trips.anchor.drawP95,
        raw: { after: trips.ours, before: trips.anchor, runs: trips.runs },
      },
    ];
  } finally {
    await server.stop();
    await database.close();
  }
}

/** How long each side of the LOT-DRAW-2 comparison plays (its games wait about a second each). */
const BEACON_SECONDS = Number(process.env.BENCH_BEACON_SECONDS ?? 15);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A game as the web client plays it with a pause between the freeze and the draws, the same for
 * both protocols: LOT-DRAW-2's first draw request freezes the game and answers 202 until beacon round
 * R exists (about a second with the test beacon's 1 s rounds), then its draws are timed; LOT-DRAW-1's
 * shop pauses as long before drawing, so both servers carry the same pace of calls.
 */
function pacedOverHttp(server: Server, beacon: boolean): Play {
  return async (shop) => {
    const game = await call<{ id: number }>(server, 'POST', '/api/games', shop.token, SETUP);
    await call(server, 'PUT', `/api/games/${game.id}/entries`, shop.token, { entries: ENTRIES });
    if (beacon) {
      // The freeze: 202 with the round's time. Wait until it exists (and a moment for the relay).
      const response = await fetch(`${server.url}/api/games/${game.id}/draws`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${shop.token}` },
        body: JSON.stringify({ position: 1 }),
      });
      if (response.status !== 202) throw new Error(`freeze: ${response.status} ${await response.text()}`);
      const waiting = (await response.json()) as { expectedAt: string };
      await sleep(Math.max(0, Date.parse(waiting.expectedAt) - Date.now()) + 300);
    } else {
      await sleep(1_000);
    }
    const draws: number[] = [];
    for (let position = 1; position <= PRIZES.length; position++) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/games/${game.id}/draws`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${shop.token}` },
        body: JSON.stringify({ position }),
      });
      if (response.status !== 200) throw new Error(`draw ${position}: ${response.status} ${await response.text()}`);
      await response.json();
      draws.push(performance.now() - started);
    }
    return draws;
  };
}

/**
 * LOT-DRAW-2 beside LOT-DRAW-1 in the same run, on one PostgreSQL database: two servers, one naming a
 * local test beacon (1 s rounds, drand's API and signatures), one with DRAW_BEACON=off; the same shops
 * play paced games on each in turn. Target: a draw after its round exists ≤ 1.2 × a LOT-DRAW-1 draw
 * at p95 (the round is fetched and verified by the server ahead of the draw, decision 033).
 */
export async function beaconScenarios(pgUrl: string): Promise<Row[]> {
  const url = await freshDatabase(pgUrl, 'lot_bench_beacon');
  const beacon = await startTestBeacon({ period: 1 });
  const withBeacon = await startServer({
    DATABASE_URL: url,
    ADMIN_PASSWORD,
    DRAW_BEACON: 'required',
    DRAW_BEACON_URL: beacon.url,
    DRAW_BEACON_CHAIN: beacon.chain.chainHash,
  });
  const serverOnly = await startServer({ DATABASE_URL: url, ADMIN_PASSWORD });
  try {
    const admin = await api<{ accessToken: string }>(withBeacon.url, '/api/auth/signin', null, {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    for (const prize of PRIZES) await api(withBeacon.url, '/api/winners', admin.accessToken, prize);
    const { players: shops } = await accounts(withBeacon, SHOPS);
    const run = (play: Play) => playFor(play, shops, BEACON_SECONDS);
    const result = await turnAbout(
      () => run(pacedOverHttp(withBeacon, true)),
      () => run(pacedOverHttp(serverOnly, false)),
      // The better run of each is the one with the lower p95.
      { ours: (r) => -r.drawP95, anchor: (r) => -r.drawP95 },
    );
    const { ours, anchor } = result;
    const ratio = anchor.drawP95 > 0 ? ours.drawP95 / anchor.drawP95 : 0;
    return [
      {
        scenario: `a LOT-DRAW-2 draw after its beacon round exists vs a LOT-DRAW-1 draw (${SHOPS} shops, paced games, same run)`,
        ours: `p95 ${ours.drawP95.toFixed(1)} ms (p50 ${ours.drawP50.toFixed(1)}, ${ours.games} games)`,
        anchor: `p95 ${anchor.drawP95.toFixed(1)} ms (p50 ${anchor.drawP50.toFixed(1)}, ${anchor.games} games)`,
        ratio: ratio.toFixed(2),
        target: '≤ 1.2',
        met: ratio <= 1.2,
        raw: { ours, anchor, runs: result.runs, shops: SHOPS, beaconRequests: beacon.requests },
      },
    ];
  } finally {
    await withBeacon.stop();
    await serverOnly.stop();
    await beacon.close();
  }
}
