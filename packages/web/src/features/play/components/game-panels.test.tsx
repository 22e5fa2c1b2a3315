import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Participant } from '@lot/domain/game';
import { GAME_THEMES } from '../../../lib/game/game-theme.ts';
import { SelectedNumbersPanel } from './game-panels.tsx';
import type { NamesView } from '../../../components/game/names-privacy.tsx';
import { PoolWarning } from './pool-warning.tsx';

afterEach(cleanup);

const theme = GAME_THEMES.blue;
const entries: Participant[] = [
  { number: 7, name: 'Ana Lopez', phoneNumber: '555-0101' },
  { number: 3, name: 'Bo', phoneNumber: '+1 555 0199' },
];

/** The panel as the play screen holds it: masked until Show names is pressed, for this visit only. */
function Selected() {
  const [reveal, setReveal] = useState(false);
  const names: NamesView = { reveal, setReveal };
  return <SelectedNumbersPanel selected={entries} theme={theme} names={names} />;
}

const shown = () => screen.getAllByTestId('selected-row').map((row) => row.textContent);

describe('Selected Numbers on the play screen', () => {
  it('shows names and phones masked as the public pages do until the operator presses Show names, and masks them again', () => {
    render(<Selected />);
    const toggle = screen.getByRole('button', { name: 'Show names' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(shown()).toEqual(['3B*******0199', '7A*** L*******0101']);
    expect(screen.queryByText('Ana Lopez')).toBeNull();

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(shown()).toEqual(['3Bo+1 555 0199', '7Ana Lopez555-0101']);

    fireEvent.click(toggle);
    expect(shown()).toEqual(['3B*******0199', '7A*** L*******0101']);
  });
});

describe('the pool over the balance', () => {
  it('is said with both amounts while the pool is more than the balance, and not at or under it', () => {
    const { rerender } = render(<PoolWarning poolCents={6000} balanceCents={5000} />);
    expect(screen.getByRole('alert').textContent).toBe(
      'The pool of $60.00 is more than your balance of $50.00: the draw will be refused. Take no more bets until the balance is topped up.',
    );
    rerender(<PoolWarning poolCents={5000} balanceCents={5000} />);
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<PoolWarning poolCents={6000} balanceCents={null} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
