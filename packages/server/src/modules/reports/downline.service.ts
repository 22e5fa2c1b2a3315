import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { AppError } from '@lot/domain/errors';
import { formatCents } from '@lot/domain/money';
import type { Downline, DownlineFigures, DownlineQuery, DownlineRow } from '@lot/domain/schemas/reports';
import type { Context } from '../../lib/context.ts';
import { findInScope } from '../users/users.repository.ts';
import { readDownline, type DownlineRow as Row, type Node } from './reports.repository.ts';
import { DEFAULT_TIME_ZONE } from './reports.service.ts';

/** The node: the caller, or `parentId` in the caller's scope (outside it 404) that has children (else 400). */
async function nodeOf({ db, caller }: Context, parentId: number | undefined): Promise<Node> {
  if (caller.role === 'user') throw new AppError('FORBIDDEN', SERVER_MESSAGES.downlineForbidden);
  if (parentId === undefined || parentId === caller.id) return { ...caller, role: caller.role };
  const target = await findInScope(db, caller, parentId);
  if (!target) throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);
  if (target.role !== 'superagent' && target.role !== 'agent') {
    throw AppError.field('parentId', SERVER_MESSAGES.downlineChooseParent);
  }
  return { id: target.id, username: target.username, fullName: target.fullName, role: target.role };
}

/**
 * The downline report (docs/product/reports.md#downline-report): one row per direct child of the
 * node with its whole subtree summed in, and the totals, in one statement. Games are grouped by the
 * hierarchy recorded on them through the sales-history indexes (superagent, parent, or time for the
 * admin); money by where the accounts stand now, counting only what crosses a row's edge
 * (reports.repository.ts `downlineStatement`, and `cut` for how the hierarchy is cut into rows).
 */
export async function downline(ctx: Context, query: DownlineQuery): Promise<Downline> {
  const node = await nodeOf(ctx, query.parentId);
  const timeZone = query.tz ?? DEFAULT_TIME_ZONE;
  const rows = await readDownline(ctx.db, node, { from: query.from, to: query.to, timeZone });
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
