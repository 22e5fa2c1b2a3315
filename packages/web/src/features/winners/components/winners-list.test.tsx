import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Winner } from '@lot/domain/schemas/winners';
import { WinnersList } from './winners-list.tsx';

afterEach(cleanup);

const ann = { id: 7, fullName: 'Ann Shop', username: 'ann' };
function winner(id: number, name: string, position: number, more: Partial<Winner> = {}): Winner {
  return {
    id,
    userId: ann.id,
    name,
    percent: '25.00',
    position,
    description: null,
    isActive: true,
    createdAt: '2026-11-01T00:00:00.000Z',
    user: ann,
    ...more,
  };
}

describe('WinnersList', () => {
  it('warns on both active configurations of one owner that share a position, and on no other', () => {
    render(
      <WinnersList
        winners={[
          winner(1, 'First', 1),
          winner(2, 'Also first', 1),
          winner(3, 'Second', 2),
          // Inactive, or another owner's: no clash.
          winner(4, 'Old second', 2, { isActive: false }),
          winner(5, 'Global first', 1, { userId: null, user: null }),
        ]}
        onEdit={vi.fn()}
        onDelete={vi.fn()}
      />,
    );
    const warnings = screen.getAllByText('Another active configuration already uses position 1');
    expect(warnings).toHaveLength(2);
    const rows = screen.getAllByTestId('winner-row');
    const warned = rows.filter((row) => row.textContent?.includes('Another active configuration'));
    expect(warned.map((row) => row.textContent?.match(/^(First|Also first)/)?.[0])).toEqual(['First', 'Also first']);
  });
});
