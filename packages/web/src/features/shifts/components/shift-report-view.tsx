import type { ReactNode } from 'react';
import { shortDigest } from '@lot/domain/digest';
import { gameTitle } from '@lot/domain/game';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { count, dateTime, money } from '../../../lib/format.ts';
import { Variance } from './variance.tsx';

/** A report's title: "X report" while the shift is open, "Z report no. 7" once closed. */
export const reportTitle = (report: ShiftReport) =>
  report.kind === 'Z' ? `Z report no. ${report.shift.zNumber ?? '—'}` : 'X report';

const GAME_STATUS: Record<ShiftReport['games'][number]['status'], string> = {
  open: 'Open',
  drawing: 'Drawing',
  settled: 'Settled',
  voided: 'Voided',
  discarded: 'Discarded',
};

function Section({
  title,
  testId,
  empty,
  children,
}: {
  title: string;
  testId: string;
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <section data-testid={testId} aria-label={title} className="space-y-2">
      <h4 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">{title}</h4>
      {empty ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">{children}</ul>
      )}
    </section>
  );
}

/** One line of a section: what it is on the left (and under it the details), the amount on the right. */
function Line({
  testId,
  main,
  detail,
  amount,
}: {
  testId: string;
  main: ReactNode;
  detail?: ReactNode;
  amount: ReactNode;
}) {
  return (
    <li data-testid={testId} className="flex items-start justify-between gap-3 px-3 py-2 text-sm">
      <div className="min-w-0">
        <p className="font-medium text-slate-900">{main}</p>
        {detail && <p className="text-xs break-words text-slate-600">{detail}</p>}
      </div>
      <p className="shrink-0 text-right font-semibold text-slate-900 tabular-nums">{amount}</p>
    </li>
  );
}

/**
 * One term of the cash sum: on a phone a row (label left, figure right, the operator before the
 * label), from `sm` a box beside the others with the operators between them.
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
  );
}

function Operator({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="hidden self-center text-2xl font-bold text-slate-500 sm:block">
      {children}
    </span>
  );
}

/**
 * A shift's report on screen (docs/product/shifts.md#expected-cash): the cash the drawer should hold
 * (opening float + bets of the shift's settled games − prizes paid in it), what was counted and the
 * difference for a Z report, then the games, prizes paid, unpaid prizes and take-backs it lists.
 */
export function ShiftReportView({ report }: { report: ShiftReport }) {
  const { shift, totals } = report;
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
              <span className="inline-flex rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">
                Open over midnight
              </span>
            </dd>
          )}
        </dl>
      </header>

      <section aria-label="Cash" className="space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-stretch">
          <Term label="Opening float" testId="report-float">
            {money(shift.openingFloat)}
          </Term>
          <Operator>+</Operator>
          <Term label="Bets collected" op="+" testId="report-bets">
            {money(totals.betsCollected)}
          </Term>
          <Operator>−</Operator>
          <Term label="Prizes paid" op="−" testId="report-prizes-paid">
            {money(totals.prizesPaid)}
          </Term>
          <Operator>=</Operator>
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
          Bets count once a game of the shift is settled; a voided game’s bets went back to its customers. Take-backs
          move the balance, not the cash in the drawer.
        </p>
      </section>

      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {[
          ['Games', count(totals.games), 'report-total-games'],
          ['Voided games', count(totals.voidedGames), 'report-total-voided'],
          ['Unpaid prizes', money(totals.unpaidPrizes), 'report-total-unpaid'],
          ['Taken back', money(totals.takenBack), 'report-total-taken-back'],
        ].map(([label, value, testId]) => (
          <div key={testId} className="rounded-xl bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
            <dt className="text-xs font-medium text-slate-600 uppercase">{label}</dt>
            <dd data-testid={testId} className="font-semibold text-slate-900 tabular-nums">
              {value}
            </dd>
          </div>
        ))}
      </dl>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section
          title="Games"
          testId="report-games"
          empty={report.games.length === 0 ? 'No games in this shift yet.' : null}
        >
          {report.games.map((game) => (
            <Line
              key={game.gameId}
              testId="report-game"
              main={
                <>
                  {gameTitle(game.number)} · {GAME_STATUS[game.status]} · {count(game.entries)}{' '}
                  {game.entries === 1 ? 'entry' : 'entries'}
                </>
              }
              detail={
                <>
                  <span className="font-mono break-all">{game.code}</span>
                  {game.frozenAt && <> · frozen {dateTime(game.frozenAt)}</>}
                  {game.status === 'settled' && (
                    <>
                      {' '}
                      · prizes {money(game.totalPrize)} · commission {money(game.commission)}
                    </>
                  )}
                </>
              }
              amount={
                game.status === 'voided' ? (
                  <span className="text-slate-500 line-through">{money(game.pool)}</span>
                ) : (
                  money(game.pool)
                )
              }
            />
          ))}
        </Section>
        <Section
          title="Prizes paid"
          testId="report-paid"
          empty={report.prizesPaid.length === 0 ? 'No prizes paid in this shift.' : null}
        >
          {report.prizesPaid.map((prize) => (
            <Line
              key={prize.winnerId}
              testId="report-paid-prize"
              main={`${gameTitle(prize.gameNumber)} · position ${prize.position}`}
              detail={`${prize.claimerName} · ${dateTime(prize.paidAt)}`}
              amount={money(prize.amount)}
            />
          ))}
        </Section>
        <Section
          title="Unpaid prizes"
          testId="report-unpaid"
          empty={report.unpaidPrizes.length === 0 ? 'No prize of this shift’s games is waiting to be paid.' : null}
        >
          {report.unpaidPrizes.map((prize) => (
            <Line
              key={prize.winnerId}
              testId="report-unpaid-prize"
              main={`${gameTitle(prize.gameNumber)} · position ${prize.position}`}
              detail={`Can be claimed until ${dateTime(prize.expiresAt)}`}
              amount={money(prize.amount)}
            />
          ))}
        </Section>
        <Section
          title="Take-backs"
          testId="report-take-backs"
          empty={report.takeBacks.length === 0 ? 'No money taken back in this shift.' : null}
        >
          {report.takeBacks.map((takeBack) => (
            <Line
              key={takeBack.id}
              testId="report-take-back"
              main={`By ${takeBack.by} · ${dateTime(takeBack.at)}`}
              detail={takeBack.reason}
              amount={money(takeBack.amount)}
            />
          ))}
        </Section>
      </div>
    </article>
  );
}
