/**
 * `npm run bench:transfer`: transfers through the HTTP API (autocannon → server → PostgreSQL)
 * against the database's own rate for the same transfer transaction (pgbench, same database,
 * same run). The ratio is the figure that holds on a noisy machine.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { api, benchPostgres, freshDatabase, pgbench, startServer } from './lib.ts';

const USERS = Number(process.env.BENCH_USERS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ADMIN_PASSWORD = 'bench-admin-password';

const pgServer = benchPostgres();
const url = await freshDatabase(pgServer.url, 'lot_bench_transfer');
const server = await startServer({
  DATABASE_URL: url,
  JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789',
  ADMIN_PASSWORD,
});

try {
  const admin = await api<{ accessToken: string }>(server.url, '/api/auth/signin', null, {
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  const players: { id: number; token: string }[] = [];
  for (let i = 0; i < USERS; i++) {
    const user = await api<{ id: number }>(server.url, '/api/users', admin.accessToken, {
      username: `bench_${i}`,
      password: 'bench-password',
      fullName: `Bench User ${i}`,
      role: 'user',
    });
    await api(server.url, '/api/balance/topup', admin.accessToken, { userId: user.id, amount: '1000000.00' });
    const login = await api<{ accessToken: string }>(server.url, '/api/auth/signin', null, {
      username: `bench_${i}`,
      password: 'bench-password',
    });
    players.push({ id: user.id, token: login.accessToken });
  }
  const ids = players.map((p) => p.id);
  const minId = Math.min(...ids);
  const maxId = Math.max(...ids);
  if (maxId - minId + 1 !== USERS) throw new Error('bench users must have consecutive ids');
  const hot = players[0];
  if (!hot) throw new Error('no users');

  const pick = () => players[Math.floor(Math.random() * players.length)] ?? hot;
  async function http(receiverOf: (sender: { id: number }) => number) {
    const result = await autocannon({
      url: `${server.url}/api/balance/transfer`,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            let sender = pick();
            while (sender.id === receiverOf(sender)) sender = pick();
            return {
              ...request,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${sender.token}` },
              body: JSON.stringify({ receiverId: receiverOf(sender), amount: '0.01' }),
            };
          },
        },
      ],
    });
    return { rate: result.requests.average, errors: result.non2xx + result.errors, p99: result.latency.p99 };
  }

  // The transaction the service runs, as plain SQL: lock both balances in id order, move, record.
  const script = (receiver: string) => `
\\set s random(:min, :max)
\\set r ${receiver}
\\set lo least(:s, :r)
\\set hi greatest(:s, :r)
BEGIN;
SELECT user_id, amount FROM balances WHERE user_id IN (:lo, :hi) ORDER BY user_id FOR UPDATE;
UPDATE balances SET amount = amount - 1 WHERE user_id = :s;
UPDATE balances SET amount = amount + 1 WHERE user_id = :r;
INSERT INTO transactions (type, user_id, receiver_id, actor_id, amount) VALUES ('transfer', :s, :r, :s, 1);
END;
`;
  const uniformScript = join(tmpdir(), 'lot-transfer-uniform.sql');
  const hotScript = join(tmpdir(), 'lot-transfer-hot.sql');
  // A receiver different from the sender: shift by 1..n-1 around the id range.
  writeFileSync(uniformScript, script(`:min + ((:s - :min + random(1, :max - :min)) % (:max - :min + 1))`));
  writeFileSync(hotScript, script(':min').replace('\\set s random(:min, :max)', '\\set s random(:min + 1, :max)'));

  const rows: string[] = [];
  for (const [name, receiverOf, file] of [
    [
      'uniform accounts',
      (s: { id: number }) => (s.id === maxId ? minId : s.id + 1 + Math.floor(Math.random() * (maxId - s.id))),
      uniformScript,
    ],
    ['one hot receiver', () => hot.id, hotScript],
  ] as const) {
    const ours = await http(receiverOf);
    const anchor = pgbench(url, file, { clients: CONNECTIONS, seconds: SECONDS, vars: { min: minId, max: maxId } });
    const ratio = ours.rate / anchor.tps;
    rows.push(
      `| transfers, ${name} | ${ours.rate.toFixed(0)}/s (p99 ${ours.p99} ms, ${ours.errors} errors) | ${anchor.tps.toFixed(0)}/s (${anchor.failed} failed) | ${ratio.toFixed(2)} |`,
    );
  }
  console.log(`\nTransfers on PostgreSQL, ${CONNECTIONS} connections, ${SECONDS} s each, ${USERS} accounts`);
  console.log('| scenario | HTTP API | pgbench (same SQL, same database) | ratio |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  server.child.kill('SIGTERM');
  pgServer.stop();
}
