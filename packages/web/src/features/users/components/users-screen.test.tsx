import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@lot/domain/schemas/users';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { UsersScreen } from './users-screen.tsx';
import { filterScopedUsers } from './scoped-users-filter.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function user(id: number, fullName: string, fields: Partial<User> = {}): User {
  return {
    id,
    username: fullName.toLowerCase().replace(' ', '_'),
    fullName,
    role: 'user',
    status: 'active',
    shopName: null,
    parentId: 1,
    hasLogo: false,
    createdAt: '2026-11-01T00:00:00.000Z',
    balance: { amount: '10.00' },
    parent: null,
    ...fields,
  };
}

function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.pathname + location.search}</output>;
}

describe('UsersScreen', () => {
  it('reads its page, search and filters from the address and keeps the page it moves to there', async () => {
    const asked: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: URL) => {
        asked.push(new URL(url));
        const body = url.pathname.endsWith('/role/user')
          ? [user(9, 'Inez Corner', { status: 'inactive', shopName: 'Corner Lotto' })]
          : [];
        return new Response(JSON.stringify(body), { headers: { 'x-total-count': '45' } });
      }),
    );
    const router = createMemoryRouter(
      [
        {
          path: '/admin/users',
          element: (
            <>
              <UsersScreen role="user" />
              <Address />
            </>
          ),
        },
      ],
      { initialEntries: ['/admin/users?search=corner&status=inactive&page=2'] },
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    await screen.findByText('Inez Corner');
    const list = asked.find((url) => url.pathname === '/api/users/role/user');
    expect(Object.fromEntries(list!.searchParams)).toEqual({
      limit: '10',
      offset: '10',
      search: 'corner',
      status: 'inactive',
    });
    expect((screen.getByLabelText('Search users') as HTMLInputElement).value).toBe('corner');
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('inactive');

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(screen.getByTestId('address').textContent).toBe('/admin/users?search=corner&status=inactive&page=3'),
    );
    // A changed filter goes back to page 1, and the address says so.
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'active' } });
    await waitFor(() =>
      expect(screen.getByTestId('address').textContent).toBe('/admin/users?search=corner&status=active'),
    );
  });
});

describe('filterScopedUsers (the super agent’s and the agent’s lists)', () => {
  const people = [
    user(2, 'Ann Direct', { parentId: 1, shopName: 'Corner Lotto' }),
    user(3, 'Ben Below', { parentId: 7, status: 'inactive' }),
    user(4, 'Cy Below', { parentId: 7, shopName: 'Lucky Corner' }),
  ];
  const ids = (found: User[]) => found.map((u) => u.id);

  it('searches shop names as well as usernames and full names, and narrows by status and parent', () => {
    const all = { kind: 'superagent-user', show: 'all', status: '', search: '' } as const;
    expect(ids(filterScopedUsers(people, 1, { ...all, search: 'CORNER' }))).toEqual([2, 4]);
    expect(ids(filterScopedUsers(people, 1, { ...all, search: 'ben_b' }))).toEqual([3]);
    expect(ids(filterScopedUsers(people, 1, { ...all, status: 'inactive' }))).toEqual([3]);
    expect(ids(filterScopedUsers(people, 1, { ...all, show: 'agents', search: 'corner' }))).toEqual([4]);
    expect(ids(filterScopedUsers(people, 1, { ...all, show: 'mine' }))).toEqual([2]);
    expect(ids(filterScopedUsers(people, 1, { ...all, kind: 'agent-user' }))).toEqual([2]);
  });
});
