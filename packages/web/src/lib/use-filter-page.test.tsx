import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFilterPage } from './use-filter-page.ts';

afterEach(cleanup);

describe('useFilterPage', () => {
  it('starts at page 1 and keeps the page chosen under the same filter', () => {
    const view = renderHook(({ filter }) => useFilterPage(filter), { initialProps: { filter: 'all' } });
    expect(view.result.current[0]).toBe(1);
    act(() => view.result.current[1](3));
    expect(view.result.current[0]).toBe(3);
    view.rerender({ filter: 'all' });
    expect(view.result.current[0]).toBe(3);
  });

  it('goes back to page 1 when the filter changes, and stays there when the earlier filter comes back', () => {
    const view = renderHook(({ filter }) => useFilterPage(filter), { initialProps: { filter: 'all' } });
    act(() => view.result.current[1](2));
    view.rerender({ filter: 'topup' });
    expect(view.result.current[0]).toBe(1);
    // The search typed and cleared, or the previous filter chosen again: the list changed twice, so page 1.
    view.rerender({ filter: 'all' });
    expect(view.result.current[0]).toBe(1);
  });
});
