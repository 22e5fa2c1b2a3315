import { useState } from 'react';

/**
 * docs/product/screens.md: a changed filter starts again at page 1. The page belongs to the filter it was
 * chosen under, so a new filter reads page 1 without an extra render or a request for a stale page.
 */
export function useFilterPage(filterKey: string): [number, (page: number) => void] {
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  return [page, (next: number) => setPaging({ filterKey, page: next })];
}
