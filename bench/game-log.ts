/**
 * `npm run bench -- log`: an append to the game log holding 1,000,000 leaves (decision 081), on
 * PostgreSQL and on the embedded database. The million leaves are made directly in SQL — entries,
 * every complete subtree's hash, the head's edge — with made-up hashes: an append reads only the
 * head, so what it costs does not depend on the hashes being a real tree, only on the tables'
 * sizes. Then 200 appends, one transaction each, as a game event makes them.
 */
import { sql } from 'drizzle-orm';
import { rootRefs } from '@lot/domain/tlog/merkle';
import { openDatabase, queryRows, type Database } from '../packages/server/src/db/client.ts';
import { appendGameLeaves } from '../packages/server/src/lib/game-log.ts';
import { freshDatabase, type Row } from './lib.ts';

const LEAVES = 1_000_000;
const APPENDS = 200;
const TARGET_MS = 5;

/** The log of LEAVES leaves, built in a few statements. */
async function fillLog(database: Database): Promise<void> {
  const { db } = database;
  const hash = (seed: string) => sql.raw(`decode(md5(${seed}) || md5('x' || ${seed}), 'hex')`);
  await db.execute(sql`INSERT INTO game_log_entries (idx, game_id, kind, data)
    SELECT i, 0, 'discarded', convert_to('bench leaf ' || i, 'UTF8') FROM generate_series(0, ${LEAVES - 1}::bigint) AS i`);
  for (let level = 0; 2 ** level <= LEAVES; level++) {
    const count = Math.floor(LEAVES / 2 ** level);
    await db.execute(sql`INSERT INTO game_log_hashes (level, idx, hash)
      SELECT ${level}::int, i, ${hash(`${level}::text || '/' || i::text`)} FROM generate_series(0, ${count - 1}::bigint) AS i`);
  }
  const refs = rootRefs(LEAVES);
  const edge = await queryRows<{ hash: string }>(
    db,
    sql`SELECT encode(h.hash, 'hex') AS hash FROM jsonb_to_recordset(${JSON.stringify(refs)}::jsonb) AS r(level int, index bigint)
      JOIN game_log_hashes h ON h.level = r.level AND h.idx = r.index ORDER BY r.level DESC`,
  );
  await db.execute(
    sql`UPDATE game_log SET size = ${LEAVES}::bigint, edge = decode(${edge.map((e) => e.hash).join('')}, 'hex') WHERE id = 1`,
  );
}

/** APPENDS appends, one transaction each, as a game event makes them: their times in ms, sorted. */
async function appendTimes(database: Database, tag: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const start = performance.now();
    await database.db.transaction((tx) =>
      appendGameLeaves(tx, 0, [{ event: 'discarded', code: `bench-${tag}-${i}`, outcome: '00', seed: '00' }]),
    );
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const summary = (sorted: number[]) =>
  `p50 ${quantile(sorted, 0.5).toFixed(2)} ms, p95 ${quantile(sorted, 0.95).toFixed(2)} ms`;

/**
 * The anchor is the same append on a fresh log (a few leaves), measured on the same database just
 * before: their gap is what the million leaves cost, whatever the machine's load.
 */
async function appendRow(name: string, database: Database): Promise<Row> {
  const empty = await appendTimes(database, 'empty');
  await database.db.execute(sql`TRUNCATE game_log_entries, game_log_hashes`);
  await database.db.execute(sql`UPDATE game_log SET size = 0, edge = '\\x'::bytea WHERE id = 1`);
  const built = performance.now();
  await fillLog(database);
  const fillSeconds = (performance.now() - built) / 1000;
  const full = await appendTimes(database, 'full');
  const [size] = await queryRows<{ size: string }>(database.db, sql`SELECT size FROM game_log`);
  if (Number(size?.size) !== LEAVES + APPENDS) throw new Error(`the bench log has ${size?.size} leaves`);
  const median = quantile(full, 0.5);
  return {
    scenario: `log: append one leaf to a 1,000,000-leaf game log, one transaction (${name})`,
    ours: summary(full),
    anchor: `empty log: ${summary(empty)}`,
    ratio: `${(median / quantile(empty, 0.5)).toFixed(1)}× at p50`,
    target: `p50 < ${TARGET_MS} ms (decision 081)`,
    met: median < TARGET_MS,
    raw: { full, empty, fillSeconds },
  };
}

export async function gameLogScenarios(pgUrl: string): Promise<Row[]> {
  const rows: Row[] = [];
  const postgres = await openDatabase({ kind: 'postgres', url: await freshDatabase(pgUrl, 'lot_bench_log') });
  try {
    rows.push(await appendRow('PostgreSQL', postgres));
  } finally {
    await postgres.close();
  }
  const pglite = await openDatabase({ kind: 'pglite' });
  try {
    rows.push(await appendRow('PGlite', pglite));
  } finally {
    await pglite.close();
  }
  return rows;
}
