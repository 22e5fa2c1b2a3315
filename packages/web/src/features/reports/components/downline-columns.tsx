import { Link } from 'react-router';
import { ChevronRight, FileText } from 'lucide-react';
import type { DownlineFigures, DownlineRow } from '@lot/domain/schemas/reports';
import type { Column } from '../../../components/ui/data-table.tsx';
import { count, money } from '../../../lib/format.ts';
import type { Period } from '../../../lib/periods.ts';

const ROLE_LABELS: Record<string, string> = {
  admin: 'Admin',
  superagent: 'Super Agent',
  agent: 'Agent',
  user: 'User',
};

/** A line of the table: a child with its subtree, or the totals. */
export type DownlineLine = { kind: 'child'; row: DownlineRow } | { kind: 'totals'; figures: DownlineFigures };

const figuresOf = (line: DownlineLine): DownlineFigures => (line.kind === 'child' ? line.row : line.figures);
/** Super agents and agents have people below them; users have none. */
const hasChildren = (row: DownlineRow) =>
  !row.user.deleted && (row.user.role === 'superagent' || row.user.role === 'agent');

/**
 * A figure's column. Every column fits a 1280 px screen (no sideways scroll): short headers in an
 * <abbr> with the full name as its title, tight cells; a phone shows the full name as the label.
 */
function figure(
  key: keyof DownlineFigures,
  header: string,
  show: (figures: DownlineFigures) => string,
  abbreviation?: string,
): Column<DownlineLine> {
  return {
    key,
    header,
    abbreviation,
    label: header,
    align: 'right',
    className: (line) =>
      `flex items-baseline justify-between gap-2 tabular-nums md:text-right md:text-xs md:whitespace-nowrap ${line.kind === 'totals' ? 'font-bold text-slate-900' : 'text-slate-700'}`,
    render: (line) => <span data-testid={`figure-${key}`}>{show(figuresOf(line))}</span>,
  };
}

/**
 * The report's columns: the name (a super agent's or agent's opens its children through
 * `onDrillDown`; every living account links to its statement for `period`) and the figures.
 */
export function downlineColumns(period: Period, onDrillDown: (userId: number) => void): Column<DownlineLine>[] {
  return [
    {
      // Names and usernames wrap anywhere: a username (up to 50 letters, digits and underscores) has
      // no place to break, and would otherwise widen the column past 1280 px on the admin's report.
      key: 'name',
      header: 'Name',
      className: 'order-first col-span-2 md:min-w-28',
      render: (line) => {
        if (line.kind === 'totals') return <span className="font-bold text-slate-900">Totals</span>;
        const { user } = line.row;
        return (
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
            <div className="min-w-0">
              {hasChildren(line.row) ? (
                <button
                  type="button"
                  data-testid="drill-down"
                  onClick={() => onDrillDown(user.id)}
                  title={`Show the people under ${user.fullName}`}
                  className="inline-flex items-center gap-1 text-left font-semibold wrap-anywhere text-indigo-700 hover:underline"
                >
                  {user.fullName}
                  <ChevronRight className="h-4 w-4 shrink-0" aria-hidden="true" />
                </button>
              ) : (
                <p className="font-semibold wrap-anywhere text-slate-900">{user.fullName}</p>
              )}
              <p className="text-xs wrap-anywhere text-slate-500">
                @{user.username} · {ROLE_LABELS[user.role] ?? user.role}
                {user.deleted ? ' · deleted' : ''}
              </p>
            </div>
            {!user.deleted && (
              <Link
                to={`/statements/${user.id}?from=${period.from}&to=${period.to}`}
                data-testid="row-statement"
                title={`Statement of ${user.fullName}`}
                className="inline-flex shrink-0 items-center gap-1 rounded-lg px-2 py-1 text-xs font-semibold text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
              >
                <FileText className="h-3.5 w-3.5" aria-hidden="true" />
                Statement
              </Link>
            )}
          </div>
        );
      },
    },
    figure('settledGames', 'Games', (f) => count(f.settledGames)),
    figure('numbersSold', 'Numbers sold', (f) => count(f.numbersSold), 'Sold'),
    figure('pool', 'Pool', (f) => money(f.pool)),
    figure('prizes', 'Prizes', (f) => money(f.prizes)),
    figure('commission', 'Commission', (f) => money(f.commission), 'Comm.'),
    figure('voidedGames', 'Voided games', (f) => count(f.voidedGames), 'Voided'),
    figure('transfersReceived', 'Transfers received', (f) => money(f.transfersReceived), 'Received'),
    figure('transfersSent', 'Transfers sent', (f) => money(f.transfersSent), 'Sent'),
    figure('topUps', 'Top-ups', (f) => money(f.topUps)),
    figure('takenBack', 'Taken back', (f) => money(f.takenBack)),
    figure('corrections', 'Corrections', (f) => money(f.corrections), 'Corr.'),
  ];
}
