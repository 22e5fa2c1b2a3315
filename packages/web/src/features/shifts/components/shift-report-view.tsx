import type { ReactNode } from 'react';
import { shortDigest } from '@lot/domain/digest';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { count, dateTime, money } from '../../../lib/format.ts';
import { ReportLists } from './report-lists.tsx';
import { movementsNet, reportTitle, signedMoney } from './report-text.ts';
import { OverMidnightBadge } from './shifts-table.tsx';
import { Variance } from './variance.tsx';

/**
 * One term of the cash sum: on a phone a row (label left, figure right, the operator before the
 * label), from `sm` a box beside the others with its operator between it and the one before.
 */
function Term({
  label,
  op,
  testId,
  emphasis = false,
  children,
}: {
  label: string;
  op?: string;
  testId: string;
  emphasis?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {op && (
        <span aria-hidden="true" className="hidden self-center text-2xl font-bold text-slate-500 sm:block">
          {op}
        </span>
      )}
      <div
        className={`flex flex-1 items-baseline justify-between gap-3 rounded-xl px-4 py-2 ring-1 sm:block sm:py-3 ${
          emphasis ? 'bg-indigo-50 ring-indigo-200' : 'bg-slate-50 ring-slate-200'
        }`}
      >
        <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">
          {op && (
            <span aria-hidden="true" className="sm:hidden">
              {op}{' '}
            </span>
          )}
          {label}
        </p>
        <p data-testid={testId} className="text-lg font-bold text-slate-900 tabular-nums sm:mt-1 sm:text-2xl">
          {children}
        </p>
      </div>
    </>
  );
}

/**
 * A shift's report on screen (docs/product/shifts.md#expected-cash): the cash the drawer should hold
 * (opening float + bets of the shift's settled games − prizes paid in it ± its cash movements), what
 * was counted and the difference for a Z report, then the games, prizes paid, unpaid prizes, cash
 * movements and take-backs it lists.
 */
export function ShiftReportView({ report }: { report: ShiftReport }) {
  const { shift, totals } = report;
  const net = movementsNet(report);
  return (
    <article
      data-testid="shift-report"
      data-kind={report.kind}
      aria-labelledby={`shift-report-${shift.id}`}
      className="space-y-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <header className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2 border-b border-slate-200 pb-4">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-widest text-indigo-600 uppercase">
            {report.kind === 'X' ? 'Shift open · X report' : 'Shift closed · Z report'}
          </p>
          <h3
            id={`shift-report-${shift.id}`}
            data-testid="shift-report-title"
            className="text-2xl font-bold text-slate-900"
          >
            {reportTitle(report)}
          </h3>
          <p className="text-sm break-words text-slate-700">{shift.shopName}</p>
        </div>
        <dl className="text-sm text-slate-600 sm:text-right">
          <div>
            <dt className="inline">Opened </dt>
            <dd className="inline font-medium text-slate-900">
              {dateTime(shift.openedAt)} by {shift.openedBy}
            </dd>
          </div>
          {shift.closedAt && (
            <div>
              <dt className="inline">Closed </dt>
              <dd className="inline font-medium text-slate-900">
                {dateTime(shift.closedAt)} by {shift.closedBy ?? '—'}
              </dd>
            </div>
          )}
          {report.kind === 'X' && (
            <div>
              <dt className="inline">As of </dt>
              <dd data-testid="shift-report-generated" className="inline font-medium text-slate-900">
                {dateTime(report.generatedAt)}
              </dd>
            </div>
          )}
          {report.kind === 'Z' && report.auditCheckpoint && (
            <div>
              <dt className="inline">Audit checkpoint </dt>
              <dd data-testid="shift-report-checkpoint" className="inline font-mono font-medium text-slate-900">
                {shortDigest(report.auditCheckpoint.digest)}
              </dd>
            </div>
          )}
          {shift.overMidnight && (
            <dd>
              <OverMidnightBadge />
            </dd>
          )}
        </dl>
      </header>

      <section aria-label="Cash" className="space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-stretch">
          <Term label="Opening float" testId="report-float">
            {money(shift.openingFloat)}
          </Term>
          <Term label="Bets collected" op="+" testId="report-bets">
            {money(totals.betsCollected)}
          </Term>
          <Term label="Prizes paid" op="−" testId="report-prizes-paid">
            {money(totals.prizesPaid)}
          </Term>
          {net !== null && (
            <Term label="Cash movements" op="±" testId="report-movements-net">
              {signedMoney(net)}
            </Term>
          )}
          <Term
            label={report.kind === 'X' ? 'Expected cash now' : 'Expected cash'}
            op="="
            testId="report-expected"
            emphasis
          >
            {money(report.expectedCash)}
          </Term>
        </div>
        {report.kind === 'Z' && (
          <div className="grid gap-2 sm:grid-cols-2">
            <Term label="Counted cash" testId="report-counted">
              {report.countedCash === null ? '—' : money(report.countedCash)}
            </Term>
            <Term label="Difference" testId="report-variance-figure">
              <Variance amount={report.variance} testId="report-variance" />
            </Term>
            {shift.varianceReason && (
              <p data-testid="report-variance-reason" className="text-sm text-slate-700 sm:col-span-2">
                <span className="font-semibold">Reason: </span>
                {shift.varianceReason}
              </p>
            )}
          </div>
        )}
        <p className="text-xs text-slate-500">
          Bets count once a game of the shift is settled; a voided game’s bets went back to its customers. Cash
          movements are pickups, drops, paid in and paid out. Take-backs move the balance, not the cash in the drawer,
          unless taken from the drawer: then they count as a pickup.
        </p>
      </section>

      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {[
          ['Games', count(totals.games), 'report-total-games'],
          ['Voided games', count(totals.voidedGames), 'report-total-voided'],
          ['Unpaid prizes', money(totals.unpaidPrizes), 'report-total-unpaid'],
          ['Taken back', money(totals.takenBack), 'report-total-taken-back'],
          ...(totals.pickups === undefined
            ? []
            : [
                ['Pickups', money(totals.pickups), 'report-total-pickups'],
                ['Drops', money(totals.drops ?? '0'), 'report-total-drops'],
                ['Paid in', money(totals.paidIn ?? '0'), 'report-total-paid-in'],
                ['Paid out', money(totals.paidOut ?? '0'), 'report-total-paid-out'],
              ]),
          ...(totals.betsRefunded === undefined
            ? []
            : [['Bets refunded', money(totals.betsRefunded), 'report-total-refunded']]),
        ].map(([label, value, testId]) => (
          <div key={testId} className="rounded-xl bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
            <dt className="text-xs font-medium text-slate-600 uppercase">{label}</dt>
            <dd data-testid={testId} className="font-semibold text-slate-900 tabular-nums">
              {value}
            </dd>
          </div>
        ))}
      </dl>

      <ReportLists report={report} />
    </article>
  );
}
