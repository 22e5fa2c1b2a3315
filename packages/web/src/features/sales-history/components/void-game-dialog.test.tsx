import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GameSummary } from '@lot/domain/schemas/games';
import { AFTER_WINNER_LABEL, VoidGameDialog } from './void-game-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const game = (winnersAnnounced: number): GameSummary => ({
  id: 7,
  number: 3,
  code: 'abc123',
  status: 'drawing',
  openedAt: '2026-11-29T10:00:00.000Z',
  endedAt: null,
  startRange: 1,
  endRange: 20,
  betAmount: '10.00',
  pool: '40.00',
  entriesCount: 4,
  drawsCount: 1,
  winnersAnnounced,
  prizesAnnounced: winnersAnnounced > 0 ? '24.00' : '0.00',
  prizesCount: 2,
  protocol: 'LOT-DRAW-2',
  voidReason: null,
  voidedBy: null,
  user: { id: 2, username: 'ann', fullName: 'Ann Shop', parent: null },
});

/** The bodies the dialog sends; the first answer refuses with `refusal` when given. */
function stubVoid(refusal?: { message: string; code: string }) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: URL, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      const refuse = refusal && bodies.length === 1;
      return new Response(JSON.stringify(refuse ? refusal : { id: 7, status: 'voided' }), {
        status: refuse ? 422 : 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return bodies;
}

async function voidWith(reason: string) {
  fireEvent.change(screen.getByRole('textbox'), { target: { value: reason } });
  fireEvent.click(screen.getByRole('button', { name: 'Void Game' }));
}

describe('VoidGameDialog after a winner (decision 094)', () => {
  it('asks why it is voided after the winner, and says so to the server', async () => {
    const bodies = stubVoid();
    const onVoided = vi.fn();
    render(<VoidGameDialog game={game(1)} onClose={vi.fn()} onVoided={onVoided} />);
    expect(screen.getByLabelText(AFTER_WINNER_LABEL)).toBeTruthy();
    await voidWith('Wrong game on the display');
    await waitFor(() => expect(onVoided).toHaveBeenCalled());
    expect(bodies).toEqual([{ reason: 'Wrong game on the display', afterWinner: true }]);
  });

  it('learns of a winner its list had not shown from the refusal, and asks then', async () => {
    const refusal = { message: 'A draw of this game already named a winner', code: 'WINNER_ANNOUNCED' };
    const bodies = stubVoid(refusal);
    const onVoided = vi.fn();
    render(<VoidGameDialog game={game(0)} onClose={vi.fn()} onVoided={onVoided} />);
    expect(screen.getByLabelText('Reason')).toBeTruthy();
    await voidWith('Power cut');
    await waitFor(() => expect(screen.getByText(/already named a winner/)).toBeTruthy());
    expect(screen.getByLabelText(AFTER_WINNER_LABEL)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Void Game' }));
    await waitFor(() => expect(onVoided).toHaveBeenCalled());
    expect(bodies).toEqual([{ reason: 'Power cut' }, { reason: 'Power cut', afterWinner: true }]);
  });
});
