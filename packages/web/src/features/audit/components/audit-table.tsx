import { AUDIT_ACTION_LABELS, isShownPerson, type AuditEntry, type AuditPerson } from '@lot/domain/schemas/audit';
import { MESSAGES } from '@lot/domain/messages';
import { DataTable, type Column } from '../../../components/ui/data-table.tsx';
import { EmptyState } from '../../../components/ui/panels.tsx';
import { dateTime } from '../../../lib/format.ts';

const TONE: Record<string, string> = {
  auth: 'bg-slate-100 text-slate-700',
  user: 'bg-sky-50 text-sky-700',
  money: 'bg-emerald-50 text-emerald-700',
  winner: 'bg-amber-50 text-amber-800',
  game: 'bg-violet-50 text-violet-700',
  backup: 'bg-orange-50 text-orange-700',
};

const OUTSIDE = 'Outside your hierarchy';

/**
 * A person as the server gave them: the username (the full name on hover), or for someone outside
 * the reader's hierarchy the masked name, set apart (decision 048).
 */
function Person({ person, testId, fallback = '—' }: { person: AuditPerson | null; testId: string; fallback?: string }) {
  if (isShownPerson(person))
    return (
      <span data-testid={testId} title={person.fullName}>
        {person.username}
      </span>
    );
  if (person)
    return (
      <span data-testid={testId} data-masked="true" title={OUTSIDE} className="text-slate-500 italic">
        {person.name}
      </span>
    );
  return <span data-testid={testId}>{fallback}</span>;
}

/** Shown first, in this order; the rest follow as stored. */
const FIRST = ['amount', 'description', 'reason', 'username'];
/** Ids the row already names as its actor and target. */
const SKIPPED = new Set(['from', 'to']);

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** One line per detail: a change as `field: before → after`, anything else as `field: value`; empty ones left out. */
function detailLines(details: Record<string, unknown>): string[] {
  const rank = (key: string) => (FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length);
  const lines: string[] = [];
  const keys = Object.keys(details).sort((a, b) => rank(a) - rank(b));
  for (const key of keys) {
    const value = details[key];
    if (SKIPPED.has(key) || value === null || value === undefined) continue;
    if (key === 'changes' && typeof value === 'object') {
      if (Object.keys(value).length === 0) lines.push('no field changed');
      for (const [field, change] of Object.entries(value as Record<string, { from: unknown; to: unknown }>)) {
        lines.push(
          `${field}: ${change.from === null ? '—' : text(change.from)} → ${change.to === null ? '—' : text(change.to)}`,
        );
      }
    } else if (key === 'passwordChanged') {
      lines.push('password changed');
    } else {
      lines.push(`${key}: ${text(value)}`);
    }
  }
  return lines;
}

const COLUMNS: Column<AuditEntry>[] = [
  {
    key: 'time',
    header: 'Time',
    className: 'order-2 text-right text-xs text-slate-500 md:text-left md:text-sm md:text-slate-600',
    render: (entry) => <time dateTime={entry.at}>{dateTime(entry.at)}</time>,
  },
  {
    key: 'action',
    header: 'Action',
    className: 'order-1',
    render: (entry) => (
      <span
        data-testid="audit-action"
        className={`rounded-md px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONE[entry.action.split('.')[0] ?? ''] ?? ''}`}
      >
        {AUDIT_ACTION_LABELS[entry.action]}
      </span>
    ),
  },
  {
    key: 'actor',
    header: 'Actor',
    label: 'By',
    className: 'order-3 truncate text-slate-900',
    render: (entry) => <Person person={entry.actor} testId="audit-actor" />,
  },
  {
    key: 'target',
    header: 'Target',
    label: 'On',
    className: 'order-4 truncate text-right text-slate-900 md:text-left',
    render: (entry) => (
      <Person
        person={entry.targetUser}
        testId="audit-target"
        fallback={entry.targetKind ? `${entry.targetKind} ${entry.targetId ?? ''}` : '—'}
      />
    ),
  },
  {
    key: 'details',
    header: 'Details',
    className: 'order-5 col-span-2 text-xs text-slate-600 md:max-w-sm',
    render: (entry) => (
      <ul className="space-y-0.5 break-words">
        {detailLines(entry.details).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    ),
  },
  {
    key: 'address',
    header: 'Address',
    label: 'From',
    className: 'order-6 col-span-2 text-xs text-slate-500 tabular-nums',
    render: (entry) => entry.address ?? '—',
  },
];

/** The audit entries: a table on a wide screen, a card per entry on a phone. */
export function AuditTable({ entries }: { entries: readonly AuditEntry[] }) {
  if (entries.length === 0) return <EmptyState message={MESSAGES.auditEmpty} />;
  return (
    <DataTable
      rows={entries}
      columns={COLUMNS}
      rowKey={(entry) => entry.id}
      rowTestId="audit-row"
      rowClassName="grid grid-cols-2 items-center gap-x-3 gap-y-1.5 bg-white md:hover:bg-slate-50"
      minWidth="md:min-w-[880px]"
      cellClassName="md:px-4 md:py-3 md:align-top"
    />
  );
}
