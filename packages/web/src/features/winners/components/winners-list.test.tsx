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
  it('lists the global ones first, then each owner by position, each with its position (one prize per position: decision 035)', () => {
    render(
      <WinnersList
        winners={[
          winner(3, 'Second', 2),
          winner(1, 'First', 1),
          winner(4, 'Old second', 2, { isActive: false }),
          winner(5, 'Global first', 1, { userId: null, user: null }),
        ]}
        onEdit={vi.fn()}
        onDelete={vi.fn()}
      />,
    );
    const rows = screen.getAllByTestId('winner-row');
    expect(rows.map((row) => row.textContent?.match(/^(Global first|First|Second|Old second)/)?.[0])).toEqual([
      'Global first',
      'First',
      'Second',
      'Old second',
    ]);
    expect(screen.getAllByTestId('winner-position').map((cell) => cell.textContent)).toEqual(['#1', '#1', '#2', '#2']);
    expect(rows.map((row) => row.getAttribute('data-active'))).toEqual(['true', 'true', 'true', 'false']);
  });
});
