import type { ReactNode } from 'react';
import { Figure } from '../../../components/ui/panels.tsx';
import type { DayClose } from '@lot/domain/schemas/reports';
import { decimalToCents, formatMoney } from '@lot/domain/money';
import { count, money } from '../../../lib/format.ts';
import { formatDay, formatMoment } from '../../../lib/periods.ts';

/** On a phone each term is a row (label left, figure right); from `sm` up the three sit side by side. */
const SUM_TERM = 'flex flex-1 items-center justify-between gap-3 sm:block sm:text-center print:block print:text-center';

type Movement = { testId: string; label: string; amount: string; direction: 1 | -1 };

/** Every movement of the balance the day close answers, in the order a cash count reads them. */
function movementsOf(report: DayClose): Movement[] {
  const m = report.movements;
  return [
    { testId: 'movement-topups-in', label: 'Top-ups in', amount: m.topupsIn, direction: 1 },
    { testId: 'movement-transfers-in', label: 'Transfers in', amount: m.transfersIn, direction: 1 },
    { testId: 'movement-transfers-out', label: 'Transfers out', amount: m.transfersOut, direction: -1 },
    { testId: 'movement-corrections', label: 'Corrections', amount: m.corrections, direction: -1 },
    { testId: 'movement-taken-back', label: 'Taken back', amount: m.takenBack, direction: -1 },
    { testId: 'movement-pools-held', label: 'Game pools held', amount: m.gamePoolsHeld, direction: -1 },
    { testId: 'movement-pools-returned', label: 'Game pools returned', amount: m.gamePoolsReturned, direction: 1 },
  ];
}

const isZero = (amount: string) => decimalToCents(amount) === 0;

/** Money in is `+$5.00` in green, money out `-$5.00` in red, nothing `$0.00` in grey (as the transactions table). */
function Signed({ cents, testId }: { cents: number; testId: string }) {
  const tone = cents > 0 ? 'text-emerald-700' : cents < 0 ? 'text-rose-700' : 'text-slate-500';
  const text = cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents);
  return (
    <span data-testid={testId} className={`font-semibold tabular-nums ${tone}`}>
      {text}
    </span>
  );
}

/** The hours a local day lasted, said only when a clock change made it other than 24. */
function dayLength(report: DayClose): string {
  const hours = Math.round((Date.parse(report.to) - Date.parse(report.from)) / 3_600_000);
  return hours === 24 ? '00:00–24:00' : `00:00–24:00, ${hours} hours: the clocks changed`;
}

function SectionTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <h4 id={id} className="mb-3 text-sm font-semibold tracking-wide text-slate-500 uppercase">
      {children}
    </h4>
  );
}

function Row({
  label,
  children,
  strong = false,
  className = '',
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
  className?: string;
}) {
  return (
    <div
      className={`flex items-baseline justify-between gap-4 py-1.5 ${strong ? 'font-semibold text-slate-900' : ''} ${className}`}
    >
      <dt className={strong ? '' : 'text-slate-600'}>{label}</dt>
      <dd className="text-right tabular-nums">{children}</dd>
    </div>
  );
}

function Operator({ testId, children }: { testId?: string; children: string }) {
  return (
    <span
      data-testid={testId}
      aria-hidden="true"
      className="self-center text-lg leading-none font-bold text-slate-500 sm:px-1 sm:text-2xl print:px-1 print:text-2xl"
    >
      {children}
    </span>
  );
}

/**
 * docs/product/screens.md#day-close: the shop's balance statement for a day (its LOT balance with its
 * upline; the cash in the drawer is the shift's). The shop and its
 * day (with the zone it is a day of), opening ± net = closing as a sum, the day's games and every
 * movement of the balance. It is also what prints (the rest of the screen does not).
 */
export function DayCloseSheet({ report, isToday, printedAt }: { report: DayClose; isToday: boolean; printedAt: Date }) {
  const movements = movementsOf(report);
  const net = decimalToCents(report.movements.net);
  const { games } = report;
  const quiet = games.settled === 0 && games.voided === 0 && movements.every((line) => isZero(line.amount));

  return (
    <article
      data-testid="day-close-sheet"
      aria-labelledby="day-close-shop"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-8 print:rounded-none print:p-0 print:shadow-none print:ring-0"
    >
      <header className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2 border-b border-slate-200 pb-4">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-widest text-indigo-600 uppercase">Balance statement</p>
          <h3
            id="day-close-shop"
            data-testid="day-close-shop"
            className="text-2xl font-bold break-words text-slate-900"
          >
            {report.shopName}
          </h3>
          <p data-testid="day-close-day" className="mt-1 text-sm text-slate-600">
            Day of <span className="font-semibold text-slate-900">{formatDay(report.date)}</span>,{' '}
            <span className="font-semibold text-slate-900">{report.timeZone}</span>{' '}
            <span className="whitespace-nowrap">({dayLength(report)})</span>
          </p>
        </div>
        <p data-testid="day-close-printed" className="hidden text-sm text-slate-600 print:block">
          Printed {formatMoment(printedAt)}
        </p>
      </header>

      {isToday && (
        <p className="mt-4 text-sm text-slate-600">Today is not over yet: the closing balance is your balance now.</p>
      )}
      {quiet && (
        <p data-testid="day-close-quiet" className="mt-4 rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-600">
          A quiet day: no games and no movement of the balance. The closing balance is the opening balance.
        </p>
      )}

      <section aria-labelledby="day-close-balance" className="mt-6">
        <SectionTitle id="day-close-balance">Balance</SectionTitle>
        <div className="flex flex-col items-stretch gap-2 sm:flex-row print:flex-row">
          <Figure label="Opening balance" testId="opening-balance" className={SUM_TERM}>
            {money(report.openingBalance)}
          </Figure>
          <Operator testId="net-operator">{net < 0 ? '−' : '+'}</Operator>
          <Figure label="Net movement" testId="net-movement" className={SUM_TERM}>
            {formatMoney(net < 0 ? -net : net)}
          </Figure>
          <Operator>=</Operator>
          <Figure label="Closing balance" testId="closing-balance" emphasis className={SUM_TERM}>
            {money(report.closingBalance)}
          </Figure>
        </div>
      </section>

      <div className="mt-8 grid gap-8 lg:grid-cols-2 print:grid-cols-2">
        <section aria-labelledby="day-close-movements">
          <SectionTitle id="day-close-movements">Movements of the balance</SectionTitle>
          <dl className="divide-y divide-slate-100 text-sm">
            {movements.map((line) => (
              <Row key={line.testId} label={line.label}>
                <Signed cents={line.direction * decimalToCents(line.amount)} testId={line.testId} />
              </Row>
            ))}
            <Row label="Net" strong className="border-t-2 border-slate-300">
              <Signed cents={net} testId="movement-net" />
            </Row>
          </dl>
        </section>

        <section aria-labelledby="day-close-games">
          <SectionTitle id="day-close-games">Games</SectionTitle>
          <dl className="divide-y divide-slate-100 text-sm">
            <Row label="Games settled">
              <span data-testid="games-settled">{count(games.settled)}</span>
            </Row>
            <Row label="Games voided">
              <span data-testid="games-voided">{count(games.voided)}</span>
            </Row>
            <Row label="Numbers sold">
              <span data-testid="games-numbers-sold">{count(games.numbersSold)}</span>
            </Row>
            <Row label="Pool">
              <span data-testid="games-pool">{money(games.pool)}</span>
            </Row>
            <Row label="Prizes won">
              <span data-testid="games-prizes">{money(games.prizes)}</span>
            </Row>
            <Row label="Commission" strong>
              <span data-testid="games-commission">{money(games.commission)}</span>
            </Row>
          </dl>
          <p className="mt-3 text-xs text-slate-500">
            The games settled this day. A game&apos;s pool leaves the balance at its first draw (Game pools held), which
            can be a day earlier; a voided game&apos;s pool comes back when it is voided.
          </p>
        </section>
      </div>
    </article>
  );
}
