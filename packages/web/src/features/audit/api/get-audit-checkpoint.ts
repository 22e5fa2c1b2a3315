import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditCheckpoint } from '@lot/domain/schemas/audit';
import { api } from '../../../lib/api-client.ts';

/** GET /api/audit/checkpoint (the admin): the latest signed checkpoint of the audit chains, or null (decision 045). */
export const auditCheckpointQuery = () =>
  queryOptions({
    queryKey: ['audit', 'checkpoint'],
    queryFn: () => api<AuditCheckpoint | null>('/api/audit/checkpoint'),
  });

export function useAuditCheckpoint() {
  return useQuery(auditCheckpointQuery());
}
