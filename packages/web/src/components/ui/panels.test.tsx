import { cleanup, render, screen, within } from '@testing-library/react';
import { Wallet } from 'lucide-react';
import { afterEach, describe, expect, it } from 'vitest';
import { queryStat, StatGrid } from './panels.tsx';

afterEach(cleanup);

describe('StatGrid', () => {
  it("shows a failed figure as a compact 'Couldn't load' without its hint, the same height as the others", () => {
    const failed = { data: undefined, isError: true };
    const loaded = { data: 7, isError: false };
    render(
      <StatGrid
        stats={[
          {
            testId: 'stat-a',
            label: 'Loaded',
            hint: '+8% from last month',
            icon: Wallet,
            ...queryStat(loaded, 'Failed to fetch users', String),
          },
          {
            testId: 'stat-b',
            label: 'Failed',
            hint: '+12% from last month',
            icon: Wallet,
            ...queryStat(failed, 'Failed to fetch balance', String),
          },
        ]}
      />,
    );
    const ok = screen.getByTestId('stat-a');
    expect(ok.textContent).toContain('7');
    expect(ok.textContent).toContain('+8% from last month');
    const bad = screen.getByTestId('stat-b');
    expect(within(bad).getByText("Couldn't load")).toBeTruthy();
    expect(bad.textContent).not.toContain('+12% from last month');
    // Both cards fill their grid cell, so a row's cards line up whatever each one shows.
    for (const cell of [ok, bad]) expect((cell.firstElementChild as HTMLElement).className).toContain('h-full');
  });
});
