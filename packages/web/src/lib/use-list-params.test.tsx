import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useListParams } from './use-list-params.ts';

afterEach(cleanup);

const inRouter = (address: string) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <MemoryRouter initialEntries={[address]}>{children}</MemoryRouter>;
  };

function useListAndAddress() {
  return {
    list: useListParams(['search', 'show', 'status'] as const),
    search: useLocation().search,
    navigate: useNavigate(),
  };
}

describe('useListParams', () => {
  it('keeps both of two changes made before the list renders again (a search settling as a tab is clicked)', () => {
    const view = renderHook(useListAndAddress, { wrapper: inRouter('/users?status=active&page=3') });
    act(() => {
      view.result.current.list.setFilters({ search: 'kiosk' });
      view.result.current.list.setFilters({ show: 'mine' });
    });
    expect(view.result.current.search).toBe('?status=active&search=kiosk&show=mine');
    expect(view.result.current.list.filters).toEqual({ search: 'kiosk', show: 'mine', status: 'active' });
    expect(view.result.current.list.page).toBe(1);
  });

  it('builds on the address as it is once it has moved on', () => {
    const view = renderHook(useListAndAddress, { wrapper: inRouter('/users') });
    act(() => view.result.current.list.setFilters({ search: 'ann' }));
    act(() => view.result.current.list.setPage(2));
    act(() => view.result.current.list.setFilters({ search: '' }));
    expect(view.result.current.search).toBe('');
    act(() => view.result.current.list.setFilters({ status: 'inactive' }));
    expect(view.result.current.search).toBe('?status=inactive');
    // Moved by something else (a link, Back): the next change starts from there, not from its own last.
    act(() => view.result.current.list.setFilters({ search: 'bo' }));
    act(() => void view.result.current.navigate('/users?show=agents'));
    act(() => view.result.current.list.setFilters({ status: 'active' }));
    expect(view.result.current.search).toBe('?show=agents&status=active');
  });
});
