import { sql, type SQL } from 'drizzle-orm';
import { AppError } from '@lot/domain/errors';
import { formatCents } from '@lot/domain/money';
import type { Downline, DownlineFigures, DownlineQuery, DownlineRow } from '@lot/domain/schemas/reports';
import { queryRows, type Db } from '../../db/client.ts';
import type { Caller } from '../../lib/caller.ts';
import { findInScope } from '../users/users.repository.ts';
import { DEFAULT_TIME_ZONE } from './reports.service.ts';

type Node = { id: number; username: string; fullName: string; role: 'admin' | 'superagent' | 'agent' };

/**
 * How the report cuts the hierarchy below a node into rows (decisions 015 and 023). Games are
 * counted by the hierarchy recorded with them (decision 006), so the rows add up to the sales
 * history of the node:
 * - `games` / `rounds`: which games are the node's, and the row (a direct child's id) each belongs to;
 * - `rollup`: the same figures for whole UTC days from a daily rollup (the admin: `sales_daily` per
 *   super agent and `branch_daily` for players without one; a super agent: its `branch_daily`
 *   rows), or none (an agent's games are few: read them all);
 * - `money`: for a super agent or an agent, `member`, the row an account belongs to now (null:
 *   outside every row — the node, its upline, other branches), and `subtree`, the accounts that can
 *   have one, as a query; none for the admin, whose rows are the accounts' top-level subtrees
 *   (`account_top`, `money_daily`);
 * - `children`: the node's live direct children, listed even without activity.
 */
function cut(node: Node) {
  // The superagent and the agent an account is under now (itself if it is one).
  const superagentOf = sql`CASE u.role WHEN 'superagent' THEN u.id WHEN 'agent' THEN u.parent_id
    ELSE CASE p.role WHEN 'superagent' THEN p.id WHEN 'agent' THEN p.parent_id END END`;
  const agentOf = sql`CASE u.role WHEN 'agent' THEN u.id WHEN 'user' THEN CASE WHEN p.role = 'agent' THEN p.id END END`;
  const figures = sql`games, numbers, pool, prizes, commission`;
  const days = sql`day >= b.first_day AND day < b.end_day`;
  const n = node.id;
  switch (node.role) {
    case 'admin':
      return {
        games: (g: SQL) => ({ where: sql`true`, key: sql`COALESCE(${g}.superagent_id, ${g}.user_id)` }),
        rollup: sql`SELECT superagent_id AS key, ${figures} FROM sales_daily, bounds b WHERE superagent_id <> 0 AND ${days}
          UNION ALL SELECT branch_id, ${figures} FROM branch_daily, bounds b WHERE superagent_id = 0 AND ${days}`,
        money: undefined,
        children: sql`(c.role = 'superagent' OR (c.role = 'user' AND c.parent_id IS NULL))`,
      };
    case 'superagent':
      return {
        games: (g: SQL) => ({
          where: sql`${g}.superagent_id = ${n}`,
          key: sql`CASE WHEN ${g}.parent_id = ${n} THEN ${g}.user_id ELSE ${g}.parent_id END`,
        }),
        rollup: sql`SELECT branch_id AS key, ${figures} FROM branch_daily, bounds b WHERE superagent_id = ${n} AND ${days}`,
        money: {
          member: sql`CASE WHEN ${superagentOf} = ${n} AND u.id <> ${n} THEN COALESCE(${agentOf}, u.id) END`,
          subtree: sql`SELECT * FROM users WHERE parent_id = ${n}
            UNION ALL SELECT u.* FROM users a JOIN users u ON u.parent_id = a.id WHERE a.parent_id = ${n} AND a.role = 'agent'`,
        },
        children: sql`c.parent_id = ${n}`,
      };
    case 'agent':
      return {
        games: (g: SQL) => ({ where: sql`${g}.parent_id = ${n}`, key: sql`${g}.user_id` }),
        rollup: undefined,
        money: {
          member: sql`CASE WHEN ${agentOf} = ${n} AND u.id <> ${n} THEN u.id END`,
          subtree: sql`SELECT * FROM users WHERE parent_id = ${n}`,
        },
        children: sql`c.parent_id = ${n}`,
      };
  }
}

/** The ledger rows the report counts as money between accounts (the admin's rollup keeps these). */
const MOVES = sql`t.type IN ('topup', 'transfer', 'takeback') AND t.status = 'completed'`;
/** And the admin's corrections, which take money off one account (docs/product/money.md#corrections). */
const MOVES_AND_CORRECTIONS = sql`t.type IN ('topup', 'transfer', 'takeback', 'decrease') AND t.status = 'completed'`;

/**
 * The money that crossed the node's rows in the period, as `flows` (type, amount, and the row of
 * each side, null outside every row). Under the admin: whole UTC days from `money_daily` (already
 * keyed by top-level subtree) and the edge days from the ledger; under a super agent or an agent:
 * the ledger rows of the accounts in its subtree, found through each account's own indexes.
 */
function flowsOf({ money }: ReturnType<typeof cut>): SQL {
  if (!money) {
    const edge = (range: SQL) => sql`SELECT t.type, t.amount, NULLIF(account_top(t.user_id), 0) AS from_key,
        NULLIF(account_top(t.receiver_id), 0) AS to_key
      FROM transactions t, bounds b WHERE ${MOVES} AND ${range}`;
    return sql`flows AS (
      SELECT type, amount, NULLIF(from_top, 0) AS from_key, NULLIF(to_top, 0) AS to_key
        FROM money_daily, bounds b WHERE day >= b.first_day AND day < b.end_day
      UNION ALL ${edge(sql`t.created_at >= b.period_start AND t.created_at < b.whole_start`)}
      UNION ALL ${edge(sql`t.created_at >= b.whole_end AND t.created_at < b.period_end`)}
      UNION ALL SELECT t.type, t.amount, NULLIF(account_top(t.user_id), 0), NULL
        FROM transactions t, bounds b
        WHERE t.type = 'decrease' AND t.created_at >= b.period_start AND t.created_at < b.period_end
    )`;
  }
  // Each account's rows through its own index: a lateral lookup per account (OFFSET 0 keeps the
  // planner from flattening it into a scan of the whole period's ledger).
  const touching = (side: SQL) => sql`SELECT t.id FROM members m CROSS JOIN bounds b
      CROSS JOIN LATERAL (SELECT t.id FROM transactions t WHERE ${side} = m.id
        AND t.created_at >= b.period_start AND t.created_at < b.period_end AND ${MOVES_AND_CORRECTIONS} OFFSET 0) t`;
  return sql`members AS (
      SELECT u.id, ${money.member} AS key FROM (${money.subtree}) u LEFT JOIN users p ON p.id = u.parent_id
    ), flows AS (
      SELECT t.type, t.amount, s.key AS from_key, r.key AS to_key
      FROM (${touching(sql`t.user_id`)} UNION ${touching(sql`t.receiver_id`)}) moved
      JOIN transactions t ON t.id = moved.id
      LEFT JOIN members s ON s.id = t.user_id
      LEFT JOIN members r ON r.id = t.receiver_id
    )`;
}

/** The node: the caller, or `parentId` in the caller's scope (outside it 404) that has children (else 400). */
async function nodeOf(db: Db, caller: Caller, parentId: number | undefined): Promise<Node> {
  if (caller.role === 'user')
    throw new AppError('FORBIDDEN', 'Only the admin, super agents and agents have a downline');
  if (parentId === undefined || parentId === caller.id) return { ...caller, role: caller.role };
  const target = await findInScope(db, caller, parentId);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  if (target.role !== 'superagent' && target.role !== 'agent') {
    throw AppError.field('parentId', 'Choose a super agent or an agent');
  }
  return { id: target.id, username: target.username, fullName: target.fullName, role: target.role };
}

type Row = {
  id: number;
  username: string;
  full_name: string;
  role: string;
  status: string;
  deleted: boolean;
  settled: string;
  numbers: string;
  pool: string;
  prizes: string;
  commission: string;
  voided: string;
  topups: string;
  received: string;
  sent: string;
  taken: string;
  corrected: string;
  period_start: Date | string;
  period_end: Date | string;
};

const ROLE_ORDER = sql`CASE u.role WHEN 'superagent' THEN 0 WHEN 'agent' THEN 1 ELSE 2 END`;

/**
 * The downline report (docs/product/reports.md#downline-report): one row per direct child of the
 * node with its whole subtree summed in, and the totals, in one statement. Games are grouped by the
 * hierarchy recorded on them through the sales-history indexes (superagent, parent, or time for the
 * admin); money by where the accounts stand now, counting only what crosses a row's edge.
 */
export async function downline(db: Db, caller: Caller, query: DownlineQuery): Promise<Downline> {
  const node = await nodeOf(db, caller, query.parentId);
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  const plan = cut(node);
  const sales = plan.games(sql`g`);
  const voids = plan.games(sql`r`);
  const rows = await queryRows<Row>(
    db,
    sql`
    WITH period AS (
      SELECT (${query.from}::date)::timestamp AT TIME ZONE ${timeZone} AS period_start,
             (${query.to}::date + 1)::timestamp AT TIME ZONE ${timeZone} AS period_end
    ), days AS (
      -- The whole UTC days inside the period, which a rollup answers (none without one).
      SELECT period_start, period_end,
             ((period_start AT TIME ZONE 'UTC') + interval '1 day' - interval '1 microsecond')::date AS first_day,
             CASE WHEN ${plan.rollup ? sql`true` : sql`false`} THEN (period_end AT TIME ZONE 'UTC')::date
               ELSE '-infinity'::date END AS end_day
      FROM period
    ), bounds AS (
      -- Rows of the ledger and the games are read for the partial days at either edge:
      -- [period_start, whole_start) and [whole_end, period_end), or the whole period.
      SELECT d.*,
             CASE WHEN d.first_day < d.end_day THEN d.first_day::timestamp AT TIME ZONE 'UTC' ELSE d.period_end END AS whole_start,
             CASE WHEN d.first_day < d.end_day THEN d.end_day::timestamp AT TIME ZONE 'UTC' ELSE d.period_end END AS whole_end
      FROM days d
    ), sales AS (
      -- The partial days' games one by one, the whole days' sums from the rollup, grouped once.
      SELECT key, sum(games) AS settled, sum(numbers) AS numbers, sum(pool) AS pool, sum(prizes) AS prizes,
        sum(commission) AS commission
      FROM (
        SELECT ${sales.key} AS key, 1 AS games, g.selected_count AS numbers, g.pool, g.total_prize AS prizes, g.commission
        FROM games g, bounds b WHERE ${sales.where} AND g.created_at >= b.period_start AND g.created_at < b.whole_start
        UNION ALL
        SELECT ${sales.key}, 1, g.selected_count, g.pool, g.total_prize, g.commission
        FROM games g, bounds b WHERE ${sales.where} AND g.created_at >= b.whole_end AND g.created_at < b.period_end
        ${plan.rollup ? sql`UNION ALL ${plan.rollup}` : sql``}
      ) played GROUP BY key
    ), voids AS (
      SELECT ${voids.key} AS key, count(*) AS voided
      FROM game_rounds r, bounds b
      WHERE ${voids.where} AND r.status = 'voided' AND r.ended_at >= b.period_start AND r.ended_at < b.period_end
      GROUP BY 1
    ), ${flowsOf(plan)}, money AS (
      SELECT key, sum(topups) AS topups, sum(received) AS received, sum(sent) AS sent, sum(taken) AS taken,
        sum(corrected) AS corrected FROM (
        SELECT to_key AS key, amount AS topups, 0 AS received, 0 AS sent, 0 AS taken, 0 AS corrected
          FROM flows WHERE type = 'topup' AND to_key IS NOT NULL
        UNION ALL
        SELECT to_key, 0, amount, 0, 0, 0
          FROM flows WHERE type = 'transfer' AND to_key IS NOT NULL AND from_key IS DISTINCT FROM to_key
        UNION ALL
        SELECT from_key, 0, 0, amount, 0, 0
          FROM flows WHERE type = 'transfer' AND from_key IS NOT NULL AND from_key IS DISTINCT FROM to_key
        UNION ALL
        SELECT from_key, 0, 0, 0, amount, 0
          FROM flows WHERE type = 'takeback' AND from_key IS NOT NULL AND from_key IS DISTINCT FROM to_key
        UNION ALL
        SELECT from_key, 0, 0, 0, 0, amount FROM flows WHERE type = 'decrease' AND from_key IS NOT NULL
      ) moved GROUP BY key
    ), figures AS (
      -- One UNION ALL grouped once (not a join per part): the planner's estimates stay small, so
      -- PostgreSQL does not spend seconds compiling (JIT) a plan it believes returns millions of rows.
      SELECT key, settled, numbers, pool, prizes, commission, 0 AS voided, 0 AS topups, 0 AS received, 0 AS sent,
        0 AS taken, 0 AS corrected
        FROM sales
      UNION ALL SELECT key, 0, 0, 0, 0, 0, voided, 0, 0, 0, 0, 0 FROM voids
      UNION ALL SELECT key, 0, 0, 0, 0, 0, 0, topups, received, sent, taken, corrected FROM money
      UNION ALL SELECT c.id, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 FROM users c WHERE ${plan.children} AND c.deleted_at IS NULL
    ), grouped AS (
      SELECT key, sum(settled) AS settled, sum(numbers) AS numbers, sum(pool) AS pool, sum(prizes) AS prizes,
        sum(commission) AS commission, sum(voided) AS voided, sum(topups) AS topups, sum(received) AS received,
        sum(sent) AS sent, sum(taken) AS taken, sum(corrected) AS corrected
      FROM figures GROUP BY key
    )
    SELECT u.id, u.username, u.full_name, u.role, u.status, u.deleted_at IS NOT NULL AS deleted,
      f.settled::text AS settled, f.numbers::text AS numbers, f.pool::text AS pool, f.prizes::text AS prizes,
      f.commission::text AS commission, f.voided::text AS voided, f.topups::text AS topups,
      f.received::text AS received, f.sent::text AS sent, f.taken::text AS taken, f.corrected::text AS corrected,
      b.period_start, b.period_end
    FROM bounds b
    LEFT JOIN grouped f ON true
    LEFT JOIN users u ON u.id = f.key
    ORDER BY ${ROLE_ORDER}, u.full_name, u.id`,
  );
  const bounds = rows[0];
  if (!bounds) throw new Error('downline query returned no row');
  const children = rows.filter((row) => row.id !== null);
  const totals = { settled: 0n, numbers: 0n, pool: 0n, prizes: 0n, commission: 0n, voided: 0n };
  const money = { topups: 0n, received: 0n, sent: 0n, taken: 0n, corrected: 0n };
  const figures = (row: Row): DownlineFigures => {
    totals.settled += BigInt(row.settled);
    totals.numbers += BigInt(row.numbers);
    totals.pool += BigInt(row.pool);
    totals.prizes += BigInt(row.prizes);
    totals.commission += BigInt(row.commission);
    totals.voided += BigInt(row.voided);
    money.topups += BigInt(row.topups);
    money.received += BigInt(row.received);
    money.sent += BigInt(row.sent);
    money.taken += BigInt(row.taken);
    money.corrected += BigInt(row.corrected);
    return {
      settledGames: Number(row.settled),
      numbersSold: Number(row.numbers),
      pool: formatCents(BigInt(row.pool)),
      prizes: formatCents(BigInt(row.prizes)),
      commission: formatCents(BigInt(row.commission)),
      voidedGames: Number(row.voided),
      topUps: formatCents(BigInt(row.topups)),
      transfersReceived: formatCents(BigInt(row.received)),
      transfersSent: formatCents(BigInt(row.sent)),
      takenBack: formatCents(BigInt(row.taken)),
      corrections: formatCents(BigInt(row.corrected)),
    };
  };
  const list = children.map((row): DownlineRow => ({
    user: {
      id: Number(row.id),
      username: row.username,
      fullName: row.full_name,
      role: row.role,
      status: row.status,
      deleted: row.deleted,
    },
    ...figures(row),
  }));
  return {
    parent: { id: node.id, username: node.username, fullName: node.fullName, role: node.role },
    timeZone,
    from: new Date(bounds.period_start).toISOString(),
    to: new Date(bounds.period_end).toISOString(),
    rows: list,
    totals: {
      settledGames: Number(totals.settled),
      numbersSold: Number(totals.numbers),
      pool: formatCents(totals.pool),
      prizes: formatCents(totals.prizes),
      commission: formatCents(totals.commission),
      voidedGames: Number(totals.voided),
      topUps: formatCents(money.topups),
      transfersReceived: formatCents(money.received),
      transfersSent: formatCents(money.sent),
      takenBack: formatCents(money.taken),
      corrections: formatCents(money.corrected),
    },
  };
}
