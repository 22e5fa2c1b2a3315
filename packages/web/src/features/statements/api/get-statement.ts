import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Statement } from '@lot/domain/schemas/reports';
import { api } from '../../../lib/api-client.ts';

/** A statement asked for: whose, whole local days from–to in the zone, and which page of movements. */
export type StatementQuery = {
  userId: number;
  from: string;
  to: string;
  timeZone: string;
  limit: number;
  offset: number;
};

/** GET /api/statements/{userId} (docs/product/money.md#statements). */
export function getStatement({ userId, from, to, timeZone, limit, offset }: StatementQuery): Promise<Statement> {
  return api<Statement>(`/api/statements/${userId}`, { query: { from, to, tz: timeZone, limit, offset } });
}

export const statementQuery = (query: StatementQuery) =>
  queryOptions({
    queryKey: ['statement', query],
    queryFn: () => getStatement(query),
    // Balances move with every game and transfer: opening the screen asks again.
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

export function useStatement(query: StatementQuery) {
  return useQuery(statementQuery(query));
}
