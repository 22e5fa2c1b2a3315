import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import type { User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { SearchInput } from '../../../components/ui/search-input.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { Card, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useListParams, useSearchBox } from '../../../lib/use-list-params.ts';
import { ExportButtons } from '../../../components/ui/export-buttons.tsx';
import { useScopedUsers } from '../api/get-scoped-users.ts';
import { DeleteUserModal } from './delete-user-modal.tsx';
import { UserFormModal } from './user-form-modal.tsx';
import { USER_FORMS, type HierarchyFormKind } from './user-form-rules.ts';
import { TakeBackModal } from './take-back-modal.tsx';
import { UsersTable } from './users-table.tsx';
import { statusFilterOf, USERS_SEARCH_PLACEHOLDER, UsersFilters } from './users-filters.tsx';
import { filterScopedUsers, SHOW_OPTIONS, type UsersFilter } from './scoped-users-filter.ts';

const PAGE_SIZE = 10;

type Dialog = { kind: 'form'; user: User | null } | { kind: 'delete'; user: User } | { kind: 'take-back'; user: User };

/**
 * docs/product/screens.md#hierarchy-people-screens: a super agent's agents, a super agent's users (direct and under
 * its agents) and an agent's direct users, with add, edit, delete, Transfer and Take Back. The transfer
 * dialog belongs to the transactions feature, so the route renders it (onTransfer).
 */
export function HierarchyUsersScreen({
  kind,
  title,
  onTransfer,
}: {
  kind: HierarchyFormKind;
  title: string;
  onTransfer: (user: User) => void;
}) {
  const rules = USER_FORMS[kind];
  const me = useCurrentUser();
  const users = useScopedUsers(rules.role);
  // The toggle, status, search and page live in the address (a reload or Back keeps them).
  const { filters, page: chosenPage, setFilters, setPage } = useListParams(['show', 'status', 'search']);
  const search = useSearchBox(filters.search, (value) => setFilters({ search: value }));
  const filter: UsersFilter = filters.show === 'mine' || filters.show === 'agents' ? filters.show : 'all';
  const status = statusFilterOf(filters.status);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);

  const shown = useMemo(
    () => filterScopedUsers(users.data ?? [], me.id, { kind, show: filter, status, search: filters.search }),
    [users.data, kind, filter, status, filters.search, me.id],
  );

  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  // A delete can empty the last page, and an address can name a page past the end: show the last one.
  const page = Math.min(chosenPage, pages);
  const rows = shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);

  return (
    <div className="space-y-6">
      <Card
        title={title}
        actions={
          <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
            <SearchInput
              label={`Search ${rules.role === 'agent' ? 'agents' : 'users'}`}
              value={search.typed}
              onChange={search.setTyped}
              placeholder={USERS_SEARCH_PLACEHOLDER}
            />
            <Button onClick={() => setDialog({ kind: 'form', user: null })}>
              <Plus className="h-4 w-4" aria-hidden="true" />
              {rules.addLabel}
            </Button>
          </div>
        }
      >
        <UsersFilters
          status={status}
          onStatus={(value) => setFilters({ status: value })}
          filtered={Boolean(filters.search || status || filter !== 'all')}
          onReset={() => {
            search.reset();
            setFilters({ search: '', status: '', show: '' });
          }}
        >
          {kind === 'superagent-user' && (
            <div
              role="group"
              aria-label="Show"
              className="col-span-2 inline-flex w-full self-end rounded-lg bg-slate-100 p-1 lg:col-span-2"
            >
              {SHOW_OPTIONS.map((option) => (
                <button
                  key={option.value}
                  type="button"
                  aria-pressed={filter === option.value}
                  onClick={() => setFilters({ show: option.value === 'all' ? '' : option.value })}
                  className={`flex-1 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition ${
                    filter === option.value
                      ? 'bg-white text-indigo-700 shadow-sm'
                      : 'text-slate-600 hover:text-slate-900'
                  }`}
                >
                  {option.label}
                </button>
              ))}
            </div>
          )}
        </UsersFilters>
        <div className="mb-4">
          {/* Everyone of the role in scope, whichever part of it the list shows. */}
          <ExportButtons label="Export all" path={`/api/users/role/${rules.role}/export`} query={{}} />
        </div>
        {users.isPending ? (
          <Spinner />
        ) : users.isError ? (
          <ErrorPanel
            message={rules.role === 'agent' ? 'Failed to fetch agents' : 'Failed to fetch users'}
            onRetry={() => void users.refetch()}
          />
        ) : (
          <div className="space-y-4" aria-busy={users.isFetching}>
            <UsersTable
              users={rows}
              showParent={kind === 'superagent-user'}
              onEdit={(user) => setDialog({ kind: 'form', user })}
              onDelete={(user) => setDialog({ kind: 'delete', user })}
              fundsAction="transfer"
              onFunds={onTransfer}
              onTakeBack={(user) => setDialog({ kind: 'take-back', user })}
            />
            {shown.length > 0 && <Pagination page={page} pageSize={PAGE_SIZE} total={shown.length} onPage={setPage} />}
          </div>
        )}
      </Card>

      <UserFormModal
        rules={rules}
        open={dialog?.kind === 'form'}
        user={dialog?.kind === 'form' ? dialog.user : null}
        onClose={close}
      />
      <DeleteUserModal
        user={dialog?.kind === 'delete' ? dialog.user : null}
        fallback={rules.role === 'agent' ? 'Failed to delete agent' : 'Failed to delete user'}
        onClose={close}
      />
      <TakeBackModal user={dialog?.kind === 'take-back' ? dialog.user : null} onClose={close} />
    </div>
  );
}
