/**
 * Money over HTTP against the database's own rate for the same work, sent as the web client sends
 * it (a fresh Idempotency-Key with every call), and beside the same calls without a key:
 * - transfers on PostgreSQL vs pgbench running the same SQL on the same database (uniform
 *   accounts, and every transfer to one hot account), and vs the floor of any Node money API: a
 *   bare node:http + pg server running the same statement (bench/money-anchor.ts);
 * - transfers on the embedded PGlite vs the same statement in a loop in one process, and that
 *   statement prepared (`queryPrepared`) vs PGlite's `query` in one process;
 * - sign-in vs a loop of the same Argon2id verification in one process.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { hash, verify } from '@node-rs/argon2';
import { PgDialect } from 'drizzle-orm/pg-core';
import { openDatabase, queryRows, type Db } from '../packages/server/src/db/client.ts';
import { queryPrepared } from '../packages/server/src/db/prepared.ts';
import { transferMove } from '../packages/server/src/modules/balance/balance.service.ts';
import { moveStatement } from '../packages/server/src/modules/balance/balance.repository.ts';
import { ARGON2_OPTIONS } from '../packages/server/src/lib/passwords.ts';
import type { Caller } from '../packages/server/src/lib/caller.ts';
import {
  api,
  BROWSER_HEADERS,
  cpuPer,
  freshDatabase,
  measureCpu,
  postmasterOf,
  load,
  loop,
  pgbench,
  rateRow,
  scratchDir,
  startProcess,
  startServer,
  TIMING,
  turnAbout,
  type Load,
  type Row,
  type Server,
} from './lib.ts';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 50);
export const ADMIN_PASSWORD = 'bench-admin-password';
const PASSWORD = 'bench-password';

export type Player = { id: number; token: string; caller: Caller };

/** `count` users (ACCOUNTS) with consecutive ids, each topped up and signed in, through the API. */
export async function accounts(
  server: Server,
  count = ACCOUNTS,
): Promise<{ players: Player[]; minId: number; maxId: number }> {
  const admin = await api<{ accessToken: string }>(server.url, '/api/auth/signin', null, {
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  const players: Player[] = [];
  for (let i = 0; i < count; i++) {
    const user = await api<{ id: number }>(server.url, '/api/users', admin.accessToken, {
      username: `bench_${i}`,
      password: PASSWORD,
      fullName: `Bench User ${i}`,
      role: 'user',
    });
    await api(server.url, '/api/balance/topup', admin.accessToken, { userId: user.id, amount: '1000000.00' });
    const login = await api<{ accessToken: string }>(server.url, '/api/auth/signin', null, {
      username: `bench_${i}`,
      password: PASSWORD,
    });
    const caller: Caller = {
      id: user.id,
      username: `bench_${i}`,
      fullName: `Bench User ${i}`,
      role: 'user',
      parentId: null,
      tokenVersion: 0,
    };
    players.push({ id: user.id, token: login.accessToken, caller });
  }
  const ids = players.map((p) => p.id);
  const minId = Math.min(...ids);
  const maxId = Math.max(...ids);
  if (maxId - minId + 1 !== count) throw new Error('bench accounts must have consecutive ids');
  return { players, minId, maxId };
}

/** A receiver for a sender: any other account (uniform) or always the first one (hot). */
export type Pattern = {
  name: string;
  receiverOf: (senderId: number) => number;
  pgbenchReceiver: string;
  senders: string;
};

export function patterns(minId: number, maxId: number): Pattern[] {
  const n = maxId - minId + 1;
  return [
    {
      name: 'uniform accounts',
      receiverOf: (s) => minId + ((s - minId + 1 + Math.floor(Math.random() * (n - 1))) % n),
      pgbenchReceiver: ':min + ((:s - :min + random(1, :max - :min)) % (:max - :min + 1))',
      senders: 'random(:min, :max)',
    },
    { name: 'one hot receiver', receiverOf: () => minId, pgbenchReceiver: ':min', senders: 'random(:min + 1, :max)' },
  ];
}

/**
 * autocannon posting transfers of 0.01 from random senders (never the hot account itself); keyed,
 * each with a fresh Idempotency-Key, as the web client sends every money call (with the browser's headers).
 */
export function httpTransfers(
  server: { url: string },
  players: Player[],
  pattern: Pattern,
  keyed: boolean,
): Promise<Load> {
  const senders = players.filter((p) => p.id !== pattern.receiverOf(p.id));
  return load({
    url: `${server.url}/api/balance/transfer`,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const sender = senders[Math.floor(Math.random() * senders.length)] ?? senders[0];
          if (!sender) throw new Error('no senders');
          return {
            ...request,
            headers: {
              ...BROWSER_HEADERS,
              'content-type': 'application/json',
              authorization: `Bearer ${sender.token}`,
              ...(keyed ? { 'idempotency-key': randomUUID() } : {}),
            },
            body: JSON.stringify({ receiverId: pattern.receiverOf(sender.id), amount: '0.01' }),
          };
        },
      },
    ],
  });
}

const SENDER = 2_000_000_001;
const RECEIVER = 2_000_000_002;

/** A value inlined into the anchor's SQL text. */
function literal(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // pgbench reads `:name` anywhere in a script as a variable, also inside quotes: colons as \x3a.
  if (typeof value === 'string')
    return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''").replaceAll(':', '\\x3a')}'`;
  throw new Error(`cannot inline ${String(value)}`);
}

/**
 * The very statement the service runs for a user's transfer of 0.01 (balance.repository.ts
 * `moveStatement` of the service's `transferMove`, docs/decisions/012), built by that code itself: the sender's id becomes $1,
 * the receiver's $2, every other value is inlined as the service would bind it.
 */
const TRANSFER_SQL = (() => {
  const caller: Caller = {
    id: SENDER,
    username: 'bench',
    fullName: 'Bench',
    role: 'user',
    parentId: null,
    tokenVersion: 0,
  };
  const built = new PgDialect().sqlToQuery(moveStatement(transferMove(caller, { receiverId: RECEIVER, amount: 1 })));
  return built.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = built.params[Number(n) - 1];
    return value === SENDER ? '$1' : value === RECEIVER ? '$2' : literal(value);
  });
})();

function pgbenchScript(pattern: Pattern): string {
  const file = join(scratchDir('lot-bench-pgbench'), 'transfer.sql');
  const numbered = (statement: string) => statement.replaceAll('$1', ':s').replaceAll('$2', ':r');
  writeFileSync(
    file,
    [`\\set s ${pattern.senders}`, `\\set r ${pattern.pgbenchReceiver}`, `${numbered(TRANSFER_SQL)};`, ''].join('\n'),
  );
  return file;
}

/** Sign-ins and transfers on PostgreSQL; `pgUrl` is the server to make the database on. */
export async function postgresMoneyScenarios(pgUrl: string): Promise<Row[]> {
  const url = await freshDatabase(pgUrl, 'lot_bench_transfer');
  const server = await startServer({ DATABASE_URL: url, ADMIN_PASSWORD });
  const anchors: Server[] = [];
  const rows: Row[] = [];
  try {
    const { players, minId, maxId } = await accounts(server);

    // Sign-in: rotate over the accounts so no one crosses the failed-attempt limit's window.
    const signin = () =>
      load({
        url: `${server.url}/api/auth/signin`,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => ({
              ...request,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                username: `bench_${Math.floor(Math.random() * ACCOUNTS)}`,
                password: PASSWORD,
              }),
            }),
          },
        ],
      });
    const stored = await hash(PASSWORD, ARGON2_OPTIONS);
    const verifies = () => loop(() => verify(stored, PASSWORD, ARGON2_OPTIONS), TIMING.seconds, TIMING.connections);
    const signins = await turnAbout(signin, verifies, { ours: (l) => l.rate, anchor: (r) => r });
    rows.push(
      rateRow('sign-in vs the same Argon2id verification in a loop', signins.ours, signins.anchor, 0.85, {
        runs: signins.runs,
      }),
    );

    const postmaster = await postmasterOf(url);
    const playersFile = join(scratchDir('lot-bench-players'), 'players.json');
    writeFileSync(playersFile, JSON.stringify(Object.fromEntries(players.map((p) => [p.token, p.caller]))));
    const floor = await startProcess(['bench/money-anchor.ts', url, playersFile], {}, /listening on (http:\/\/\S+)/);
    anchors.push(floor);
    for (const pattern of patterns(minId, maxId)) {
      const script = pgbenchScript(pattern);
      const result = await turnAbout(
        () => measureCpu(() => httpTransfers(server, players, pattern, true), { server: server.pid, postmaster }),
        () =>
          measureCpu(
            async () =>
              pgbench(url, script, {
                clients: TIMING.connections,
                seconds: TIMING.seconds,
                vars: { min: minId, max: maxId },
              }),
            { postmaster },
          ),
        { ours: (o) => o.result.rate, anchor: (a) => a.result.tps },
      );
      const ours = result.ours;
      const anchor = result.anchor;
      const row = rateRow(
        `transfers on PostgreSQL, ${pattern.name}, keyed, vs pgbench (same SQL, same database)`,
        ours.result,
        anchor.result.tps,
        0.7,
        {
          anchorNote: anchor.result.failed ? ` (${anchor.result.failed} failed)` : '',
          runs: result.runs,
        },
      );
      const oursOps = ours.result.allRequests;
      const anchorOps = anchor.result.tps * TIMING.seconds;
      row.ours += `; ${cpuPer(ours.cpu, oursOps)}`;
      row.anchor += `; ${cpuPer(anchor.cpu, anchorOps)}`;
      row.raw = { ...row.raw, cpu: { ours: ours.cpu, oursOps, anchor: anchor.cpu, anchorOps } };
      rows.push(row, await keyedVsUnkeyed(`transfers on PostgreSQL, ${pattern.name}`, server, players, pattern));
      rows.push(await againstFloor(`transfers on PostgreSQL, ${pattern.name}`, server, floor, players, pattern));
    }
  } finally {
    await server.stop();
    for (const anchor of anchors) await anchor.stop();
  }
  return rows;
}

/** Keyed transfers through our whole server beside the bare node:http + pg floor running the same statement. */
async function againstFloor(
  name: string,
  server: Server,
  floor: Server,
  players: Player[],
  pattern: Pattern,
): Promise<Row> {
  const result = await turnAbout(
    () => httpTransfers(server, players, pattern, true),
    () => httpTransfers(floor, players, pattern, true),
    { ours: (l) => l.rate, anchor: (l) => l.rate },
  );
  return rateRow(
    `${name}, keyed, vs node:http + pg running the same statement`,
    result.ours,
    result.anchor.rate,
    0.75,
    {
      runs: result.runs,
    },
  );
}

/** The keyed calls the web client sends beside the same calls without a key, turn about. */
async function keyedVsUnkeyed(name: string, server: Server, players: Player[], pattern: Pattern): Promise<Row> {
  const result = await turnAbout(
    () => httpTransfers(server, players, pattern, true),
    () => httpTransfers(server, players, pattern, false),
    { ours: (l) => l.rate, anchor: (l) => l.rate },
  );
  return rateRow(`${name}, keyed vs without a key`, result.ours, result.anchor.rate, 0.9, { runs: result.runs });
}

/**
 * Transfers on PGlite over HTTP vs the same statement in a loop in-process, on a copy of the
 * same data (PGlite is one process's database: the two cannot share a directory).
 */
export async function pgliteTransferScenario(): Promise<Row[]> {
  const dataDir = scratchDir('lot-bench-pglite');
  const copy = scratchDir('lot-bench-pglite-copy');
  let server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD });
  const { players, minId, maxId } = await accounts(server).finally(() => server.stop());
  cpSync(join(dataDir, 'db'), copy, { recursive: true });
  server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD });
  const database = await openDatabase({ kind: 'pglite', dataDir: copy });
  // PGlite itself under the Drizzle handle: the anchor is PGlite's own query, as any caller has it.
  const db = (database.db as unknown as { $client: PGlite }).$client;
  try {
    const uniform = patterns(minId, maxId)[0] as Pattern;
    const once = () => {
      const sender = minId + Math.floor(Math.random() * ACCOUNTS);
      const receiver = uniform.receiverOf(sender);
      return db.query(TRANSFER_SQL, [sender, receiver]);
    };
    const result = await turnAbout(
      () => httpTransfers(server, players, uniform, true),
      async () => {
        await loop(once, TIMING.warmup);
        return loop(once, TIMING.seconds);
      },
      { ours: (l) => l.rate, anchor: (r) => r },
    );
    return [
      rateRow(
        'transfers on PGlite, uniform accounts, keyed, vs the same statement in a loop in-process',
        result.ours,
        result.anchor,
        0.8,
        { runs: result.runs },
      ),
      await keyedVsUnkeyed('transfers on PGlite, uniform accounts', server, players, uniform),
      await preparedVsPlain(database.db, players, uniform),
    ];
  } finally {
    await server.stop();
    await database.close();
  }
}

/**
 * In one process, the transfer statement as the service runs it (`queryPrepared`: on PGlite a
 * statement prepared once, then one Bind/Execute per call) beside the same statement through
 * PGlite's `query` (parsed, described and planned every call), turn about.
 */
async function preparedVsPlain(db: Db, players: Player[], pattern: Pattern): Promise<Row> {
  const statement = () => {
    const sender = players[Math.floor(Math.random() * players.length)] as Player;
    return moveStatement(transferMove(sender.caller, { receiverId: pattern.receiverOf(sender.id), amount: 1 }));
  };
  const run = (query: (db: Db, statement: SQL) => Promise<unknown>) => async () => {
    await loop(() => query(db, statement()), TIMING.warmup);
    return loop(() => query(db, statement()), TIMING.seconds);
  };
  const result = await turnAbout(run(queryPrepared), run(queryRows), { ours: (r) => r, anchor: (r) => r });
  return rateRow(
    "the transfer statement on PGlite in-process: prepared (queryPrepared) vs PGlite's query",
    result.ours,
    result.anchor,
    1,
    { runs: result.runs },
  );
}
