import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import { dateTime } from '../../../lib/format.ts';
import { ShiftReportView } from './shift-report-view.tsx';

afterEach(cleanup);

const AT = '2026-11-26T10:00:00.000Z';

const zReport: ShiftReport = {
  kind: 'Z',
  shift: {
    id: 7,
    userId: 3,
    shopName: 'Corner Shop',
    parentName: null,
    openedAt: '2026-11-25T08:00:00.000Z',
    openedBy: 'Corner Owner',
    openingFloat: '100.00',
    closedAt: AT,
    closedBy: 'Corner Owner',
    expectedCash: '122.50',
    countedCash: '120.00',
    variance: '-2.50',
    varianceReason: 'Change given twice',
    zNumber: 4,
    overMidnight: true,
  },
  games: [
    {
      gameId: 11,
      number: 1,
      code: 'CODE-ONE',
      status: 'settled',
      frozenAt: AT,
      entries: 3,
      pool: '30.00',
      totalPrize: '15.00',
      commission: '15.00',
    },
    {
      gameId: 12,
      number: 2,
      code: 'CODE-TWO',
      status: 'voided',
      frozenAt: null,
      entries: 1,
      pool: '5.00',
      totalPrize: '0.00',
      commission: '0.00',
    },
  ],
  prizesPaid: [{ winnerId: 21, gameNumber: 1, position: 1, amount: '7.50', paidAt: AT, claimerName: 'Ana Lopez' }],
  unpaidPrizes: [{ winnerId: 22, gameNumber: 1, position: 2, amount: '7.50', expiresAt: AT }],
  takeBacks: [{ id: 31, amount: '40.00', at: AT, by: 'Agent Smith', reason: 'Wrong top-up' }],
  totals: {
    games: 1,
    betsCollected: '30.00',
    prizesPaid: '7.50',
    unpaidPrizes: '7.50',
    takenBack: '40.00',
    voidedGames: 1,
  },
  expectedCash: '122.50',
  countedCash: '120.00',
  variance: '-2.50',
  generatedAt: AT,
};

const lines = (testId: string) => screen.getAllByTestId(testId).map((line) => line.textContent);
const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('ShiftReportView', () => {
  it('shows a Z report: the cash sum, the count and its difference, the totals and every list line', () => {
    render(<ShiftReportView report={zReport} />);
    expect(text('shift-report-title')).toBe('Z report no. 4');
    expect(screen.getByTestId('shift-report').dataset.kind).toBe('Z');
    expect(screen.getByTestId('over-midnight').textContent).toBe('Open over midnight');
    expect(screen.queryByTestId('shift-report-generated')).toBeNull();

    expect(text('report-float')).toBe('$100.00');
    expect(text('report-bets')).toBe('$30.00');
    expect(text('report-prizes-paid')).toBe('$7.50');
    expect(text('report-expected')).toBe('$122.50');
    expect(screen.getByText('Expected cash')).toBeTruthy();
    expect(text('report-counted')).toBe('$120.00');
    expect(text('report-variance')).toBe('Short $2.50');
    expect(text('report-variance-reason')).toBe('Reason: Change given twice');
    expect(text('report-total-games')).toBe('1');
    expect(text('report-total-voided')).toBe('1');
    expect(text('report-total-unpaid')).toBe('$7.50');
    expect(text('report-total-taken-back')).toBe('$40.00');

    const at = dateTime(AT);
    expect(lines('report-game')).toEqual([
      `Game #1 · Settled · 3 entriesCODE-ONE · frozen ${at} · prizes $15.00 · commission $15.00$30.00`,
      'Game #2 · Voided · 1 entryCODE-TWO$5.00',
    ]);
    expect(within(screen.getAllByTestId('report-game')[1]!).getByText('$5.00').className).toContain('line-through');
    expect(lines('report-paid-prize')).toEqual([`Game #1 · position 1Ana Lopez · ${at}$7.50`]);
    expect(lines('report-unpaid-prize')).toEqual([`Game #1 · position 2Can be claimed until ${at}$7.50`]);
    expect(lines('report-take-back')).toEqual([`By Agent Smith · ${at}Wrong top-up$40.00`]);
    for (const section of ['Games', 'Prizes paid', 'Unpaid prizes', 'Take-backs'])
      expect(screen.getByRole('region', { name: section })).toBeTruthy();
  });

  it('shows an X report as of now, without a count, and says so for each empty list', () => {
    const xReport: ShiftReport = {
      ...zReport,
      kind: 'X',
      shift: { ...zReport.shift, closedAt: null, closedBy: null, zNumber: null, overMidnight: false },
      games: [],
      prizesPaid: [],
      unpaidPrizes: [],
      takeBacks: [],
      countedCash: null,
      variance: null,
    };
    render(<ShiftReportView report={xReport} />);
    expect(text('shift-report-title')).toBe('X report');
    expect(text('shift-report-generated')).toBe(dateTime(AT));
    expect(screen.getByText('Expected cash now')).toBeTruthy();
    expect(screen.queryByTestId('report-counted')).toBeNull();
    expect(screen.queryByTestId('over-midnight')).toBeNull();
    expect(text('report-games')).toContain('No games in this shift yet.');
    expect(text('report-paid')).toContain('No prizes paid in this shift.');
    expect(text('report-unpaid')).toContain('No prize of this shift’s games is waiting to be paid.');
    expect(text('report-take-backs')).toContain('No money taken back in this shift.');
    expect(screen.queryAllByRole('listitem')).toEqual([]);
  });
});
