import { useState } from 'react';
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, type AuditAction } from '@lot/domain/schemas/audit';
import { Card, ErrorPanel, Spinner } from '../../components/ui/panels.tsx';
import { SelectField, TextField } from '../../components/ui/field.tsx';
import { Pagination } from '../../components/ui/pagination.tsx';
import { ExportButtons } from '../../components/ui/export-buttons.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';
import { count } from '../../lib/format.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useFilterPage } from '../../lib/use-filter-page.ts';
import { AUDIT_PAGE_SIZE, auditQuery, useAudit, type AuditFilter } from '../../features/audit/api/get-audit.ts';
import { AuditTable } from '../../features/audit/components/audit-table.tsx';

/**
 * The audit trail (decision 029): /admin/audit shows every entry; /superagent/audit and
 * /agent/audit those about the caller's own hierarchy. Filters by actor, target, action and days;
 * the filtered set exports as CSV or Excel.
 */
export function AuditRoute() {
  const user = useCurrentUser();
  const [actor, setActor] = useState('');
  const [target, setTarget] = useState('');
  const [action, setAction] = useState<AuditAction | ''>('');
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const debouncedActor = useDebouncedValue(actor.trim(), 300);
  const debouncedTarget = useDebouncedValue(target.trim(), 300);
  const filter: AuditFilter = {
    actor: debouncedActor || undefined,
    target: debouncedTarget || undefined,
    action: action || undefined,
    fromDay: fromDay || undefined,
    toDay: toDay || undefined,
  };
  const [page, setPage] = useFilterPage(JSON.stringify(filter));
  const audit = useAudit(filter, page);
  const total = audit.data?.total ?? 0;

  return (
    <Card title={user.role === 'admin' ? 'All Audit Entries' : 'Audit Entries of Your Hierarchy'}>
      <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-5">
        <TextField
          label="Actor"
          placeholder="Username or id"
          value={actor}
          onChange={(e) => setActor(e.target.value)}
        />
        <TextField
          label="Target"
          placeholder="Username or id"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
        />
        <div className="col-span-2 lg:col-span-1">
          <SelectField label="Action" value={action} onChange={(e) => setAction(e.target.value as AuditAction | '')}>
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
          value={fromDay}
          max={toDay || undefined}
          onChange={(e) => setFromDay(e.target.value)}
        />
        <TextField
          label="To"
          type="date"
          value={toDay}
          min={fromDay || undefined}
          onChange={(e) => setToDay(e.target.value)}
        />
      </div>
      {audit.isPending ? (
        <Spinner />
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
  );
}
