import { Link } from 'react-router';
import { ArrowLeftRight, FileText, Pencil, Trash2, Undo2, Wallet } from 'lucide-react';
import type { User } from '@lot/domain/schemas/users';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { EmptyState } from '../../../components/ui/panels.tsx';
import { money } from '../../../lib/format.ts';

const PARENT: Column<User> = {
  key: 'parent',
  header: 'Parent',
  label: 'Parent',
  className: 'order-5 col-span-2 truncate text-slate-700',
  render: (user) =>
    user.parent ? (
      <span title={`@${user.parent.username}`}>{user.parent.fullName}</span>
    ) : (
      <span className="text-slate-500">None</span>
    ),
};

const action =
  'inline-flex items-center justify-center gap-1.5 whitespace-nowrap rounded-lg [&>svg]:shrink-0 px-2.5 py-1.5 text-xs font-semibold ring-1 ring-inset transition';

export function UsersTable({
  users,
  showParent,
  onEdit,
  onDelete,
  fundsAction,
  onFunds,
  onTakeBack,
}: {
  users: User[];
  showParent: boolean;
  onEdit: (user: User) => void;
  onDelete: (user: User) => void;
  /** The admin tops up; super agents and agents send funds instead (docs/product/roles-and-scope.md#transfers). */
  fundsAction: 'topup' | 'transfer';
  onFunds: (user: User) => void;
  /** Take Back (docs/product/money.md#take-back): the admin, super agents and agents from the people they list. */
  onTakeBack: (user: User) => void;
}) {
  if (users.length === 0) return <EmptyState message="No users found" />;
  const columns: Column<User>[] = [
    {
      key: 'name',
      header: 'Name',
      className: 'order-1',
      render: (user) => (
        <div className="flex min-w-0 items-center gap-3">
          <span
            aria-hidden="true"
            className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700"
          >
            {(user.fullName.trim()[0] ?? 'U').toUpperCase()}
          </span>
          <div className="min-w-0">
            <p className="truncate font-medium text-slate-900">{user.fullName}</p>
            <p className="truncate text-xs text-slate-500">@{user.username}</p>
          </div>
        </div>
      ),
    },
    {
      key: 'shop',
      header: 'Shop',
      label: 'Shop',
      className: 'order-3 truncate text-slate-700',
      render: (user) => user.shopName || <span className="text-slate-500">—</span>,
    },
    {
      key: 'status',
      header: 'Status',
      className: 'order-2 text-right md:text-left',
      render: (user) => (
        <span
          data-testid="user-status"
          className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium capitalize ring-1 ring-inset ${
            user.status === 'active'
              ? 'bg-emerald-50 text-emerald-700 ring-emerald-600/20'
              : 'bg-slate-100 text-slate-600 ring-slate-500/20'
          }`}
        >
          {user.status}
        </span>
      ),
    },
    {
      key: 'balance',
      header: 'Balance',
      align: 'right',
      className: 'order-4 text-right font-semibold text-slate-900 tabular-nums',
      render: (user) => <span data-testid="user-balance">{money(user.balance.amount)}</span>,
    },
    ...(showParent ? [PARENT] : []),
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      className: 'order-6 col-span-2 border-t border-slate-100 pt-2 md:border-0 md:pt-3',
      // Five actions: two by two below 2xl (the statement across), where a one-line row would push them out of the table.
      render: (user) => (
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-5 md:grid-cols-[auto_auto] 2xl:flex 2xl:justify-end">
          <Link
            to={`/statements/${user.id}`}
            data-testid="user-statement"
            title={`Statement of ${user.fullName}`}
            className={`${action} col-span-2 text-slate-700 ring-slate-300 hover:bg-slate-50 sm:col-span-1 md:col-span-2`}
          >
            <FileText className="h-3.5 w-3.5" aria-hidden="true" />
            Statement
          </Link>
          <button
            type="button"
            onClick={() => onEdit(user)}
            title={`Edit ${user.fullName}`}
            className={`${action} text-slate-700 ring-slate-300 hover:bg-slate-50`}
          >
            <Pencil className="h-3.5 w-3.5" aria-hidden="true" />
            Edit
          </button>
          <button
            type="button"
            onClick={() => onFunds(user)}
            // Money is sent to active users only (docs/product/roles-and-scope.md#transfers): say so, not just refuse.
            disabled={fundsAction === 'transfer' && user.status !== 'active'}
            title={
              fundsAction === 'topup'
                ? `Top up ${user.fullName}`
                : user.status !== 'active'
                  ? `${user.fullName} is inactive: funds can only be sent to active users`
                  : `Transfer funds to ${user.fullName}`
            }
            className={`${action} text-indigo-700 ring-indigo-200 hover:bg-indigo-50 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-transparent`}
          >
            {fundsAction === 'topup' ? (
              <>
                <Wallet className="h-3.5 w-3.5" aria-hidden="true" />
                Top Up
              </>
            ) : (
              <>
                <ArrowLeftRight className="h-3.5 w-3.5" aria-hidden="true" />
                Transfer
              </>
            )}
          </button>
          <button
            type="button"
            onClick={() => onTakeBack(user)}
            title={`Take back funds from ${user.fullName}`}
            className={`${action} text-amber-800 ring-amber-200 hover:bg-amber-50`}
          >
            <Undo2 className="h-3.5 w-3.5" aria-hidden="true" />
            Take Back
          </button>
          <button
            type="button"
            onClick={() => onDelete(user)}
            title={`Delete ${user.fullName}`}
            className={`${action} text-rose-700 ring-rose-200 hover:bg-rose-50`}
          >
            <Trash2 className="h-3.5 w-3.5" aria-hidden="true" />
            Delete
          </button>
        </div>
      ),
    },
  ];
  return (
    <DataTable
      rows={users}
      columns={columns}
      rowKey={(user) => user.id}
      rowTestId="user-row"
      // On a phone: name and status; shop and balance; parent; the actions.
      rowClassName="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 bg-white md:hover:bg-slate-50"
      minWidth="md:min-w-[760px]"
    />
  );
}
