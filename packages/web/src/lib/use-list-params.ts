import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDebouncedValue } from './use-debounced-value.ts';

export type ListParams<Key extends string> = {
  /** Each filter as the address holds it ('' when it is not there). */
  filters: Record<Key, string>;
  /** From 1; `?page=` when it is 2 or more. */
  page: number;
  /** Changes filters: the list changed, so it goes back to page 1. */
  setFilters: (change: Partial<Record<Key, string>>) => void;
  setPage: (page: number) => void;
};

/**
 * A list's filters and page kept in the address (`?search=ann&status=inactive&page=3`,
 * docs/product/screens.md#pagination), so a reload, a shared link or Back from a row's screen shows
 * the same page. A changed filter drops the page (back to page 1). The address is replaced, not
 * pushed: paging and filtering add no history entries, and Back leaves the list.
 */
export function useListParams<Key extends string>(keys: readonly Key[]): ListParams<Key> {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(keys.map((key) => [key, params.get(key) ?? ''])) as Record<Key, string>;
  const asked = Number(params.get('page'));
  const page = Number.isSafeInteger(asked) && asked > 1 ? asked : 1;
  // React Router hands `current` as the address was last rendered, so a second change made before
  // the re-render (a search that settles as a tab is clicked) would undo the first: it builds on
  // the first instead, unless the address has moved on since.
  const pending = useRef<{ from: string; to: URLSearchParams } | null>(null);
  const update = (change: Partial<Record<Key, string>>, nextPage: number) =>
    setParams(
      (current) => {
        const from = current.toString();
        const next = new URLSearchParams(pending.current?.from === from ? pending.current.to : current);
        for (const [key, value] of Object.entries(change) as [Key, string | undefined][]) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (nextPage > 1) next.set('page', String(nextPage));
        else next.delete('page');
        pending.current = { from, to: next };
        return next;
      },
      { replace: true },
    );
  return { filters, page, setFilters: (change) => update(change, 1), setPage: (next) => update({}, next) };
}

/**
 * A search box over an address filter: what is typed shows at once and reaches the address (and
 * the list) after a pause; `reset` empties both (a Reset button).
 */
export function useSearchBox(
  saved: string,
  save: (value: string) => void,
): { typed: string; setTyped: (value: string) => void; reset: () => void } {
  const [typed, setTyped] = useState(saved);
  const settled = useDebouncedValue(typed.trim(), 300);
  // Only a pause in typing writes the address: the address changing (a reset) does not write it back.
  const written = useRef(settled);
  useEffect(() => {
    if (written.current === settled) return;
    written.current = settled;
    if (settled !== saved) save(settled);
  }, [settled, saved, save]);
  return {
    typed,
    setTyped,
    reset: () => {
      setTyped('');
      save('');
    },
  };
}
