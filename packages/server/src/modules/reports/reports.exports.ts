import { decimalToCents } from '@lot/domain/money';
import { statementKindLabel } from '@lot/domain/statement-kinds';
import type { Downline, DownlineFigures, StatementMovement, StatementQuery } from '@lot/domain/schemas/reports';
import type { ExportColumn, ExportSource } from '../../lib/export.ts';
import type { Context } from '../../lib/context.ts';
import { statement } from './statements.service.ts';

/** The downline report and statements as files (docs/product/reports.md#exports). */

type DownlineLine = DownlineFigures & { name: string; username: string; role: string };

const money = (value: string) => decimalToCents(value);

const DOWNLINE_COLUMNS: ExportColumn<DownlineLine>[] = [
  { header: 'Name', type: 'text', value: (line) => line.name },
  { header: 'Username', type: 'text', value: (line) => line.username },
  { header: 'Role', type: 'text', value: (line) => line.role },
  { header: 'Games', type: 'integer', value: (line) => line.settledGames },
  { header: 'Numbers sold', type: 'integer', value: (line) => line.numbersSold },
  { header: 'Pool', type: 'money', value: (line) => money(line.pool) },
  { header: 'Prizes', type: 'money', value: (line) => money(line.prizes) },
  { header: 'Commission', type: 'money', value: (line) => money(line.commission) },
  { header: 'Voided games', type: 'integer', value: (line) => line.voidedGames },
  { header: 'Top-ups', type: 'money', value: (line) => money(line.topUps) },
  { header: 'Transfers received', type: 'money', value: (line) => money(line.transfersReceived) },
  { header: 'Transfers sent', type: 'money', value: (line) => money(line.transfersSent) },
  { header: 'Taken back', type: 'money', value: (line) => money(line.takenBack) },
  { header: 'Corrections', type: 'money', value: (line) => money(line.corrections) },
];

/** The report's rows, then its totals line. */
export function downlineExport(report: Downline, from: string, to: string): ExportSource<DownlineLine> {
  const lines: DownlineLine[] = [
    ...report.rows.map(({ user, ...figures }) => ({
      ...figures,
      name: user.fullName,
      username: user.username,
      role: user.role,
    })),
    { ...report.totals, name: 'Totals', username: '', role: '' },
  ];
  return {
    fileName: `downline-${report.parent.username}-${from}-to-${to}`,
    columns: DOWNLINE_COLUMNS,
    pages: (async function* () {
      yield lines;
    })(),
  };
}

/** A file's line: a movement with its kind in the screen's words, or the opening or closing balance. */
type StatementLine = Omit<StatementMovement, 'at' | 'kind'> & { at: Date | null; kind: string };

const STATEMENT_COLUMNS: ExportColumn<StatementLine>[] = [
  { header: 'Date', type: 'time', value: (line) => line.at },
  { header: 'Kind', type: 'text', value: (line) => line.kind },
  { header: 'Description', type: 'text', value: (line) => line.description },
  { header: 'Counterparty', type: 'text', value: (line) => line.counterparty?.fullName ?? null },
  { header: 'Game', type: 'text', value: (line) => line.gameCode },
  { header: 'Amount', type: 'money', value: (line) => (line.amount === '' ? null : money(line.amount)) },
  { header: 'Balance', type: 'money', value: (line) => money(line.balance) },
];

const STATEMENT_PAGE = 1_000;

/**
 * The statement's opening balance, every movement of the period with the running balance, and
 * the closing balance; read a page of movements at a time (one account's period is bounded).
 */
export async function statementExport(
  ctx: Context,
  userId: number,
  query: Omit<StatementQuery, 'limit' | 'offset'>,
): Promise<ExportSource<StatementLine>> {
  // The first page answers the scope check before anything is sent.
  const first = await statement(ctx, userId, { ...query, limit: STATEMENT_PAGE, offset: 0 });
  const edge = (kind: string, balance: string): StatementLine => ({
    transactionId: 0,
    at: null,
    kind,
    amount: '',
    balance,
    description: null,
    counterparty: null,
    gameCode: null,
    gameNumber: null,
  });
  const lines = (movements: StatementMovement[]) =>
    movements.map((m) => ({ ...m, at: new Date(m.at), kind: statementKindLabel(m.kind) }));
  return {
    fileName: `statement-${first.username}-${query.from}-to-${query.to}`,
    columns: STATEMENT_COLUMNS,
    pages: (async function* () {
      yield [edge('Opening balance', first.openingBalance), ...lines(first.movements)];
      for (let offset = STATEMENT_PAGE; offset < first.total; offset += STATEMENT_PAGE) {
        yield lines((await statement(ctx, userId, { ...query, limit: STATEMENT_PAGE, offset })).movements);
      }
      yield [edge('Closing balance', first.closingBalance)];
    })(),
  };
}
