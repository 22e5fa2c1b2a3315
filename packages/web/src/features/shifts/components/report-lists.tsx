import type { ReactNode } from 'react';
import { gameTitle } from '@lot/domain/game';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { dateTime, money } from '../../../lib/format.ts';
import {
  entriesText,
  GAME_STATUS,
  movementAmount,
  movementDetail,
  movementTitle,
  takeBackDetail,
} from './report-text.ts';

/** One line of a list: what it is on the left (and under it the details), the amount on the right. */
type ListLine = { key: number; main: ReactNode; detail?: ReactNode; amount: ReactNode };

/** A list of the report: its lines, or what it says when there is none. */
type ReportList = { title: string; testId: string; lineTestId: string; none: string; lines: ListLine[] };

const prizeText = (prize: { gameNumber: number; position: number }) =>
  `${gameTitle(prize.gameNumber)} · position ${prize.position}`;

/** The games, prizes paid, unpaid prizes, bets refunded, cash movements and take-backs a report lists, in that order. */
function reportLists(report: ShiftReport): ReportList[] {
  return [
    {
      title: 'Games',
      testId: 'report-games',
      lineTestId: 'report-game',
      none: 'No games in this shift yet.',
      lines: report.games.map((game) => ({
        key: game.gameId,
        main: `${gameTitle(game.number)} · ${GAME_STATUS[game.status]} · ${entriesText(game.entries)}`,
        detail: (
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
        ),
        amount:
          game.status === 'voided' ? (
            <span className="text-slate-500 line-through">{money(game.pool)}</span>
          ) : (
            money(game.pool)
          ),
      })),
    },
    {
      title: 'Prizes paid',
      testId: 'report-paid',
      lineTestId: 'report-paid-prize',
      none: 'No prizes paid in this shift.',
      lines: report.prizesPaid.map((prize) => ({
        key: prize.winnerId,
        main: prizeText(prize),
        detail: `${prize.claimerName} · ${dateTime(prize.paidAt)}`,
        amount: money(prize.amount),
      })),
    },
    {
      title: 'Unpaid prizes',
      testId: 'report-unpaid',
      lineTestId: 'report-unpaid-prize',
      none: 'No prize of this shift’s games is waiting to be paid.',
      lines: report.unpaidPrizes.map((prize) => ({
        key: prize.winnerId,
        main: prizeText(prize),
        detail: `Can be claimed until ${dateTime(prize.expiresAt)}`,
        amount: money(prize.amount),
      })),
    },
    ...(report.refunds
      ? [
          {
            title: 'Bets refunded',
            testId: 'report-refunds',
            lineTestId: 'report-refund',
            none: 'No voided game’s bets were handed back in this shift.',
            lines: report.refunds.map((refund) => ({
              key: refund.gameId,
              main: `${gameTitle(refund.number)} voided · ${dateTime(refund.at)}`,
              detail: (
                <>
                  <span className="font-mono break-all">{refund.code}</span> · its bets handed back in cash (not
                  counted: never taken in)
                </>
              ),
              amount: money(refund.amount),
            })),
          },
        ]
      : []),
    ...(report.movements
      ? [
          {
            title: 'Cash movements',
            testId: 'report-movements',
            lineTestId: 'report-movement',
            none: 'No cash moved in or out of the drawer in this shift.',
            lines: report.movements.map((movement) => ({
              key: movement.id,
              main: `${movementTitle(movement)} · ${dateTime(movement.at)}`,
              detail: `${movementDetail(movement)} · recorded by ${movement.recordedBy}`,
              amount: movementAmount(movement),
            })),
          },
        ]
      : []),
    {
      title: 'Take-backs',
      testId: 'report-take-backs',
      lineTestId: 'report-take-back',
      none: 'No money taken back in this shift.',
      lines: report.takeBacks.map((takeBack) => ({
        key: takeBack.id,
        main: `By ${takeBack.by} · ${dateTime(takeBack.at)}`,
        detail: takeBackDetail(takeBack),
        amount: money(takeBack.amount),
      })),
    },
  ];
}

function List({ list }: { list: ReportList }) {
  return (
    <section data-testid={list.testId} aria-label={list.title} className="space-y-2">
      <h4 className="text-sm font-semibold tracking-wide text-slate-500 uppercase">{list.title}</h4>
      {list.lines.length === 0 ? (
        <p className="text-sm text-slate-500">{list.none}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
          {list.lines.map((line) => (
            <li
              key={line.key}
              data-testid={list.lineTestId}
              className="flex items-start justify-between gap-3 px-3 py-2 text-sm"
            >
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{line.main}</p>
                {line.detail && <p className="text-xs break-words text-slate-600">{line.detail}</p>}
              </div>
              <p className="shrink-0 text-right font-semibold text-slate-900 tabular-nums">{line.amount}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The report's lists side by side from `lg`, each a section of its own. */
export function ReportLists({ report }: { report: ShiftReport }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {reportLists(report).map((list) => (
        <List key={list.testId} list={list} />
      ))}
    </div>
  );
}
