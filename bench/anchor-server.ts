/**
 * The anchors' servers for `npm run bench`, each in its own process like ours:
 * `hello` — a bare Fastify answering `GET /api/health` with `{"status":"ok"}`;
 * `static ROOT` — @fastify/static alone serving the files of ROOT.
 */
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';

const [mode, staticRoot] = process.argv.slice(2);
const app = Fastify();
if (mode === 'hello') app.get('/api/health', async () => ({ status: 'ok' }));
else if (mode === 'static' && staticRoot) await app.register(fastifyStatic, { root: staticRoot });
else throw new Error('usage: anchor-server.ts hello | static ROOT');
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
