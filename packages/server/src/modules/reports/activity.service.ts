import { sql } from 'drizzle-orm';
import { dayIn } from '@lot/domain/dates';
import { formatCents } from '@lot/domain/money';
import type { Activity, ActivityFigures, ActivityQuery } from '@lot/domain/schemas/reports';
import { queryRows, type Db } from '../../db/client.ts';
import { gameRounds, games, users } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { readableByRecord, scopeCondition } from '../users/users.access.ts';
import { DEFAULT_TIME_ZONE } from './reports.service.ts';

const DAY_MS = 86_400_000;

/** A local day as YYYY-MM-DD moved by whole days (calendar arithmetic, no time zone involved). */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);
}

type DayRow = { day: string; games: string; pool: string; prizes: string; commission: string };
type BoundsRow = {
  period_start: Date | string;
  period_end: Date | string;
  previous_start: Date | string;
  topups: string;
  previous_topups: string;
};
type AccountsRow = { role: string; current: string; previous: string };
type FlaggedRow = { voided: string; server_randomness: string };

const iso = (instant: Date | string) => new Date(instant).toISOString();

function figures(row: { games: string; pool: string; prizes: string; commission: string }): ActivityFigures {
  return {
    games: Number(row.games),
    pool: formatCents(BigInt(row.pool)),
    prizes: formatCents(BigInt(row.prizes)),
    commission: formatCents(BigInt(row.commission)),
  };
}

/**
 * The activity report (docs/product/reports.md#activity): settled games per local day of the
 * period, scoped as the sales history is (the hierarchy recorded with each game, decision 006), with
 * the period just before it for comparison, the top-ups into the scope and the accounts created in
 * it, and the games opened in it that were voided or ran on server randomness only (LOT-DRAW-1).
 * Four independent reads side by side.
 */
export async function activity(db: Db, caller: Caller, query: ActivityQuery): Promise<Activity> {
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  const lastDay = query.days !== undefined ? dayIn(timeZone, new Date()) : (query.to ?? '');
  const firstDay = query.days !== undefined ? addDays(lastDay, 1 - query.days) : (query.from ?? '');
  const length = Math.round((Date.parse(lastDay) - Date.parse(firstDay)) / DAY_MS) + 1;
  const previousFirstDay = addDays(firstDay, -length);

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

  const [days, [bounds], accounts, [flagged]] = await Promise.all([
    queryRows<DayRow>(
      db,
      sql`
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
    ),
    queryRows<BoundsRow>(
      db,
      sql`
      SELECT ${start} AS period_start, ${end} AS period_end, ${previousStart} AS previous_start,
        COALESCE(sum(t.amount) FILTER (WHERE t.created_at >= ${start}), 0)::text AS topups,
        COALESCE(sum(t.amount) FILTER (WHERE t.created_at < ${start}), 0)::text AS previous_topups
      FROM transactions t
      WHERE t.type = 'topup' AND t.status = 'completed' AND ${toppedUp}
        AND t.created_at >= ${previousStart} AND t.created_at < ${end}`,
    ),
    queryRows<AccountsRow>(
      db,
      sql`
      SELECT ${users.role} AS role,
        count(*) FILTER (WHERE ${users.createdAt} >= ${start})::text AS current,
        count(*) FILTER (WHERE ${users.createdAt} < ${start})::text AS previous
      FROM ${users}
      WHERE ${scopeCondition(caller)} AND ${users.id} <> ${caller.id}
        AND ${users.createdAt} >= ${previousStart} AND ${users.createdAt} < ${end}
      GROUP BY 1`,
    ),
    // Games in progress count too: a LOT-DRAW-1 game is server randomness only from its opening on.
    queryRows<FlaggedRow>(
      db,
      sql`
      SELECT count(*) FILTER (WHERE ${gameRounds.status} = 'voided')::text AS voided,
        count(*) FILTER (WHERE ${gameRounds.protocol} = 'LOT-DRAW-1'
          AND ${gameRounds.status} NOT IN ('voided', 'discarded'))::text AS server_randomness
      FROM ${gameRounds}
      WHERE ${readableByRecord(caller, gameRounds) ?? sql`true`}
        AND ${gameRounds.createdAt} >= ${start} AND ${gameRounds.createdAt} < ${end}`,
    ),
  ]);
  if (!bounds || !flagged) throw new Error('activity query returned no row');

  const sum = (rows: DayRow[]) => {
    const total = { games: 0n, pool: 0n, prizes: 0n, commission: 0n };
    for (const row of rows) {
      total.games += BigInt(row.games);
      total.pool += BigInt(row.pool);
      total.prizes += BigInt(row.prizes);
      total.commission += BigInt(row.commission);
    }
    return figures({
      games: String(total.games),
      pool: String(total.pool),
      prizes: String(total.prizes),
      commission: String(total.commission),
    });
  };
  const current = days.filter((row) => row.day >= firstDay);
  const before = days.filter((row) => row.day < firstDay);
  const created = (role: string) => {
    const row = accounts.find((account) => account.role === role);
    return { current: Number(row?.current ?? 0), previous: Number(row?.previous ?? 0) };
  };

  return {
    timeZone,
    firstDay,
    lastDay,
    from: iso(bounds.period_start),
    to: iso(bounds.period_end),
    days: current.map((row) => ({ date: row.day, ...figures(row) })),
    totals: sum(current),
    previous: { from: iso(bounds.previous_start), to: iso(bounds.period_start), ...sum(before) },
    topUps: {
      current: formatCents(BigInt(bounds.topups)),
      previous: formatCents(BigInt(bounds.previous_topups)),
    },
    newAccounts: { superagent: created('superagent'), agent: created('agent'), user: created('user') },
    flaggedGames: { voided: Number(flagged.voided), serverRandomness: Number(flagged.server_randomness) },
  };
}
