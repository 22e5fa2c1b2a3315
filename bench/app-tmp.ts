import autocannon from 'autocannon';
import { buildApp } from '../packages/server/src/app.ts';
import { openDatabase } from '../packages/server/src/db/client.ts';
const database = await openDatabase({ kind: 'postgres', url: process.env.PGURL! });
const app = await buildApp({ database, jwtSecret: 'x'.repeat(40), logLevel: 'warn', serveWeb: false });
app.get('/api/ping', async () => ({ status: 'ok' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
for (const path of ['/api/ping', '/api/health']) {
  const r = await autocannon({ url: url + path, connections: 10, duration: 4 });
  console.log(path, r.requests.average, 'req/s, p50', r.latency.p50);
}
await app.close();
await database.close();
