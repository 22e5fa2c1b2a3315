import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { positionTaken } from '@lot/domain/server-messages';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { WinnerFormModal } from './winner-form-modal.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('WinnerFormModal', () => {
  it('refuses an empty Position with its message instead of saving position 1', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <WinnerFormModal open onClose={vi.fn()} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'First Prize' } });
    fireEvent.change(screen.getByLabelText('Percentage'), { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('Position'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: /Save|Add|Create/ }));
    await waitFor(() => expect(screen.getByText('Position must be a positive number')).toBeTruthy());
    expect(fetch).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of a taken position under Position, not in the banner", async () => {
    const refusal = { message: positionTaken(2), code: 'CONFLICT', fieldErrors: { position: positionTaken(2) } };
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify(refusal), { status: 409, headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <WinnerFormModal open onClose={onClose} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Second Prize' } });
    fireEvent.change(screen.getByLabelText('Percentage'), { target: { value: '30' } });
    fireEvent.change(screen.getByLabelText('Position'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: /Save|Add|Create/ }));
    const message = await screen.findByText('Position 2 already has a prize');
    expect(fetch).toHaveBeenCalledOnce();
    // On the field (described by it), the form still open for another position.
    const position = screen.getByLabelText('Position');
    expect(position.getAttribute('aria-invalid')).toBe('true');
    expect(position.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(screen.getAllByText('Position 2 already has a prize')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });
});
