import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@lot/domain/schemas/users';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { TopupModal } from './topup-modal.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ann: User = {
  id: 2,
  username: 'ann',
  fullName: 'Ann Shop',
  role: 'user',
  status: 'active',
  shopName: null,
  parentId: null,
  hasLogo: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  balance: { amount: '10.00' },
  parent: null,
};

describe('TopupModal', () => {
  it("clears the server's banner when a later submit fails the form's own check", async () => {
    // The network stands in for a server refusal that is not about the amount field.
    const refusal = { message: 'Ann Shop is inactive', code: 'CONFLICT' };
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify(refusal), { status: 409, headers: { 'content-type': 'application/json' } }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <TopupModal user={ann} onClose={vi.fn()} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const amount = screen.getByLabelText('Amount');
    const submit = screen.getByRole('button', { name: 'Top Up' });
    fireEvent.change(amount, { target: { value: '5' } });
    fireEvent.click(submit);
    const form = submit.closest('form')!;
    await waitFor(() => expect(form.textContent).toContain('Error: Ann Shop is inactive'));

    fireEvent.change(amount, { target: { value: '' } });
    fireEvent.click(submit);
    await waitFor(() => expect(form.querySelector('[aria-invalid="true"]')).not.toBeNull());
    expect(form.textContent).not.toContain('Ann Shop is inactive');
  });

  it('says it is trying again while the server does not answer, sends the same key, and re-clicks keep it', async () => {
    // No answer twice, then (a person's re-click) the answer; decision 056.
    const keys: string[] = [];
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: URL, init: RequestInit) => {
        keys.push((init.headers as Record<string, string>)['idempotency-key'] ?? '');
        calls += 1;
        if (calls <= 4) return new Response('', { status: 503 });
        const done = { message: 'Funds successfully topped up to Ann Shop' };
        return new Response(JSON.stringify(done), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <TopupModal user={ann} onClose={vi.fn()} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '5' } });
    const submit = screen.getByRole('button', { name: 'Top Up' });
    const form = submit.closest('form')!;
    fireEvent.click(submit);
    await waitFor(() => expect(form.textContent).toContain('Cannot reach the server. Trying again…'));
    await waitFor(() => expect(form.textContent).toContain('Error: Top up failed'), { timeout: 6_000 });
    expect(keys).toHaveLength(4);
    fireEvent.click(screen.getByRole('button', { name: 'Top Up' }));
    await waitFor(() => expect(screen.getByText('Funds successfully topped up to Ann Shop')).toBeTruthy());
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(1);
  }, 10_000);
});
