import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GameSummary } from '@lot/domain/schemas/games';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { HistoryCard } from './history-card.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const voided: GameSummary = {
  id: 9,
  number: 4,
  code: 'AAAAAAAAAAAAAAAAAAAAAA',
  status: 'voided',
  openedAt: '2026-11-20T10:00:00.000Z',
  endedAt: '2026-11-20T10:05:00.000Z',
  startRange: 1,
  endRange: 20,
  betAmount: '10.00',
  pool: '30.00',
  entriesCount: 3,
  drawsCount: 1,
  winnersAnnounced: 1,
  prizesAnnounced: '15.00',
  prizesCount: 2,
  protocol: 'LOT-DRAW-2',
  voidReason: 'Customer dispute',
  voidedBy: { id: 3, username: 'agent1', fullName: 'Agent One' },
  user: { id: 5, username: 'user1', fullName: 'Shop One', parent: { id: 3, fullName: 'Agent One' } },
};

describe('HistoryCard, the Voided games tab (docs/product/screens.md#voided-games)', () => {
  it('shows the voided games’ totals and exports them, not the played games’', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = String(input instanceof Request ? input.url : input);
        urls.push(url);
        if (url.includes('/api/games/export'))
          return new Response('Date\r\n', {
            headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="games-voided.csv"' },
          });
        return new Response(JSON.stringify([voided]), {
          headers: { 'content-type': 'application/json', 'x-total-count': '12', 'x-total-pool': '345.00' },
        });
      }),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <MemoryRouter initialEntries={['/admin/sales-history?view=voided']}>
            <HistoryCard title="Game History" totals={<p>Played totals</p>} exportButtons={<p>Played exports</p>}>
              <p>Played games</p>
            </HistoryCard>
          </MemoryRouter>
        </ToastProvider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('voided-total-games').textContent).toBe('12'));
    expect(screen.getByTestId('voided-total-pool').textContent).toBe('$345.00');
    expect(screen.getByTestId('voided-reason').textContent).toBe('Customer dispute');
    expect(screen.queryByText('Played totals')).toBeNull();
    expect(screen.queryByText('Played exports')).toBeNull();
    expect(screen.queryByText('Played games')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'CSV' }));
    await waitFor(() => expect(urls.some((url) => url.includes('/api/games/export?'))).toBe(true));
    const exported = new URL(urls.find((url) => url.includes('/api/games/export?')) ?? '', 'http://x');
    expect(exported.searchParams.get('status')).toBe('voided');
    expect(exported.searchParams.get('format')).toBe('csv');

    // Back on Played: the screen's own totals, exports and table.
    fireEvent.click(screen.getByRole('tab', { name: 'Played' }));
    expect(screen.getByText('Played totals')).toBeTruthy();
    expect(screen.getByText('Played exports')).toBeTruthy();
    expect(screen.queryByTestId('voided-total-games')).toBeNull();
  });
});
