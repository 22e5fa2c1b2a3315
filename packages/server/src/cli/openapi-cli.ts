import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { buildApp } from '../app.ts';
import { openDatabase } from '../db/client.ts';

// `npm run openapi [-- FILE]`: the OpenAPI document the server serves at /api/openapi.json, written
// to FILE (or printed) without a running server or a data folder: the app is built on an
// in-memory database with throwaway keys. For client generators and `npm run lint:openapi`
// (docs/api.md).
const database = await openDatabase({ kind: 'pglite' });
const key = () => randomBytes(32).toString('hex');
const app = await buildApp({
  database,
  jwtSecret: key(),
  totpKey: key(),
  seedKey: key(),
  logKey: key(),
  logLevel: 'silent',
  serveWeb: false,
});
try {
  await app.ready();
  const text = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  const file = process.argv[2];
  if (file) writeFileSync(file, text);
  else process.stdout.write(text);
} finally {
  await app.close();
  await database.close();
}
