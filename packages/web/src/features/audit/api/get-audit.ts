import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditAction, AuditEntry } from '@lot/domain/schemas/audit';
import { apiPage } from '../../../lib/api-client.ts';

export const AUDIT_PAGE_SIZE = 20;

/** The audit screen's filters (decision 029): who acted, whom it was about, what, and local days. */
export type AuditFilter = {
  actor?: string;
  target?: string;
  action?: AuditAction;
  /** Local days, `YYYY-MM-DD`, both included. */
  fromDay?: string;
  toDay?: string;
};

/** The API's query for a filter: the days as the instants they start and end at in the browser's zone. */
export function auditQuery({ actor, target, action, fromDay, toDay }: AuditFilter) {
  const start = (day: string) => new Date(`${day}T00:00:00`).toISOString();
  const end = (day: string) => new Date(new Date(`${day}T00:00:00`).getTime() + 86_400_000 - 1).toISOString();
  return {
    actor: actor?.trim() || undefined,
    target: target?.trim() || undefined,
    action,
    from: fromDay ? start(fromDay) : undefined,
    to: toDay ? end(toDay) : undefined,
  };
}

export async function getAudit(filter: AuditFilter, page: number): Promise<{ items: AuditEntry[]; total: number }> {
  const { items, total } = await apiPage<AuditEntry>('/api/audit', {
    query: { ...auditQuery(filter), limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE },
  });
  return { items, total };
}

export const auditQueryKey = ['audit'] as const;

export function useAudit(filter: AuditFilter, page: number) {
  return useQuery(
    queryOptions({
      queryKey: [...auditQueryKey, filter, page],
      queryFn: () => getAudit(filter, page),
      placeholderData: keepPreviousData,
    }),
  );
}
