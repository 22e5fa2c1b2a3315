/**
 * Prize payouts (decision 038) beside transfers, in the same run on the same server and database:
 * a payout is one statement like a keyed money call (lock the claim, claim the Idempotency-Key,
 * mark it paid with the shop's open shift, write the audit row), so its latency should sit beside
 * a transfer's. SHOPS shops at once, each paying its own games' prizes one after another (or
 * transferring 0.01 to the next shop), every call with a fresh Idempotency-Key as the web client
 * sends them; the latency is the client's (fetch), p95 over every call of the run.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { api, freshDatabase, percentile, startServer, TIMING, turnAbout, type Row, type Server } from './lib.ts';
import { accounts, ADMIN_PASSWORD, type Player } from './transfer.ts';

const SHOPS = Number(process.env.BENCH_SHOPS ?? 8);
/** Ten prizes of 5 %: every game of twenty entries on 1–20 has ten winners, so ten claims. */
const PRIZES = Array.from({ length: 10 }, (_, i) => ({
  name: `Prize ${i + 1}`,
  percent: '5',
  position: i + 1,
}));
const SETUP = { startRange: 1, endRange: 20, betAmount: '1.00' };
const ENTRIES = Array.from({ length: 20 }, (_, i) => ({
  number: i + 1,
  name: `Participant ${i + 1}`,
  phoneNumber: `555${String(1000 + i)}`,
}));

async function call(server: Server, method: string, path: string, token: string, body: unknown, key?: string) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(key && { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: number };
}

/** Each shop plays `games` whole games (LOT-DRAW-1: no beacon to wait for), so its prizes become claims. */
async function playGames(server: Server, shops: Player[], games: number): Promise<void> {
  await Promise.all(
    shops.map(async (shop) => {
      for (let g = 0; g < games; g++) {
        const game = await call(server, 'POST', '/api/games', shop.token, SETUP);
        await call(server, 'PUT', `/api/games/${game.id}/entries`, shop.token, { entries: ENTRIES });
        for (let position = 1; position <= PRIZES.length; position++)
          await call(server, 'POST', `/api/games/${game.id}/draws`, shop.token, { position });
      }
    }),
  );
}

type Run = { rate: number; calls: number; p95: number; p50: number };

/** Every shop makes `perShop` calls one after another; calls per second and their latency. */
async function timed(shops: Player[], perShop: number, one: (shop: Player, i: number) => Promise<unknown>) {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    shops.map(async (shop, s) => {
      for (let i = 0; i < perShop; i++) {
        const at = performance.now();
        await one(shop, s * perShop + i);
        latencies.push(performance.now() - at);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    rate: latencies.length / seconds,
    calls: latencies.length,
    p95: percentile(latencies, 95),
    p50: percentile(latencies, 50),
  } satisfies Run;
}

/** Payouts vs transfers on PostgreSQL; `pgUrl` is the server. */
export async function claimScenarios(pgUrl: string): Promise<Row[]> {
  const url = await freshDatabase(pgUrl, 'lot_bench_claims');
  const server = await startServer({ DATABASE_URL: url, ADMIN_PASSWORD });
  try {
    const admin = await api<{ accessToken: string }>(server.url, '/api/auth/signin', null, {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    for (const prize of PRIZES) await api(server.url, '/api/winners', admin.accessToken, prize);
    const { players: shops } = await accounts(server, SHOPS);
    // Payouts per shop and run: a warm-up and two measured runs of each (turn about) use them all.
    const perShop = Number(process.env.BENCH_PAYOUTS ?? 60);
    const runs = 1 + Number(process.env.BENCH_ROUNDS ?? 2);
    await playGames(server, shops, Math.ceil((perShop * runs) / PRIZES.length));

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const unpaid = new Map<number, { winnerId: number; entryCode: string }[]>();
    try {
      const { rows } = await client.query<{ winner_id: number; user_id: number; entry_code: string }>(
        "SELECT winner_id, user_id, entry_code FROM prize_claims WHERE status = 'unpaid' ORDER BY winner_id",
      );
      for (const row of rows)
        unpaid.set(row.user_id, [
          ...(unpaid.get(row.user_id) ?? []),
          { winnerId: row.winner_id, entryCode: row.entry_code },
        ]);
    } finally {
      await client.end();
    }
    const payout = (shop: Player) => {
      const prize = unpaid.get(shop.id)?.shift();
      if (prize === undefined) throw new Error(`shop ${shop.id} has no unpaid prize left`);
      const body = { entryCode: prize.entryCode, claimerName: 'Bench' };
      return call(server, 'POST', `/api/claims/${prize.winnerId}/pay`, shop.token, body, randomUUID());
    };
    const transfer = (shop: Player, i: number) => {
      const receiver = shops[(shops.indexOf(shop) + 1 + (i % (shops.length - 1))) % shops.length] ?? shop;
      return call(
        server,
        'POST',
        '/api/balance/transfer',
        shop.token,
        { receiverId: receiver.id, amount: '0.01' },
        randomUUID(),
      );
    };
    // Warm-up of both, thrown away.
    await timed(shops, perShop, payout);
    await timed(shops, perShop, transfer);
    const result = await turnAbout(
      () => timed(shops, perShop, payout),
      () => timed(shops, perShop, transfer),
      // The better run of each is the one with the lower p95.
      { ours: (r) => -r.p95, anchor: (r) => -r.p95 },
    );
    const { ours, anchor } = result;
    const gap = ours.p95 - anchor.p95;
    return [
      {
        scenario: `a prize payout's p95 (${SHOPS} shops at once, keyed) vs a keyed transfer's, same server`,
        ours: `p95 ${ours.p95.toFixed(1)} ms (p50 ${ours.p50.toFixed(1)}, ${ours.rate.toFixed(0)}/s)`,
        anchor: `p95 ${anchor.p95.toFixed(1)} ms (p50 ${anchor.p50.toFixed(1)}, ${anchor.rate.toFixed(0)}/s)`,
        ratio: `${gap >= 0 ? '+' : ''}${gap.toFixed(1)} ms`,
        target: '≤ transfer + 5 ms, < 50 ms',
        met: gap <= 5 && ours.p95 < 50,
        raw: { ours, anchor, runs: result.runs, shops: SHOPS, connections: TIMING.connections },
      },
    ];
  } finally {
    await server.stop();
  }
}
