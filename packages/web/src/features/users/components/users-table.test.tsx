import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@lot/domain/schemas/users';
import { UsersTable } from './users-table.tsx';

afterEach(cleanup);

function user(id: number, fullName: string, status: User['status']): User {
  return {
    id,
    username: fullName.toLowerCase().replace(' ', '_'),
    fullName,
    role: 'user',
    status,
    shopName: null,
    parentId: 1,
    hasLogo: false,
    createdAt: '2026-11-01T00:00:00.000Z',
    balance: { amount: '10.00' },
    parent: null,
  };
}

describe('UsersTable', () => {
  it("disables Transfer for an inactive user and says why; an active user's Transfer sends the row", () => {
    const onFunds = vi.fn();
    // Each row links to its statement: the table renders inside a router, as in the app.
    render(
      <MemoryRouter>
        <UsersTable
          users={[user(2, 'Ann Active', 'active'), user(3, 'Ian Inactive', 'inactive')]}
          showParent={false}
          onEdit={vi.fn()}
          onDelete={vi.fn()}
          fundsAction="transfer"
          onFunds={onFunds}
          onTakeBack={vi.fn()}
        />
      </MemoryRouter>,
    );
    const [active, inactive] = screen.getAllByTestId('user-row');
    const refused = within(inactive!).getByRole('button', { name: /Transfer/ }) as HTMLButtonElement;
    expect(refused.disabled).toBe(true);
    expect(refused.title).toBe('Ian Inactive is inactive: funds can only be sent to active users');
    fireEvent.click(refused);
    expect(onFunds).not.toHaveBeenCalled();

    const allowed = within(active!).getByRole('button', { name: /Transfer/ }) as HTMLButtonElement;
    expect(allowed.disabled).toBe(false);
    fireEvent.click(allowed);
    expect(onFunds).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));
  });
});
