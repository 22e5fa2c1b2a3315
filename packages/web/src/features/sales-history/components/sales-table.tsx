import type { ReactNode } from 'react';
import type { Sale } from '@lot/domain/schemas/sales-history';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { money } from '../../../lib/format.ts';
import { GameAt } from './game-at.tsx';

export type SalesColumn =
  'date' | 'user' | 'parent' | 'range' | 'betAmount' | 'totalPrize' | 'commission' | 'selected' | 'winners';

type SalesColumnSpec = {
  key: SalesColumn;
  header: string;
  /** The label on a phone card, where a third of the width is all a figure gets. */
  short?: string;
  numeric?: boolean;
  render: (sale: Sale) => ReactNode;
};

const COLUMNS: SalesColumnSpec[] = [
  {
    key: 'date',
    header: 'Date',
    render: (sale) => <GameAt number={sale.number} at={sale.createdAt} />,
  },
  {
    key: 'user',
    header: 'User',
    render: (sale) => (
      <span title={sale.user.username} className="font-medium text-slate-900">
        {sale.user.fullName}
      </span>
    ),
  },
  {
    key: 'parent',
    header: 'Parent',
    render: (sale) => (
      <>
        <span className="md:hidden">Parent: </span>
        {sale.user.parent?.fullName ?? '—'}
      </>
    ),
  },
  { key: 'range', header: 'Range', render: (sale) => `${sale.startRange}-${sale.endRange}` },
  { key: 'betAmount', header: 'Bet Amount', numeric: true, render: (sale) => money(sale.betAmount) },
  { key: 'totalPrize', header: 'Total Prize', numeric: true, render: (sale) => money(sale.totalPrize) },
  {
    key: 'commission',
    header: 'Commission',
    numeric: true,
    render: (sale) => <span className="font-semibold text-emerald-700">{money(sale.commission)}</span>,
  },
  {
    key: 'selected',
    header: 'Selected Numbers',
    short: 'Selected',
    numeric: true,
    render: (sale) => sale.selectedNumbersCount,
  },
  { key: 'winners', header: 'Winners', numeric: true, render: (sale) => sale.winningNumbersCount },
];

/** Cells that head a phone card (no label of their own) and cells that never wrap on a wide screen. */
const HEADLINE = new Set<SalesColumn>(['date', 'user', 'parent']);
const NOWRAP = new Set<SalesColumn>(['date', 'range', 'betAmount', 'totalPrize', 'commission']);

/**
 * On a phone a row is a card: the user's name and the date head it, the parent under them, the
 * figures three to a line with their (shorter) labels.
 */
function phoneCell(key: SalesColumn, showUser: boolean): string {
  if (key === 'user') return 'order-1 col-span-3 truncate font-medium md:overflow-visible xl:whitespace-nowrap';
  if (key === 'date')
    return `whitespace-nowrap text-xs text-slate-500 md:text-sm md:text-slate-600 ${
      showUser ? 'order-2 col-span-3 text-right md:text-left' : 'order-1 col-span-6'
    }`;
  if (key === 'parent')
    return 'order-3 col-span-6 -mt-1 text-xs text-slate-500 md:mt-0 md:text-sm md:text-slate-700 xl:whitespace-nowrap';
  return 'order-4 col-span-2 text-slate-700';
}

/**
 * The game history table every history screen shares (docs/product/screens.md): `hide` drops
 * columns a view does not have (the agent's has no Parent, the user's no User), `action` adds a
 * last cell per row (a user's View Winners link).
 */
export function SalesTable({
  sales,
  hide = [],
  action,
}: {
  sales: readonly Sale[];
  hide?: readonly SalesColumn[];
  action?: { header: string; render: (sale: Sale) => ReactNode };
}) {
  const shown = COLUMNS.filter((column) => !hide.includes(column.key));
  const showUser = shown.some((column) => column.key === 'user');
  const columns: Column<Sale>[] = shown.map(({ key, header, short, numeric, render }) => ({
    key,
    header,
    align: numeric ? 'right' : 'left',
    label: HEADLINE.has(key) ? undefined : (short ?? header),
    className: `${phoneCell(key, showUser)} ${numeric ? 'tabular-nums md:text-right' : ''} ${
      NOWRAP.has(key) ? 'md:whitespace-nowrap' : ''
    }`,
    render,
  }));
  if (action) {
    columns.push({
      key: 'action',
      header: action.header,
      hiddenHeader: true,
      align: 'right',
      className: 'order-5 col-span-6 md:text-right md:whitespace-nowrap',
      render: action.render,
    });
  }
  return (
    <DataTable
      rows={sales}
      columns={columns}
      rowKey={(sale) => sale.id}
      rowTestId="sale-row"
      rowClassName="grid grid-cols-6 gap-x-3 gap-y-2 bg-white md:hover:bg-slate-50"
      minWidth="md:min-w-[720px]"
      cellClassName="md:px-2.5 md:py-3"
      headerClassName="px-2.5 py-3 align-bottom leading-tight"
      labels="stacked"
    />
  );
}
