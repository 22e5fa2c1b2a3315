import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { gameRounds, games, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord, scopeCondition } from '../users/users.access.ts';
import { voidedAfterWinnerPrizes } from '../games/games.repository.ts';

/**
 * The reports' SQL (docs/ARCHITECTURE.md#layers): the day close, the downline report and the
 * activity report, each a statement or a few read side by side (an account's statement:
 * statements.repository.ts). Their services check who may read what and shape the answer; the
 * exports (reports.exports.ts) read these too.
 */

export type Queryable = Db | Tx;

/** Whole local days `from` to `to` inclusive, in a time zone. */
export type Period = { from: string; to: string; timeZone: string };

// ---- Day close (docs/product/money.md#day-close, decision 014)

export type DayCloseRow = {
  day_start: Date | string;
  day_end: Date | string;
  settled: number | string;
  numbers_sold: string;
  pool: string;
  prizes: string;
  commission: string;
  voided: number | string;
  opening: string;
  topups_in: string;
  transfers_in: string;
  transfers_out: string;
  corrections: string;
  taken_back: string;
  pools_held: string;
  pools_returned: string;
  closing: string;
};

/**
 * A shop's local day: its games and every movement of its balance from the ledger, with the
 * ledger's rules placed in time (reports.service.ts `dayClose` says how).
 */
export function dayCloseStatement(userId: number, date: string, timeZone: string): SQL {
  const u = userId;
  return sql`
    WITH bounds AS (
      SELECT (${date}::date)::timestamp AT TIME ZONE ${timeZone} AS day_start,
             (${date}::date + 1)::timestamp AT TIME ZONE ${timeZone} AS day_end
    ), moves AS (
      SELECT created_at AS at, 'topup' AS kind, amount FROM transactions
        WHERE receiver_id = ${u} AND status = 'completed' AND type = 'topup'
      UNION ALL
      SELECT created_at, 'transfer_in', amount FROM transactions
        WHERE receiver_id = ${u} AND status = 'completed' AND type = 'transfer'
      UNION ALL
      SELECT created_at, 'transfer_out', -amount FROM transactions
        WHERE user_id = ${u} AND status = 'completed' AND type = 'transfer'
      UNION ALL
      SELECT created_at, 'correction', -amount FROM transactions
        WHERE user_id = ${u} AND status = 'completed' AND type = 'decrease'
      UNION ALL
      SELECT created_at, 'taken_back', -amount FROM transactions
        WHERE user_id = ${u} AND status = 'completed' AND type = 'takeback'
      UNION ALL
      SELECT created_at, 'held', -amount FROM transactions
        WHERE user_id = ${u} AND type = 'game' AND status IN ('pending', 'completed', 'voided')
      UNION ALL
      SELECT COALESCE(r.ended_at, t.created_at), 'returned', t.amount
        FROM transactions t LEFT JOIN game_rounds r ON r.transaction_id = t.id
        WHERE t.user_id = ${u} AND t.type = 'game' AND t.status = 'voided'
    ), money AS (
      SELECT
        COALESCE(sum(amount) FILTER (WHERE at < b.day_start), 0) AS opening,
        COALESCE(sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'topup'), 0) AS topups_in,
        COALESCE(sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'transfer_in'), 0) AS transfers_in,
        COALESCE(-sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'transfer_out'), 0) AS transfers_out,
        COALESCE(-sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'correction'), 0) AS corrections,
        COALESCE(-sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'taken_back'), 0) AS taken_back,
        COALESCE(-sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'held'), 0) AS pools_held,
        COALESCE(sum(amount) FILTER (WHERE at >= b.day_start AND at < b.day_end AND kind = 'returned'), 0) AS pools_returned,
        COALESCE(sum(amount) FILTER (WHERE at < b.day_end), 0) AS closing
      FROM bounds b LEFT JOIN moves ON true
      GROUP BY b.day_start, b.day_end
    )
    SELECT b.day_start, b.day_end,
      (SELECT count(*) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end) AS settled,
      (SELECT COALESCE(sum(selected_count), 0) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end)::text AS numbers_sold,
      (SELECT COALESCE(sum(pool), 0) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end)::text AS pool,
      (SELECT COALESCE(sum(total_prize), 0) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end)::text AS prizes,
      (SELECT COALESCE(sum(commission), 0) FROM games g WHERE g.user_id = ${u} AND g.created_at >= b.day_start AND g.created_at < b.day_end)::text AS commission,
      (SELECT count(*) FROM game_rounds r WHERE r.user_id = ${u} AND r.status = 'voided' AND r.ended_at >= b.day_start AND r.ended_at < b.day_end) AS voided,
      m.opening::text, m.topups_in::text, m.transfers_in::text, m.transfers_out::text, m.corrections::text, m.taken_back::text,
      m.pools_held::text, m.pools_returned::text, m.closing::text
    FROM bounds b, money m`;
}

export async function readDayClose(
  db: Queryable,
  userId: number,
  date: string,
  timeZone: string,
): Promise<DayCloseRow> {
  const [row] = await queryRows<DayCloseRow>(db, dayCloseStatement(userId, date, timeZone));
  if (!row) throw new Error('day close query returned no row');
  return row;
}

// ---- Downline report (docs/product/reports.md#downline-report, decisions 015 and 023)

/** The node whose direct children are the report's rows. */
export type Node = { id: number; username: string; fullName: string; role: 'admin' | 'superagent' | 'agent' };

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

export type DownlineRow = {
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
 * The downline report's one statement: a row per direct child of the node with its whole subtree
 * summed in (and, when there is none, one row with only the period's bounds).
 */
export function downlineStatement(node: Node, period: Period): SQL {
  const { timeZone } = period;
  const plan = cut(node);
  const sales = plan.games(sql`g`);
  const voids = plan.games(sql`r`);
  return sql`
    WITH period AS (
      SELECT (${period.from}::date)::timestamp AT TIME ZONE ${timeZone} AS period_start,
             (${period.to}::date + 1)::timestamp AT TIME ZONE ${timeZone} AS period_end
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
    ORDER BY ${ROLE_ORDER}, u.full_name, u.id`;
}

export function readDownline(db: Queryable, node: Node, period: Period): Promise<DownlineRow[]> {
  return queryRows<DownlineRow>(db, downlineStatement(node, period));
}

// ---- Activity report (docs/product/reports.md#activity)

export type DayRow = { day: string; games: string; pool: string; prizes: string; commission: string };
export type BoundsRow = {
  period_start: Date | string;
  period_end: Date | string;
  previous_start: Date | string;
  topups: string;
  previous_topups: string;
};
export type AccountsRow = { role: string; current: string; previous: string };
export type FlaggedRow = { voided: string; voided_after_winner: string; server_randomness: string };

/**
 * The activity report's days (local days `previousFirstDay` to `lastDay`: the period and the one
 * before it), and the period's and the previous period's bounds.
 */
export type ActivityPeriod = { firstDay: string; lastDay: string; previousFirstDay: string; timeZone: string };

/** The four independent reads of the activity report, as statements. */
export function activityStatements(caller: Caller, period: ActivityPeriod) {
  const { firstDay, lastDay, previousFirstDay, timeZone } = period;
  const start = sql`(${firstDay}::date)::timestamp AT TIME ZONE ${timeZone}`;
  const end = sql`(${lastDay}::date + 1)::timestamp AT TIME ZONE ${timeZone}`;
  const previousStart = sql`(${previousFirstDay}::date)::timestamp AT TIME ZONE ${timeZone}`;
  const readable = readableByRecord(caller, games) ?? sql`true`;
  // Top-ups are the only money that enters the system: transfers and take-backs move money already
  // in it, so counting them would count the same money again at every hop (docs/product/screens.md#admin-dashboard).
  const toppedUp =
    caller.role === 'admin'
      ? sql`true`
      : sql`t.receiver_id IN (SELECT ${users.id} FROM ${users} WHERE ${scopeCondition(caller)})`;

  return {
    days: sql`
      WITH played AS (
        SELECT (${games.createdAt} AT TIME ZONE ${timeZone})::date AS day, count(*) AS games,
          sum(${games.pool}) AS pool, sum(${games.totalPrize}) AS prizes, sum(${games.commission}) AS commission
        FROM ${games}
        WHERE ${readable} AND ${games.createdAt} >= ${previousStart} AND ${games.createdAt} < ${end}
        GROUP BY 1
      )
      SELECT to_char(d.day, 'YYYY-MM-DD') AS day, COALESCE(p.games, 0)::text AS games,
        COALESCE(p.pool, 0)::text AS pool, COALESCE(p.prizes, 0)::text AS prizes,
        COALESCE(p.commission, 0)::text AS commission
      FROM generate_series(${previousFirstDay}::date, ${lastDay}::date, interval '1 day') AS d(day)
      LEFT JOIN played p ON p.day = d.day::date
      ORDER BY d.day`,
    bounds: sql`
      SELECT ${start} AS period_start, ${end} AS period_end, ${previousStart} AS previous_start,
        COALESCE(sum(t.amount) FILTER (WHERE t.created_at >= ${start}), 0)::text AS topups,
        COALESCE(sum(t.amount) FILTER (WHERE t.created_at < ${start}), 0)::text AS previous_topups
      FROM transactions t
      WHERE t.type = 'topup' AND t.status = 'completed' AND ${toppedUp}
        AND t.created_at >= ${previousStart} AND t.created_at < ${end}`,
    accounts: sql`
      SELECT ${users.role} AS role,
        count(*) FILTER (WHERE ${users.createdAt} >= ${start})::text AS current,
        count(*) FILTER (WHERE ${users.createdAt} < ${start})::text AS previous
      FROM ${users}
      WHERE ${scopeCondition(caller)} AND ${users.id} <> ${caller.id}
        AND ${users.createdAt} >= ${previousStart} AND ${users.createdAt} < ${end}
      GROUP BY 1`,
    // Games in progress count too: a LOT-DRAW-1 game is server randomness only from its opening on.
    flagged: sql`
      SELECT count(*) FILTER (WHERE ${gameRounds.status} = 'voided')::text AS voided,
        count(*) FILTER (WHERE ${gameRounds.status} = 'voided'
          AND ${voidedAfterWinnerPrizes({ id: gameRounds.id, userId: gameRounds.userId })} IS NOT NULL)::text
          AS voided_after_winner,
        count(*) FILTER (WHERE ${gameRounds.protocol} = 'LOT-DRAW-1'
          AND ${gameRounds.status} NOT IN ('voided', 'discarded'))::text AS server_randomness
      FROM ${gameRounds}
      WHERE ${readableByRecord(caller, gameRounds) ?? sql`true`}
        AND ${gameRounds.createdAt} >= ${start} AND ${gameRounds.createdAt} < ${end}`,
  };
}

/** The activity report's four reads, side by side. */
export async function readActivity(db: Queryable, caller: Caller, period: ActivityPeriod) {
  const statements = activityStatements(caller, period);
  const [days, [bounds], accounts, [flagged]] = await Promise.all([
    queryRows<DayRow>(db, statements.days),
    queryRows<BoundsRow>(db, statements.bounds),
    queryRows<AccountsRow>(db, statements.accounts),
    queryRows<FlaggedRow>(db, statements.flagged),
  ]);
  if (!bounds || !flagged) throw new Error('activity query returned no row');
  return { days, bounds, accounts, flagged };
}
