import { sql } from 'drizzle-orm';
import { hashPassword } from '../lib/passwords.ts';
import type { Db, Tx } from '../db/client.ts';

export type ScaleOptions = { users: number; games: number; superagents: number; agentsPerSuperagent: number };

export const SCALE_PASSWORD = 'scale1234';

/**
 * Loads a large, ledger-consistent data set for measurement, set-based in SQL: superagents
 * `sa_N`, agents `ag_N` under them, users `u_N` (one in twenty directly under a superagent, the
 * rest under agents), games spread over the last 365 days with their ledger rows, and top-ups
 * that pay for every game and leave 1,000.00 on each balance. Everyone's password is
 * SCALE_PASSWORD. Synthetic games carry no participant details. They are sales records (`games`)
 * without a played game (`game_rounds`): no commitment, seed, freeze or draw, so nothing for the
 * game log to record (decision 092), and `audit:verify --log` holds only played games to it.
 */
export async function seedScale(db: Db, options: ScaleOptions): Promise<void> {
  const hash = await hashPassword(SCALE_PASSWORD);
  const agents = options.superagents * options.agentsPerSuperagent;
  const players = options.users - options.superagents - agents;
  if (players <= 0) throw new Error('not enough users for the hierarchy');
  await db.transaction(async (tx) => {
    const [{ base } = { base: 0 }] = (
      (await tx.execute(sql`SELECT COALESCE(max(id), 0) AS base FROM users`)) as unknown as { rows: { base: number }[] }
    ).rows;
    const b = Number(base);
    const firstAgent = b + options.superagents + 1;
    const firstPlayer = firstAgent + agents;
    await tx.execute(sql`
      INSERT INTO users (id, username, password_hash, full_name, role, parent_id, parent_role, shop_name)
      OVERRIDING SYSTEM VALUE
      SELECT ${b} + n, 'sa_' || n, ${hash}, 'Super Agent ' || n, 'superagent', NULL, NULL, NULL
      FROM generate_series(1, ${options.superagents}) AS n`);
    await tx.execute(sql`
      INSERT INTO users (id, username, password_hash, full_name, role, parent_id, parent_role)
      OVERRIDING SYSTEM VALUE
      SELECT ${firstAgent - 1} + n, 'ag_' || n, ${hash}, 'Agent ' || n, 'agent',
             ${b} + 1 + (n - 1) / ${options.agentsPerSuperagent}, 'superagent'
      FROM generate_series(1, ${agents}) AS n`);
    await tx.execute(sql`
      INSERT INTO users (id, username, password_hash, full_name, role, parent_id, parent_role, shop_name)
      OVERRIDING SYSTEM VALUE
      SELECT ${firstPlayer - 1} + n, 'u_' || n, ${hash}, 'Player ' || n, 'user',
             CASE WHEN n % 20 = 1 THEN ${b} + 1 + (n / 20) % ${options.superagents} ELSE ${firstAgent} + (n % ${agents}) END,
             CASE WHEN n % 20 = 1 THEN 'superagent' ELSE 'agent' END,
             'Shop ' || n
      FROM generate_series(1, ${players}) AS n`);
    await tx.execute(sql`SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT max(id) FROM users))`);

    // Games: player, bet 1–20.00, 3–20 numbers, 80% paid out; a ledger row each.
    const [{ txBase } = { txBase: 0 }] = (
      (await tx.execute(sql`SELECT COALESCE(max(id), 0) AS "txBase" FROM transactions`)) as unknown as {
        rows: { txBase: number }[];
      }
    ).rows;
    await tx.execute(sql`
      CREATE TEMP TABLE scale_games ON COMMIT DROP AS
      SELECT n,
             ${firstPlayer} + ((n::bigint * 7919) % ${players})::int AS user_id,
             (100 * (1 + n % 20))::bigint AS bet,
             3 + n % 18 AS selected,
             now() - make_interval(secs => (n * 31.536)::int % 31536000) AS created_at,
             ${Number(txBase)} + n AS tx
      FROM generate_series(1, ${options.games}) AS n`);
    await insertSyntheticGames(tx, 'scale_games');

    await tx.execute(
      sql`SELECT setval(pg_get_serial_sequence('transactions', 'id'), (SELECT max(id) FROM transactions))`,
    );

    // Balances and the top-ups that fund them: 1,000.00 left after every game.
    const [{ adminId } = { adminId: null }] = (
      (await tx.execute(sql`SELECT min(id) AS "adminId" FROM users WHERE role = 'admin'`)) as unknown as {
        rows: { adminId: number | null }[];
      }
    ).rows;
    if (adminId === null) throw new Error('create the admin first (start the server once)');
    await tx.execute(sql`
      INSERT INTO balances (user_id, amount)
      SELECT id, 100000 FROM users WHERE id > ${b}`);
    await tx.execute(sql`
      INSERT INTO transactions (type, user_id, receiver_id, actor_id, amount, created_at)
      SELECT 'topup', ${adminId}, u.id, ${adminId}, 100000 + COALESCE(s.spent, 0), now() - interval '366 days'
      FROM users u LEFT JOIN (SELECT user_id, sum(bet * selected) AS spent FROM scale_games GROUP BY user_id) s
        ON s.user_id = u.id
      WHERE u.id > ${b}`);
    // Synthetic history has no audit trail (no user.created, money or game rows): its ledger rows
    // count as written before the trail, so `audit:verify` compares what happens after (decision 044).
    await tx.execute(sql`UPDATE audit_baseline SET ledger_from = (SELECT max(id) FROM transactions) WHERE id = 1`);
  });
  // Fresh statistics, and a visibility map so that counts and pages are index-only scans.
  for (const table of ['users', 'balances', 'transactions', 'games']) {
    await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
  }
  // The triggers left one dead version of a rollup row per seeded game or top-up (50 MB for the
  // 36,600 rows of sales_daily); in service autovacuum keeps them near their live size, so rewrite
  // them compactly.
  for (const table of ['sales_daily', 'branch_daily', 'money_daily']) {
    await db.execute(sql.raw(`VACUUM FULL ANALYZE ${table}`));
  }
}

/**
 * Settled synthetic games, each with its ledger row, from the table `source` of (user_id, bet,
 * selected, created_at, tx), tx being the ledger row's id: the player's parent and superagent
 * copied as a real game copies them, 80 % of the pool paid out, no participant details.
 */
export async function insertSyntheticGames(db: Db | Tx, source: string): Promise<void> {
  await db.execute(
    sql.raw(`
      INSERT INTO transactions (id, type, user_id, actor_id, amount, description, created_at)
      OVERRIDING SYSTEM VALUE
      SELECT tx, 'game', user_id, user_id, bet * selected,
             'Game played with ' || selected || ' numbers, 2 winners', created_at
      FROM ${source}`),
  );
  await db.execute(
    sql.raw(`
      INSERT INTO games (user_id, parent_id, superagent_id, start_range, end_range, bet_amount, pool, total_prize,
                         commission, selected_count, winners_count, game_data, transaction_id, created_at)
      SELECT g.user_id, u.parent_id,
             CASE WHEN u.parent_role = 'superagent' THEN u.parent_id ELSE p.parent_id END,
             1, 20, g.bet, g.bet * g.selected, (g.bet * g.selected * 8) / 10,
             g.bet * g.selected - (g.bet * g.selected * 8) / 10, g.selected, 2,
             '{"selectedNumbers": [], "winningNumbers": [], "drawCount": 0, "synthetic": true}'::jsonb,
             g.tx, g.created_at
      FROM ${source} g JOIN users u ON u.id = g.user_id LEFT JOIN users p ON p.id = u.parent_id`),
  );
}
