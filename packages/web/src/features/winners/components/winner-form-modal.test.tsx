import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
});
