import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Statement } from '@lot/domain/schemas/reports';
import { api } from '../../../lib/api-client.ts';
import { SCREEN_FRESH_MS } from '../../../lib/query-client.ts';
import { browserTimeZone, periodFrom } from '../../../lib/periods.ts';

/** A statement asked for: whose, whole local days from–to in the zone, and which page of movements. */
export type StatementQuery = {
  userId: number;
  from: string;
  to: string;
  timeZone: string;
  limit: number;
  offset: number;
};

/** Movements shown a page at a time (docs/product/screens.md#statement). */
export const STATEMENT_PAGE_SIZE = 50;

/** The statement a screen at this address shows: ?from=&to= (this month by default) and ?page=. */
export function statementQueryAt(userId: number, params: URLSearchParams): StatementQuery {
  const { from, to } = periodFrom(params);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const offset = (page - 1) * STATEMENT_PAGE_SIZE;
  return { userId, from, to, timeZone: browserTimeZone(), limit: STATEMENT_PAGE_SIZE, offset };
}

/** GET /api/statements/{userId} (docs/product/money.md#statements). */
export function getStatement({ userId, from, to, timeZone, limit, offset }: StatementQuery): Promise<Statement> {
  return api<Statement>(`/api/statements/${userId}`, { query: { from, to, tz: timeZone, limit, offset } });
}

export const statementQuery = (query: StatementQuery) =>
  queryOptions({
    queryKey: ['statement', query],
    queryFn: () => getStatement(query),
    // Asked again whenever the screen opens (its route loader asks as it opens; the screen takes that answer).
    staleTime: SCREEN_FRESH_MS,
    placeholderData: keepPreviousData,
  });

export function useStatement(query: StatementQuery) {
  return useQuery(statementQuery(query));
}
