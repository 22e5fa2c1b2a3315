import { useState } from 'react';

/**
 * The page of a filtered, paged list (docs/product/screens.md#pagination): back to page 1 whenever the filtered list
 * changes. `filterKey` names the filter (type, search, dates...); when it changes, the remembered page is forgotten
 * during the same render, so neither a stale page is requested nor an earlier filter brings its old page back.
 */
export function useFilterPage(filterKey: string): [number, (page: number) => void] {
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  if (paging.filterKey !== filterKey) {
    // React's "adjust state while rendering": re-renders at once with page 1 under the new filter.
    setPaging({ filterKey, page: 1 });
    return [1, (next: number) => setPaging({ filterKey, page: next })];
  }
  return [paging.page, (next: number) => setPaging({ filterKey, page: next })];
}
