import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { UserFormModal } from './user-form-modal.tsx';
import { USER_FORMS } from './user-form-rules.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NO_AGENT_HINT = 'Without a super agent or agent, this user is managed by the admin directly.';

describe("The admin's Add New User form", () => {
  it('says what no parent means while none is chosen, and not once one is', async () => {
    // The parent picker's lists: one super agent.
    const superagent = { id: 5, username: 'sam', fullName: 'Sam Super', role: 'superagent' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const body = String(url).includes('/role/superagent') ? [superagent] : [];
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <UserFormModal rules={USER_FORMS['admin-user']} open user={null} onClose={vi.fn()} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const parent = await screen.findByLabelText('Parent (Optional)');
    expect(screen.getByText(NO_AGENT_HINT)).toBeTruthy();
    fireEvent.change(parent, { target: { value: '5' } });
    expect(screen.queryByText(NO_AGENT_HINT)).toBeNull();
  });
});
