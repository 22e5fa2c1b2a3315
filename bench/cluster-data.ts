/**
 * The cluster bench's data set, the same on every machine (issue 43): seeded to the sizes below
 * before anything is measured, never "whatever the machine wrote in N seconds".
 *
 * - Background: seed:scale's hierarchy (superagents, agents under them, players under both) with
 *   its games spread over the last year and a ledger row each. Seeded once into the kept database
 *   BACKGROUND.database (like the scale data sets, bench/history.ts) and copied for every run
 *   (CREATE DATABASE … TEMPLATE: seconds, where seeding takes minutes on a busy machine).
 * - The bench's own accounts (bench/transfer.ts `accounts`, through the API): they send the
 *   transfers and play the games.
 * - Two groups of those accounts get a history of their own, the reads' subjects: `short` shops
 *   with SHORT games on their record, `long` ones with LONG, spread over the last year, each game
 *   with its ledger row and a top-up that paid for them all (the ledger still balances).
 *
 * The reads are measured first, on exactly this; the writes measured after add rows to it.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../packages/server/src/db/client.ts';
import { insertSyntheticGames } from '../packages/server/src/cli/seed-scale.ts';
import { prepare, type ScaleSize } from './history.ts';
import { databaseUrl } from './lib.ts';

/** seed:scale's hierarchy: 100 superagents, 1,000 agents, the rest players. */
export const BACKGROUND: ScaleSize = { database: 'lot_bench_cluster_base', users: 2_000, games: 100_000 };
/** Games on the record of each read shop of the two groups, and how many shops each group has. */
export const HISTORY = { short: 1_000, long: 10_000, shopsEach: 4 };

/** Every table the figures depend on, counted. */
export type DataSize = { users: number; games: number; transactions: number; gameRounds: number };

export async function countData(url: string): Promise<DataSize> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<DataSize>(`SELECT
      (SELECT count(*) FROM users)::int AS users,
      (SELECT count(*) FROM games)::int AS games,
      (SELECT count(*) FROM transactions)::int AS transactions,
      (SELECT count(*) FROM game_rounds)::int AS "gameRounds"`);
    const size = rows[0];
    if (!size) throw new Error('no counts');
    return size;
  } finally {
    await client.end();
  }
}

/** A fresh copy of the background data set (seeded first when missing) as `name`; answers its URL. */
export async function freshCopy(pgUrl: string, name: string): Promise<string> {
  await prepare(pgUrl, BACKGROUND);
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${BACKGROUND.database}`);
  } finally {
    await client.end();
  }
  return databaseUrl(pgUrl, name);
}

/**
 * `games` settled games on each of `shopIds`' record, over the last 365 days, as seed:scale writes
 * them (bets 1.00–20.00, 3–20 numbers, 80 % paid out), and one top-up per shop that paid for them.
 */
export async function seedHistory(url: string, shopIds: number[], games: number): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`
        CREATE TEMP TABLE history ON COMMIT DROP AS
        SELECT s.id AS user_id, n, (100 * (1 + n % 20))::bigint AS bet, 3 + n % 18 AS selected,
               now() - make_interval(secs => ((n::bigint * 31536000) / ${games})::int) AS created_at,
               nextval(pg_get_serial_sequence('transactions', 'id')) AS tx
        FROM unnest(${`{${shopIds.join(',')}}`}::int[]) AS s(id), generate_series(1, ${games}) AS n`);
      await insertSyntheticGames(tx, 'history');
      await tx.execute(sql`
        INSERT INTO transactions (type, user_id, receiver_id, actor_id, amount, created_at)
        SELECT 'topup', a.id, h.user_id, a.id, sum(h.bet * h.selected), now() - interval '366 days'
        FROM history h, (SELECT min(id) AS id FROM users WHERE role = 'admin') a
        GROUP BY a.id, h.user_id`);
      // Written outside the audit trail, like seed:scale's: the baseline moves past it (decision 044).
      await tx.execute(sql`UPDATE audit_baseline SET ledger_from = (SELECT max(id) FROM transactions) WHERE id = 1`);
    });
  } finally {
    await database.close();
  }
}

/** As a database in service keeps it (autovacuum): fresh statistics and visibility maps. */
export async function vacuum(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('VACUUM (ANALYZE)').finally(() => client.end());
}
