import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, type AuditAction } from '@lot/domain/schemas/audit';
import { Card, EmptyState, ErrorPanel, Spinner } from '../../components/ui/panels.tsx';
import { FormError, SelectField, TextField } from '../../components/ui/field.tsx';
import { Pagination } from '../../components/ui/pagination.tsx';
import { ExportButtons } from '../../components/ui/export-buttons.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count } from '../../lib/format.ts';
import { useListParams, useSearchBox } from '../../lib/use-list-params.ts';
import { AUDIT_PAGE_SIZE, auditQuery, useAudit, type AuditFilter } from '../../features/audit/api/get-audit.ts';
import { AuditCheckpointCard } from '../../features/audit/components/audit-checkpoint-card.tsx';
import { AuditTable } from '../../features/audit/components/audit-table.tsx';

/**
 * The audit trail (decision 029): /admin/audit shows every entry; /superagent/audit and
 * /agent/audit those about the caller's own hierarchy. Filters by actor, target, action and days;
 * the filtered set exports as CSV or Excel. The admin's page starts with the latest audit
 * checkpoint (decision 045).
 */
export function AuditRoute() {
  const user = useCurrentUser();
  // The filters and the page live in the address (a reload or Back keeps them).
  const { filters, page, setFilters, setPage } = useListParams(['actor', 'target', 'action', 'from', 'to']);
  const actor = useSearchBox(filters.actor, (value) => setFilters({ actor: value }));
  const target = useSearchBox(filters.target, (value) => setFilters({ target: value }));
  const action = AUDIT_ACTIONS.find((a) => a === filters.action);
  const filter: AuditFilter = {
    actor: filters.actor || undefined,
    target: filters.target || undefined,
    action,
    fromDay: filters.from || undefined,
    toDay: filters.to || undefined,
  };
  const audit = useAudit(filter, page);
  const total = audit.data?.total ?? 0;
  // A refused filter (From after To) is said at its field, not as a failed load.
  const refused = audit.error instanceof ApiError ? audit.error.fieldErrors : undefined;

  return (
    <div className="space-y-6">
      {user.role === 'admin' && <AuditCheckpointCard />}
      <Card title={user.role === 'admin' ? 'All Audit Entries' : 'Audit Entries of Your Hierarchy'}>
        <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-5">
          <TextField
            label="Actor"
            placeholder="Username or id"
            value={actor.typed}
            onChange={(e) => actor.setTyped(e.target.value)}
          />
          <TextField
            label="Target"
            placeholder="Username or id"
            value={target.typed}
            onChange={(e) => target.setTyped(e.target.value)}
          />
          <div className="col-span-2 lg:col-span-1">
            <SelectField
              label="Action"
              value={action ?? ''}
              onChange={(e) => setFilters({ action: e.target.value as AuditAction | '' })}
            >
              <option value="">All actions</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {AUDIT_ACTION_LABELS[a]}
                </option>
              ))}
            </SelectField>
          </div>
          <TextField
            label="From"
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            error={refused?.from}
            onChange={(e) => setFilters({ from: e.target.value })}
          />
          <TextField
            label="To"
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            error={refused?.to}
            onChange={(e) => setFilters({ to: e.target.value })}
          />
        </div>
        {audit.isPending ? (
          <Spinner />
        ) : refused ? (
          refused.from || refused.to ? (
            <EmptyState message="Change the dates to see entries." />
          ) : (
            <FormError message={errorMessage(audit.error, 'Failed to fetch the audit trail')} />
          )
        ) : audit.isError ? (
          <ErrorPanel message="Failed to fetch the audit trail" onRetry={() => void audit.refetch()} />
        ) : (
          <div
            className={`space-y-4 transition-opacity ${audit.isPlaceholderData ? 'opacity-60' : ''}`}
            aria-busy={audit.isFetching}
          >
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
              <p data-testid="audit-total" className="text-sm text-slate-600">
                {count(total)} {total === 1 ? 'entry' : 'entries'}
              </p>
              <ExportButtons path="/api/audit/export" query={auditQuery(filter)} />
            </div>
            <AuditTable entries={audit.data.items} />
            {total > 0 && <Pagination page={page} pageSize={AUDIT_PAGE_SIZE} total={total} onPage={setPage} />}
          </div>
        )}
      </Card>
    </div>
  );
}
