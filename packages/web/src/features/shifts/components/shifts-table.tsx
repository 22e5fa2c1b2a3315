import { Link } from 'react-router';
import type { Shift } from '@lot/domain/schemas/shifts';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { dateTime, money } from '../../../lib/format.ts';
import { Variance } from './variance.tsx';

export type ShiftColumn = 'shop' | 'opened' | 'closed' | 'float' | 'expected' | 'counted' | 'variance' | 'z' | 'report';

/** "Open over midnight": a shift left open past the UTC day it was opened on. */
export function OverMidnightBadge() {
  return (
    <span
      data-testid="over-midnight"
      className="inline-flex rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-amber-800"
    >
      Open over midnight
    </span>
  );
}

const COLUMNS: (Column<Shift> & { key: ShiftColumn })[] = [
  {
    key: 'shop',
    header: 'Shop',
    className: 'order-1 col-span-4 min-w-0 font-medium text-slate-900',
    render: (shift) => (
      <>
        <span className="block truncate">{shift.shopName}</span>
        {shift.parentName && (
          <span className="block truncate text-xs font-normal text-slate-500">{shift.parentName}</span>
        )}
      </>
    ),
  },
  {
    key: 'z',
    header: 'Z no.',
    align: 'right',
    className: 'order-2 col-span-2 text-right font-semibold tabular-nums md:whitespace-nowrap',
    render: (shift) =>
      shift.zNumber === null ? (
        <span className="inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
          Open
        </span>
      ) : (
        <span data-testid="shift-z">Z {shift.zNumber}</span>
      ),
  },
  {
    key: 'opened',
    header: 'Opened',
    label: 'Opened',
    className: 'order-3 col-span-3 text-sm md:whitespace-nowrap',
    render: (shift) => <time dateTime={shift.openedAt}>{dateTime(shift.openedAt)}</time>,
  },
  {
    key: 'closed',
    header: 'Closed',
    label: 'Closed',
    className: 'order-3 col-span-3 text-sm md:whitespace-nowrap',
    render: (shift) => (
      <span className="flex flex-col items-start gap-1">
        {shift.closedAt ? (
          <time dateTime={shift.closedAt}>{dateTime(shift.closedAt)}</time>
        ) : (
          <span className="text-slate-500">—</span>
        )}
        {shift.overMidnight && <OverMidnightBadge />}
      </span>
    ),
  },
  {
    key: 'float',
    header: 'Float',
    label: 'Float',
    align: 'right',
    className: 'order-4 col-span-2 tabular-nums md:text-right md:whitespace-nowrap',
    render: (shift) => money(shift.openingFloat),
  },
  {
    key: 'expected',
    header: 'Expected',
    label: 'Expected',
    align: 'right',
    className: 'order-4 col-span-2 tabular-nums md:text-right md:whitespace-nowrap',
    render: (shift) => <span data-testid="shift-expected">{money(shift.expectedCash)}</span>,
  },
  {
    key: 'counted',
    header: 'Counted',
    label: 'Counted',
    align: 'right',
    className: 'order-4 col-span-2 tabular-nums md:text-right md:whitespace-nowrap',
    render: (shift) => (shift.countedCash === null ? '—' : money(shift.countedCash)),
  },
  {
    key: 'variance',
    header: 'Variance',
    label: 'Variance',
    align: 'right',
    className: 'order-5 col-span-3 md:text-right md:whitespace-nowrap',
    render: (shift) => <Variance amount={shift.variance} testId="shift-variance" />,
  },
  {
    key: 'report',
    header: 'Report',
    hiddenHeader: true,
    className: 'order-6 col-span-3 text-right',
    render: (shift) => (
      <Link
        to={`/shifts/${shift.id}`}
        className="text-sm font-semibold whitespace-nowrap text-indigo-600 hover:text-indigo-700"
        aria-label={`${shift.zNumber === null ? 'X report' : `Z report ${shift.zNumber}`} of ${shift.shopName}, opened ${dateTime(shift.openedAt)}`}
      >
        {shift.zNumber === null ? 'X report' : 'Z report'}
      </Link>
    ),
  },
];

/**
 * Shifts as a list (docs/product/screens.md#shifts): the shop, when it opened and closed, the float,
 * the expected and counted cash, the variance (short in red, over in amber), the Z number or Open, and
 * the way to its report.
 */
export function ShiftsTable({ shifts, hide = [] }: { shifts: readonly Shift[]; hide?: readonly ShiftColumn[] }) {
  return (
    <DataTable
      rows={shifts}
      columns={COLUMNS.filter((column) => !hide.includes(column.key)).map((column) =>
        // Without the shop, the Z number heads a phone card alone.
        column.key === 'z' && hide.includes('shop')
          ? { ...column, className: 'order-1 col-span-6 font-semibold tabular-nums md:text-right md:whitespace-nowrap' }
          : column,
      )}
      rowKey={(shift) => shift.id}
      rowTestId="shift-row"
      rowData={(shift) => ({ 'data-shift-id': String(shift.id) })}
      rowClassName="grid grid-cols-6 gap-x-3 gap-y-2 bg-white md:hover:bg-slate-50"
      minWidth="md:min-w-[860px]"
      cellClassName="md:px-3 md:py-3"
      headerClassName="px-3 py-3 whitespace-nowrap"
      labels="stacked"
    />
  );
}
