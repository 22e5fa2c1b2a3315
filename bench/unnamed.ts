/**
 * `node --import tsx bench/unnamed.ts`: what DATABASE_PREPARED=off costs (decision 055). One LOT
 * process on PostgreSQL, keyed transfers of 0.01 between 20 accounts (autocannon, TIMING), with the
 * hot statements named (the default) and unnamed, turn about, BENCH_ROUNDS rounds; and the same
 * unnamed through PgBouncer in transaction mode when `pgbouncer` is installed. Prints transfers
 * per second and CPU per transfer of the server and of PostgreSQL. PostgreSQL is the bench's own
 * (BENCH_PG_DIR), so that its CPU time is this run's alone; BENCH_DATABASE_URL overrides it.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accounts, ADMIN_PASSWORD } from './transfer.ts';
import {
  benchPostgres,
  cpuMs,
  freshDatabase,
  load,
  postgresCpuMs,
  postmasterOf,
  ROUNDS,
  scratchDir,
  startServer,
} from './lib.ts';

const base = benchPostgres();
const url = await freshDatabase(base.url, 'lot_bench_unnamed');
const first = await startServer({ DATABASE_URL: url, ADMIN_PASSWORD });
const { players } = await accounts(first, 20);
await first.stop();
const postmaster = await postmasterOf(url);

/** PgBouncer 1.18 in transaction mode in front of the bench's PostgreSQL, if installed. */
async function bouncer(): Promise<{ url: string; stop: () => void } | undefined> {
  const binary = existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : undefined;
  if (!binary) return undefined;
  const target = new URL(url);
  const dir = scratchDir('lot-bench-pgbouncer');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  writeFileSync(join(dir, 'users.txt'), `"${target.username || 'postgres'}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 10',
      ...(process.getuid?.() === 0 ? ['user = postgres'] : []),
      '',
    ].join('\n'),
  );
  const child = spawn(binary, [join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const pooled = new URL(url);
  pooled.port = String(port);
  return { url: pooled.toString(), stop: () => child.kill('SIGTERM') };
}

type Mode = { name: string; env: Record<string, string> };
const pooled = await bouncer();
const modes: Mode[] = [
  { name: 'named (default)', env: { DATABASE_URL: url } },
  { name: 'unnamed (DATABASE_PREPARED=off)', env: { DATABASE_URL: url, DATABASE_PREPARED: 'off' } },
  ...(pooled
    ? [
        {
          name: 'unnamed through PgBouncer (transaction mode)',
          env: { DATABASE_URL: pooled.url, DATABASE_DIRECT_URL: url, DATABASE_PREPARED: 'off' },
        },
      ]
    : []),
];

const best = new Map<string, { rate: number; server: number; postgres: number }>();
for (let round = 0; round < ROUNDS; round += 1) {
  for (const mode of modes) {
    const server = await startServer({ ...mode.env, ADMIN_PASSWORD });
    const serverBefore = cpuMs(server.pid);
    const postgresBefore = postgresCpuMs(postmaster);
    const result = await load({
      url: `${server.url}/api/balance/transfer`,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            const from = players[Math.floor(Math.random() * players.length)] ?? players[0];
            const others = players.filter((p) => p.id !== from?.id);
            const to = others[Math.floor(Math.random() * others.length)];
            return {
              ...request,
              headers: {
                'content-type': 'application/json',
                authorization: `Bearer ${from?.token}`,
                'idempotency-key': randomUUID(),
              },
              body: JSON.stringify({ receiverId: to?.id, amount: '0.01' }),
            };
          },
        },
      ],
    });
    const server_ = (cpuMs(server.pid) - serverBefore) / result.allRequests;
    const postgres = (postgresCpuMs(postmaster) - postgresBefore) / result.allRequests;
    await server.stop();
    if (result.errors > 0) throw new Error(`${mode.name}: ${result.errors} failed requests`);
    console.log(
      `round ${round + 1}, ${mode.name}: ${result.rate.toFixed(0)} transfers/s, server ${server_.toFixed(2)} ms, PostgreSQL ${postgres.toFixed(2)} ms of CPU per transfer`,
    );
    const kept = best.get(mode.name);
    if (!kept || result.rate > kept.rate) best.set(mode.name, { rate: result.rate, server: server_, postgres });
  }
}
pooled?.stop();
base.stop();
console.log('\nbest of each:');
for (const [name, figures] of best)
  console.log(
    `  ${name}: ${figures.rate.toFixed(0)}/s, server ${figures.server.toFixed(2)} ms, PostgreSQL ${figures.postgres.toFixed(2)} ms per transfer`,
  );
