import { useEffect, useState } from 'react';
import { Plus } from 'lucide-react';
import { ROLE_LABELS } from '@lot/domain/roles';
import type { User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { ExportButtons } from '../../../components/ui/export-buttons.tsx';
import { SearchInput } from '../../../components/ui/search-input.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { Card, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { USERS_PAGE_SIZE, usersApiQuery, useUsersByRole, type UsersFilterQuery } from '../api/get-users-by-role.ts';
import { useParentOptions } from '../api/get-parent-options.ts';
import { useListParams, useSearchBox } from '../../../lib/use-list-params.ts';
import { statusFilterOf, USERS_SEARCH_PLACEHOLDER, UsersFilters } from './users-filters.tsx';
import { DeleteUserModal } from './delete-user-modal.tsx';
import { ROLE_CONFIG } from './role-config.ts';
import { TakeBackModal } from './take-back-modal.tsx';
import { TopupModal } from './topup-modal.tsx';
import { UserFormModal } from './user-form-modal.tsx';
import type { ManagedRole } from './user-form-rules.ts';
import { UsersTable } from './users-table.tsx';

type Dialog =
  | { kind: 'form'; user: User | null }
  | { kind: 'delete'; user: User }
  | { kind: 'topup'; user: User }
  | { kind: 'take-back'; user: User };

/**
 * docs/product/screens.md#admin-people-lists: the admin's list of one role, searched and paged by the server, with
 * Add New, Edit, Delete, Top Up and Take Back. Every write reloads the list (the mutations invalidate it).
 */
export function UsersScreen({ role }: { role: ManagedRole }) {
  const config = ROLE_CONFIG[role];
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);

  // The search, filters and page live in the address (a reload or Back keeps them); a changed
  // filter starts again at page 1 (docs/product/screens.md#pagination).
  const { filters, page, setFilters, setPage } = useListParams(['search', 'status', 'parent']);
  const search = useSearchBox(filters.search, (value) => setFilters({ search: value }));
  const status = statusFilterOf(filters.status);
  const parentId = /^\d{1,10}$/.test(filters.parent) ? Number(filters.parent) : undefined;
  const filter: UsersFilterQuery = { search: filters.search, status: status || undefined, parentId };
  const parents = useParentOptions(config.parentRoles);

  const users = useUsersByRole({ role, page, ...filter });
  const total = users.data?.total ?? 0;
  // A delete can empty the last page, and an address can name a page past the end: show the last one.
  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));
  const pastTheEnd = users.data !== undefined && !users.isPlaceholderData && page > pages;
  useEffect(() => {
    if (pastTheEnd) setPage(pages);
  }, [pastTheEnd, pages, setPage]);

  return (
    <div className="space-y-6">
      <Card
        title={config.listTitle}
        actions={
          <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
            <SearchInput
              label={config.searchLabel}
              value={search.typed}
              onChange={search.setTyped}
              placeholder={USERS_SEARCH_PLACEHOLDER}
            />
            <Button onClick={() => setDialog({ kind: 'form', user: null })}>
              <Plus className="h-4 w-4" aria-hidden="true" />
              {config.form.addLabel}
            </Button>
          </div>
        }
      >
        <UsersFilters
          status={status}
          onStatus={(value) => setFilters({ status: value })}
          parent={
            config.parentRoles.length > 0
              ? {
                  label: 'Parent',
                  value: parentId === undefined ? '' : String(parentId),
                  all: 'All parents',
                  options: (parents.data ?? []).map((p) => ({
                    value: String(p.id),
                    label: `${p.fullName} (${ROLE_LABELS[p.role]})`,
                  })),
                  onChange: (value) => setFilters({ parent: value }),
                }
              : undefined
          }
          filtered={Boolean(filters.search || status || parentId)}
          onReset={() => {
            search.reset();
            setFilters({ search: '', status: '', parent: '' });
          }}
        />
        <div className="mb-4">
          <ExportButtons path={`/api/users/role/${role}/export`} query={usersApiQuery(filter)} />
        </div>
        {users.isPending ? (
          <Spinner />
        ) : users.isError ? (
          <ErrorPanel message={config.fetchError} onRetry={() => void users.refetch()} />
        ) : (
          <div
            className={`space-y-4 transition-opacity ${users.isPlaceholderData ? 'opacity-60' : ''}`}
            aria-busy={users.isFetching}
          >
            <UsersTable
              users={users.data.items}
              showParent={config.showParent}
              onEdit={(user) => setDialog({ kind: 'form', user })}
              onDelete={(user) => setDialog({ kind: 'delete', user })}
              fundsAction="topup"
              onFunds={(user) => setDialog({ kind: 'topup', user })}
              onTakeBack={(user) => setDialog({ kind: 'take-back', user })}
            />
            {total > 0 && <Pagination page={page} pageSize={USERS_PAGE_SIZE} total={total} onPage={setPage} />}
          </div>
        )}
      </Card>

      <UserFormModal
        rules={config.form}
        open={dialog?.kind === 'form'}
        user={dialog?.kind === 'form' ? dialog.user : null}
        onClose={close}
      />
      <DeleteUserModal
        user={dialog?.kind === 'delete' ? dialog.user : null}
        fallback={config.deleteFallback}
        onClose={close}
      />
      <TopupModal user={dialog?.kind === 'topup' ? dialog.user : null} onClose={close} />
      <TakeBackModal user={dialog?.kind === 'take-back' ? dialog.user : null} onClose={close} />
    </div>
  );
}
