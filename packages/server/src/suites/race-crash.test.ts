import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCents } from '@lot/domain/money';
import { gamePayload } from '../test/game-fixtures.ts';
import { exitOf, freePort, startServer, type Started } from '../test/server-process.ts';
import { freshPostgres, TEST_DB } from '../test/test-app.ts';

/**
 * Issue 10, suite 3: real server processes on PostgreSQL, many concurrent clients doing
 * transfers and game settlements with Idempotency-Keys, retrying every call that got no answer
 * with the same key; meanwhile the server is killed with SIGKILL at random moments and started
 * again. Afterwards `npm run ledger:check` must pass, every acknowledged operation must be in
 * the ledger exactly once (its key names its one ledger row), no refused one may be, and every
 * balance must be what the acknowledged operations make it, never negative.
 *
 * PostgreSQL only: PGlite is one process's embedded database, and a killed process takes it
 * along (its own crash safety is covered by main.test.ts). CRASH_RESTARTS and CRASH_CLIENTS
 * bound the run (SOAK=1 for the long one).
 */

const SOAK = process.env.SOAK === '1';
/** Per-test time limit: the soak runs for many minutes. */
const LIMIT = SOAK ? 3_600_000 : 600_000;
const RESTARTS = Number(process.env.CRASH_RESTARTS ?? (SOAK ? 30 : 3));
const CLIENTS = Number(process.env.CRASH_CLIENTS ?? (SOAK ? 12 : 5));
const ADMIN_PASSWORD = 'crash-admin-password';
const USER_PASSWORD = 'crash-user-password';
const START = 10_000; // each player starts with 100.00, so some calls are refused for want of money

const ledgerCli = fileURLToPath(new URL('../db/ledger-check-cli.ts', import.meta.url));

type Answer = { status: number; body: Record<string, unknown> };
type Op =
  | { kind: 'transfer'; key: string; from: number; to: number; cents: number }
  | { kind: 'game'; key: string; from: number; cents: number };
type Done = Op & { status: number; transactionId?: number };

const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(TEST_DB !== 'postgres')('race and crash (PostgreSQL only: skipped on PGlite)', () => {
  let server: Started | undefined;
  let drop = async () => {};
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    if (server) await exitOf(server.child);
    await drop();
  });

  it(
    `${CLIENTS} clients, SIGKILL and restart ${RESTARTS} times: nothing lost, nothing twice, books exact`,
    async () => {
      const database = await freshPostgres();
      drop = database.drop;
      const port = await freePort();
      const env = {
        DATABASE_URL: database.url,
        JWT_SECRET: 'a-crash-test-secret-that-is-long-enough',
        ADMIN_PASSWORD,
        PORT: String(port),
        LOG_LEVEL: 'error',
      };
      const base = `http://127.0.0.1:${port}`;
      server = await startServer(env);

      /** One HTTP call; null when the server gave no answer (refused connection, reset, killed mid-call). */
      async function call(method: string, path: string, token: string | null, body?: unknown, key?: string) {
        try {
          const response = await fetch(`${base}${path}`, {
            method,
            headers: {
              ...(body !== undefined && { 'content-type': 'application/json' }),
              ...(token && { authorization: `Bearer ${token}` }),
              ...(key && { 'idempotency-key': key }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
            signal: AbortSignal.timeout(20_000),
          });
          return { status: response.status, body: (await response.json()) as Record<string, unknown> };
        } catch {
          return null;
        }
      }
      let fiveHundreds = 0;
      /** A client's persistence: the same call with the same key until the server answers it for good. */
      async function untilAnswered(method: string, path: string, token: string, body?: unknown, key?: string) {
        for (;;) {
          const answer = await call(method, path, token, body, key);
          if (answer && answer.status < 500) return answer as Answer;
          if (answer) fiveHundreds += 1;
          await sleep(random(20, 150));
        }
      }

      // The world: players (role user, no parent) with 500.00 each and global winner settings.
      const admin = await untilAnswered('POST', '/api/auth/signin', '', {
        username: 'admin',
        password: ADMIN_PASSWORD,
      });
      const adminToken = String(admin.body.accessToken);
      await untilAnswered('POST', '/api/winners', adminToken, {
        name: 'First',
        percent: '50.00',
        position: 1,
        isActive: true,
        userId: null,
      });
      await untilAnswered('POST', '/api/winners', adminToken, {
        name: 'Second',
        percent: '25.00',
        position: 2,
        isActive: true,
        userId: null,
      });
      const players: { id: number; token: string }[] = [];
      for (let i = 0; i < CLIENTS; i += 1) {
        const username = `crash_${i}`;
        const created = await untilAnswered('POST', '/api/users', adminToken, {
          username,
          password: USER_PASSWORD,
          fullName: `Crash ${i}`,
          role: 'user',
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const id = Number(created.body.id);
        const topup = await untilAnswered(
          'POST',
          '/api/balance/topup',
          adminToken,
          { userId: id, amount: formatCents(START) },
          `start-${id}`,
        );
        expect(topup.status).toBe(200);
        const signin = await untilAnswered('POST', '/api/auth/signin', '', { username, password: USER_PASSWORD });
        players.push({ id, token: String(signin.body.accessToken) });
      }

      // The storm: every client loops over transfers and games until told to stop.
      const done: Done[] = [];
      const unexpected: string[] = [];
      let stop = false;
      const client = async (me: { id: number; token: string }) => {
        while (!stop) {
          const key = randomUUID();
          let op: Op;
          let answer: Answer;
          if (Math.random() < 0.7) {
            const others = players.filter((p) => p.id !== me.id);
            const to = others[random(0, others.length - 1)] as (typeof players)[number];
            op = { kind: 'transfer', key, from: me.id, to: to.id, cents: random(1, 3_000) };
            answer = await untilAnswered(
              'POST',
              '/api/balance/transfer',
              me.token,
              { receiverId: to.id, amount: formatCents(op.cents) },
              key,
            );
          } else {
            const count = random(1, 5);
            const bet = random(1, 5) * 100;
            const first = random(1, 20);
            const payload = gamePayload(me.id, {
              numbers: Array.from({ length: count }, (_, i) => i + 1),
              drawn: [first, (first % 20) + 1],
              percents: ['50.00', '25.00'],
              bet: formatCents(bet),
            });
            op = { kind: 'game', key, from: me.id, cents: count * bet };
            answer = await untilAnswered('POST', '/api/sales-history', me.token, payload, key);
          }
          const ok = answer.status === 200 || answer.status === 201;
          if (!ok && answer.status !== 422)
            unexpected.push(`${op.kind} ${answer.status} ${JSON.stringify(answer.body)}`);
          const transactionId = ok
            ? Number(op.kind === 'game' ? answer.body.transactionId : (answer.body.transaction as { id: number }).id)
            : undefined;
          done.push({ ...op, status: answer.status, transactionId });
        }
      };
      const clients = players.map((player) => client(player));

      let restarts = 0;
      for (; restarts < RESTARTS; restarts += 1) {
        await sleep(random(400, 2_000));
        const dying = server;
        dying.child.kill('SIGKILL');
        await exitOf(dying.child);
        server = await startServer(env);
      }
      await sleep(500);
      stop = true;
      await Promise.all(clients);
      server.child.kill('SIGTERM');
      await exitOf(server.child);
      server = undefined;

      // npm run ledger:check, as an operator would run it after the crash.
      const check = spawn(process.execPath, ['--import', 'tsx', ledgerCli], {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: env.DATABASE_URL, JWT_SECRET: env.JWT_SECRET },
      });
      let checkOutput = '';
      check.stdout.on('data', (chunk: Buffer) => (checkOutput += chunk.toString()));
      check.stderr.on('data', (chunk: Buffer) => (checkOutput += chunk.toString()));
      expect(await exitOf(check), checkOutput).toBe(0);
      expect(checkOutput).toContain('OK: every cent is accounted for.');

      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      try {
        const { rows: ledger } = await db.query<{
          id: number;
          type: string;
          user_id: number;
          receiver_id: number | null;
          amount: string;
        }>(`SELECT id, type, user_id, receiver_id, amount::text FROM transactions WHERE type IN ('transfer', 'game')`);
        const { rows: keys } = await db.query<{ user_id: number; key: string; response: Record<string, unknown> }>(
          `SELECT user_id, key, response FROM idempotency_keys`,
        );
        const { rows: balances } = await db.query<{ user_id: number; amount: string }>(
          `SELECT user_id, amount::text FROM balances`,
        );
        const keyRow = new Map(keys.map((row) => [`${row.user_id}/${row.key}`, row.response]));
        const rowById = new Map(ledger.map((row) => [Number(row.id), row]));
        const acknowledged = done.filter((op) => op.transactionId !== undefined);
        const refused = done.filter((op) => op.transactionId === undefined);

        // No acknowledged operation is lost: its key holds the answer the client got, naming a ledger row that matches it.
        for (const op of acknowledged) {
          const stored = keyRow.get(`${op.from}/${op.key}`);
          expect(stored, `key of ${JSON.stringify(op)}`).toBeDefined();
          const storedId = op.kind === 'game' ? stored?.transactionId : (stored?.transaction as { id: number }).id;
          expect(Number(storedId)).toBe(op.transactionId);
          const row = rowById.get(op.transactionId ?? 0);
          expect(row, `ledger row of ${JSON.stringify(op)}`).toBeDefined();
          expect({ type: row?.type, from: Number(row?.user_id), amount: Number(row?.amount) }).toEqual({
            type: op.kind,
            from: op.from,
            amount: op.cents,
          });
          if (op.kind === 'transfer') expect(Number(row?.receiver_id)).toBe(op.to);
        }
        // None is applied twice: every ledger row of the storm is exactly one acknowledged operation.
        expect(ledger.length).toBe(acknowledged.length);
        expect(new Set(acknowledged.map((op) => op.transactionId)).size).toBe(acknowledged.length);
        // A refused operation left neither a key nor a row.
        for (const op of refused) expect(keyRow.has(`${op.from}/${op.key}`), JSON.stringify(op)).toBe(false);

        // Every balance is what the acknowledged operations make it, and none is negative.
        const expected = new Map(players.map((p) => [p.id, START]));
        for (const op of acknowledged) {
          expected.set(op.from, (expected.get(op.from) ?? 0) - op.cents);
          if (op.kind === 'transfer') expected.set(op.to, (expected.get(op.to) ?? 0) + op.cents);
        }
        const actual = new Map(balances.map((row) => [Number(row.user_id), Number(row.amount)]));
        for (const player of players)
          expect(actual.get(player.id), `player ${player.id}`).toBe(expected.get(player.id));
        expect(balances.filter((row) => Number(row.amount) < 0)).toEqual([]);
      } finally {
        await db.end();
      }

      expect(unexpected).toEqual([]);
      expect(fiveHundreds, 'answers with a 5xx status').toBe(0);
      expect(acknowledged(done)).toBeGreaterThan(RESTARTS * 5);
      console.log(
        `race and crash (postgres): ${restarts} restarts after SIGKILL survived; ${CLIENTS} clients, ` +
          `${acknowledged(done)} operations acknowledged, ${done.length - acknowledged(done)} refused (422)`,
      );
    },
    LIMIT,
  );
});

function acknowledged(done: Done[]): number {
  return done.filter((op) => op.transactionId !== undefined).length;
}
