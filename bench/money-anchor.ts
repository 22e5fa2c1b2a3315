/**
 * The floor of any Node money API (issue 21): `node:http` and `pg`, nothing else — no framework,
 * no validation, no logging, the caller found in a map by its bearer token. POST
 * /api/balance/transfer runs the service's own money statement (`moveStatement`, keyed when the
 * request carries an Idempotency-Key), prepared by name as the service prepares it, and answers
 * the JSON the statement built. `node --import tsx bench/money-anchor.ts DATABASE_URL PLAYERS_FILE`,
 * where PLAYERS_FILE maps each token to its caller.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { transferMove } from '../packages/server/src/modules/balance/balance.service.ts';
import { moveStatement } from '../packages/server/src/modules/balance/balance.repository.ts';
import { claimOf } from '../packages/server/src/lib/idempotency.ts';
import type { Caller } from '../packages/server/src/lib/caller.ts';

const [url, playersFile] = process.argv.slice(2);
if (!url || !playersFile) throw new Error('usage: money-anchor.ts DATABASE_URL PLAYERS_FILE');
const callers = new Map(Object.entries(JSON.parse(readFileSync(playersFile, 'utf8')) as Record<string, Caller>));
const pool = new pg.Pool({ connectionString: url, max: 10 });
const dialect = new PgDialect();

const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    const caller = callers.get((request.headers.authorization ?? '').slice('Bearer '.length));
    if (!caller || request.url !== '/api/balance/transfer') {
      response.writeHead(404).end();
      return;
    }
    const input = JSON.parse(body) as { receiverId: number; amount: string };
    const transfer = { receiverId: input.receiverId, amount: Math.round(Number(input.amount) * 100) };
    const key = request.headers['idempotency-key'];
    const claim = typeof key === 'string' ? claimOf(caller.id, key, { op: 'transfer', ...transfer }) : undefined;
    const built = dialect.sqlToQuery(moveStatement(transferMove(caller, transfer), claim));
    const name = `lot_${createHash('sha1').update(built.sql).digest('hex').slice(0, 24)}`;
    pool
      .query<{ answer: unknown }>({ name, text: built.sql, values: built.params })
      .then(({ rows }) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows[0]?.answer));
      })
      .catch(() => response.writeHead(500).end());
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
