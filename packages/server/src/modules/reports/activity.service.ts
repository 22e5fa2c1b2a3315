import { dayIn } from '@lot/domain/dates';
import { formatCents } from '@lot/domain/money';
import type { Activity, ActivityFigures, ActivityQuery } from '@lot/domain/schemas/reports';
import type { Context } from '../../lib/context.ts';
import { readActivity, type DayRow } from './reports.repository.ts';
import { DEFAULT_TIME_ZONE } from './reports.service.ts';

const DAY_MS = 86_400_000;

/** A local day as YYYY-MM-DD moved by whole days (calendar arithmetic, no time zone involved). */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);
}

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
 * Four independent reads side by side (reports.repository.ts `activityStatements`).
 */
export async function activity(ctx: Context, query: ActivityQuery): Promise<Activity> {
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  const lastDay = query.days !== undefined ? dayIn(timeZone, new Date(ctx.clock())) : (query.to ?? '');
  const firstDay = query.days !== undefined ? addDays(lastDay, 1 - query.days) : (query.from ?? '');
  const length = Math.round((Date.parse(lastDay) - Date.parse(firstDay)) / DAY_MS) + 1;
  const previousFirstDay = addDays(firstDay, -length);

  const { days, bounds, accounts, flagged } = await readActivity(ctx.db, ctx.caller, {
    firstDay,
    lastDay,
    previousFirstDay,
    timeZone,
  });

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
    flaggedGames: {
      voided: Number(flagged.voided),
      voidedAfterWinner: Number(flagged.voided_after_winner),
      serverRandomness: Number(flagged.server_randomness),
    },
  };
}
