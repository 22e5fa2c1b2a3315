import { Pencil, Trash2 } from 'lucide-react';
import type { Winner } from '@lot/domain/schemas/winners';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { EmptyState } from '../../../components/ui/panels.tsx';

const COLUMNS: Column<Winner>[] = [
  {
    key: 'name',
    header: 'Name',
    className: 'order-1 font-semibold',
    render: (winner) => <span className={winner.isActive ? 'text-slate-900' : ''}>{winner.name}</span>,
  },
  {
    key: 'user',
    header: 'User',
    label: 'User',
    className: 'order-5 col-span-2 truncate md:whitespace-nowrap',
    render: (winner) =>
      winner.user ? (
        <span title={winner.user.username}>{winner.user.fullName}</span>
      ) : (
        <span className="rounded-md bg-indigo-50 px-2 py-0.5 text-xs font-semibold text-indigo-700">Global</span>
      ),
  },
  {
    key: 'position',
    header: 'Position',
    label: 'Position',
    className: 'order-3 md:whitespace-nowrap',
    render: (winner) => <span data-testid="winner-position">#{winner.position}</span>,
  },
  {
    key: 'percent',
    header: 'Percentage',
    align: 'right',
    className: 'order-2 text-right text-base font-semibold tabular-nums md:text-sm',
    render: (winner) => <span data-testid="winner-percent">{winner.percent}%</span>,
  },
  {
    key: 'description',
    header: 'Description',
    // An empty description takes no line on a phone card.
    className: (winner) => `order-6 col-span-2 text-xs md:text-sm ${winner.description ? '' : 'hidden'}`,
    render: (winner) => <span className="break-words">{winner.description}</span>,
  },
  {
    key: 'status',
    header: 'Status',
    className: 'order-4 text-right md:text-left md:whitespace-nowrap',
    render: (winner) => (
      <span
        className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${
          winner.isActive
            ? 'bg-emerald-50 text-emerald-700 ring-emerald-600/20'
            : 'bg-slate-100 text-slate-600 ring-slate-400/20'
        }`}
      >
        {winner.isActive ? 'Active' : 'Inactive'}
      </span>
    ),
  },
];

/** Global ones first, then by owner, then by position: the order a game pays them in. */
function byOwnerThenPosition(a: Winner, b: Winner): number {
  if (a.userId !== b.userId) {
    if (a.userId === null) return -1;
    if (b.userId === null) return 1;
    return (a.user?.fullName ?? '').localeCompare(b.user?.fullName ?? '') || a.userId - b.userId;
  }
  return a.position - b.position || a.id - b.id;
}

/**
 * The configurations (docs/product/screens.md): inactive ones are greyed (section 4). On a phone each
 * row is a card; the same cells, rearranged, so nothing scrolls sideways. A user's own list has no
 * User column (`showOwner` false): every row is theirs.
 */
export function WinnersList({
  winners,
  onEdit,
  onDelete,
  showOwner = true,
  emptyHint,
}: {
  winners: readonly Winner[];
  onEdit: (winner: Winner) => void;
  onDelete: (winner: Winner) => void;
  showOwner?: boolean;
  /** A line under the empty text. */
  emptyHint?: string;
}) {
  if (winners.length === 0)
    return (
      <EmptyState message="No winner configurations found.">
        {emptyHint && <p className="max-w-md text-sm text-slate-500">{emptyHint}</p>}
      </EmptyState>
    );
  const columns = COLUMNS.filter((column) => showOwner || column.key !== 'user').concat({
    key: 'actions',
    header: 'Actions',
    align: 'right',
    className: 'order-7 col-span-2 md:text-right md:whitespace-nowrap',
    render: (winner) => (
      <div className="flex justify-end gap-1 border-t border-slate-100 pt-2 md:border-0 md:pt-0">
        <button
          type="button"
          onClick={() => onEdit(winner)}
          aria-label={`Edit ${winner.name}`}
          className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-indigo-600 hover:bg-indigo-50"
        >
          <Pencil className="h-4 w-4" aria-hidden="true" />
          <span>Edit</span>
        </button>
        <button
          type="button"
          onClick={() => onDelete(winner)}
          aria-label={`Delete ${winner.name}`}
          className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-rose-700 hover:bg-rose-50"
        >
          <Trash2 className="h-4 w-4" aria-hidden="true" />
          <span>Delete</span>
        </button>
      </div>
    ),
  });
  return (
    <DataTable
      rows={[...winners].sort(byOwnerThenPosition)}
      columns={columns}
      rowKey={(winner) => winner.id}
      rowTestId="winner-row"
      rowData={(winner) => ({ 'data-active': winner.isActive ? 'true' : 'false' })}
      rowClassName={(winner) =>
        `grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-1.5 ${
          winner.isActive ? 'bg-white md:hover:bg-slate-50' : 'bg-slate-50 text-slate-500'
        }`
      }
      minWidth="md:min-w-[760px]"
    />
  );
}
