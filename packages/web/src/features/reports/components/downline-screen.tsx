import { Link, useSearchParams } from 'react-router';
import { ChevronRight, FileText } from 'lucide-react';
import type { DownlineFigures, DownlineRow } from '@lot/domain/schemas/reports';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { Card, EmptyState, ErrorPanel, PageHeading, Spinner } from '../../../components/ui/panels.tsx';
import { ExportButtons } from '../../../components/ui/export-buttons.tsx';
import { PeriodPicker } from '../../../components/ui/period-picker.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { count, money } from '../../../lib/format.ts';
import { formatPeriod, type Period } from '../../../lib/periods.ts';
import { useActivity } from '../api/get-activity.ts';
import { downlineQueryAt, trailAt, useDownline } from '../api/get-downline.ts';
import { ActivityChart } from './activity-chart.tsx';

const ROLE_LABELS: Record<string, string> = {
  admin: 'Admin',
  superagent: 'Super Agent',
  agent: 'Agent',
  user: 'User',
};

/** A line of the table: a child with its subtree, or the totals. */
type Line = { kind: 'child'; row: DownlineRow } | { kind: 'totals'; figures: DownlineFigures };

const figuresOf = (line: Line): DownlineFigures => (line.kind === 'child' ? line.row : line.figures);
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
): Column<Line> {
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
 * docs/product/screens.md#downline-report (/admin/reports, /superagent/reports, /agent/reports):
 * one line per direct child with its whole subtree summed in, and the totals, for a period of whole
 * days in the browser's zone. A super agent's or agent's line opens its own children (?parent=),
 * with a trail back; every line opens that account's statement. The period is in the address.
 */
export function DownlineScreen() {
  const [params, setParams] = useSearchParams();
  const query = downlineQueryAt(params);
  const { timeZone } = query;
  const period = { from: query.from, to: query.to };
  const trail = trailAt(params);
  const report = useDownline(query);
  const activity = useActivity({ from: period.from, to: period.to, timeZone });

  const show = (next: Period, nextTrail: number[]) =>
    setParams({ from: next.from, to: next.to, ...(nextTrail.length > 0 ? { trail: nextTrail.join(',') } : {}) });

  const columns: Column<Line>[] = [
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
                  onClick={() => show(period, [...trail, user.id])}
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

  const data = report.data;
  const lines: Line[] = data
    ? [...data.rows.map((row): Line => ({ kind: 'child', row })), { kind: 'totals', figures: data.totals }]
    : [];

  return (
    <div className="space-y-6">
      <PageHeading title="Reports">
        What the people below you did over a period: each line sums everyone under that person.
      </PageHeading>

      <div className="space-y-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <PeriodPicker value={period} onChange={(next) => show(next, trail)} />
        <ExportButtons
          path="/api/reports/downline/export"
          query={{ from: period.from, to: period.to, parentId: query.parentId }}
        />
      </div>

      <Card
        title={
          <>
            Activity <span className="font-normal text-slate-500">· everyone below you, {formatPeriod(period)}</span>
          </>
        }
      >
        <ActivityChart activity={activity} periodLabel={formatPeriod(period)} />
      </Card>

      <section className="space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <nav aria-label="Breadcrumb" data-testid="report-breadcrumb">
          <ol className="flex flex-wrap items-center gap-1 text-sm">
            <li>
              {trail.length === 0 ? (
                <span aria-current="page" className="font-semibold text-slate-900">
                  My downline
                </span>
              ) : (
                <button type="button" className="text-indigo-700 hover:underline" onClick={() => show(period, [])}>
                  My downline
                </button>
              )}
            </li>
            {trail.map((id, index) => (
              <li key={id} className="flex items-center gap-1">
                <ChevronRight className="h-4 w-4 text-slate-400" aria-hidden="true" />
                <Crumb
                  id={id}
                  period={period}
                  timeZone={timeZone}
                  current={index === trail.length - 1}
                  onOpen={() => show(period, trail.slice(0, index + 1))}
                />
              </li>
            ))}
          </ol>
        </nav>

        {report.isError && !report.isFetching ? (
          <ErrorPanel
            message={errorMessage(report.error, 'Failed to load the report')}
            onRetry={() => void report.refetch()}
          />
        ) : !data ? (
          <Spinner label="Loading the report..." />
        ) : data.rows.length === 0 ? (
          <EmptyState message="Nobody below this account yet." />
        ) : (
          <div className={report.isPlaceholderData ? 'opacity-60' : undefined}>
            <DataTable
              rows={lines}
              columns={columns}
              rowKey={(line) => (line.kind === 'child' ? line.row.user.id : 'totals')}
              rowTestId="report-row"
              rowData={(line): Record<`data-${string}`, string> =>
                line.kind === 'child'
                  ? { 'data-user-id': String(line.row.user.id), 'data-username': line.row.user.username }
                  : { 'data-totals': 'true' }
              }
              rowClassName={(line) =>
                `grid grid-cols-2 gap-x-4 gap-y-1 ${line.kind === 'totals' ? 'bg-slate-50 md:border-t-2 md:border-slate-300' : 'bg-white md:hover:bg-slate-50'}`
              }
              minWidth="md:min-w-[860px]"
              cellClassName="md:px-2 md:py-2.5"
              headerClassName="px-2 py-2.5"
            />
          </div>
        )}
      </section>
    </div>
  );
}

/** A step of the trail: the name of the account whose children it shows (from that level's report). */
function Crumb({
  id,
  period,
  timeZone,
  current,
  onOpen,
}: {
  id: number;
  period: Period;
  timeZone: string;
  current: boolean;
  onOpen: () => void;
}) {
  const level = useDownline({ parentId: id, from: period.from, to: period.to, timeZone });
  const name = level.data?.parent.fullName ?? '…';
  return current ? (
    <span aria-current="page" data-testid="crumb-current" className="font-semibold text-slate-900">
      {name}
    </span>
  ) : (
    <button type="button" className="text-indigo-700 hover:underline" onClick={onOpen}>
      {name}
    </button>
  );
}
