import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageItems, Pagination } from './pagination.tsx';

afterEach(cleanup);

describe('pageItems', () => {
  it('shows the first, the last and the neighbours of the current page, with gaps between', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(1, 3)).toEqual([1, 2, 3]);
    expect(pageItems(5, 10)).toEqual([1, 'gap', 4, 5, 6, 'gap', 10]);
    expect(pageItems(10, 10)).toEqual([1, 'gap', 9, 10]);
    expect(pageItems(3, 10)).toEqual([1, 2, 3, 4, 'gap', 10]);
  });
});

describe('Pagination', () => {
  it('says which entries are shown and moves a page at a time', () => {
    const onPage = vi.fn();
    render(<Pagination page={2} pageSize={10} total={25} onPage={onPage} />);
    expect(screen.getByText('Showing 11 to 20 of 25 entries')).toBeTruthy();
    expect(screen.getByRole('button', { name: '2' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(onPage.mock.calls).toEqual([[3], [1], [3]]);
  });

  it('cannot go before the first page or past the last, and an empty list shows 0 to 0', () => {
    render(<Pagination page={1} pageSize={10} total={0} onPage={vi.fn()} />);
    expect(screen.getByText('Showing 0 to 0 of 0 entries')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
  });
});
