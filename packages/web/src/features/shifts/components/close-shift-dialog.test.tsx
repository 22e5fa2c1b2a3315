import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Shift, ShiftReport } from '@lot/domain/schemas/shifts';
import { CloseShiftDialog } from './close-shift-dialog.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const shift: Shift = {
  id: 7,
  userId: 3,
  shopName: 'Corner Shop',
  parentName: null,
  openedAt: '2026-11-26T08:00:00.000Z',
  openedBy: 'Corner Owner',
  openingFloat: '100.00',
  closedAt: null,
  closedBy: null,
  expectedCash: '130.00',
  countedCash: null,
  variance: null,
  varianceReason: null,
  zNumber: null,
  overMidnight: false,
};

/** The addresses called, in order (the last `serve`'s). */
let called: string[] = [];

/** The network answers each call with the next of `answers` (a promise: when it settles); the bodies sent are kept. */
function serve(...answers: ({ status: number; body: unknown } | Promise<{ status: number; body: unknown }>)[]) {
  const sent: unknown[] = [];
  called = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: URL, init: RequestInit) => {
      called.push(String(url));
      sent.push(init.body ? JSON.parse(String(init.body)) : null);
      const answer = (await answers.shift()) ?? { status: 200, body: {} };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return sent;
}

function open(onClosed = vi.fn(), onClose = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <CloseShiftDialog open shift={shift} expectedCash="130.00" onClose={onClose} onClosed={onClosed} />
    </QueryClientProvider>,
  );
  return {
    onClosed,
    onClose,
    counted: screen.getByLabelText('Counted cash'),
    submit: screen.getByRole('button', { name: 'Close shift' }),
  };
}

describe('CloseShiftDialog', () => {
  it('shows the difference as it is typed and asks for a reason before sending a close that differs', async () => {
    const sent = serve();
    const { counted, submit } = open();
    expect(screen.getByTestId('close-difference').textContent).toBe('—');
    fireEvent.change(counted, { target: { value: '125' } });
    expect(screen.getByTestId('close-difference').textContent).toBe('Short $5.00');
    fireEvent.change(counted, { target: { value: '132.5' } });
    expect(screen.getByTestId('close-difference').textContent).toBe('Over $2.50');
    fireEvent.click(submit);
    await waitFor(() => expect(screen.getByText('Give a reason for the difference')).toBeTruthy());
    expect(sent).toEqual([]);

    // With a reason, the close goes out with the count and the reason, trimmed.
    fireEvent.change(screen.getByLabelText('Reason for the difference'), {
      target: { value: '  Change given twice ' },
    });
    fireEvent.click(submit);
    await waitFor(() => expect(sent).toEqual([{ countedCash: '132.50', varianceReason: 'Change given twice' }]));
    expect(called[0]).toMatch(/\/api\/shifts\/7\/close$/);
  });

  it('sends an exact count without a reason and hands over the Z report', async () => {
    const z = { kind: 'Z', shift: { ...shift, zNumber: 1 } } as ShiftReport;
    const sent = serve({ status: 200, body: z });
    const { counted, submit, onClosed } = open();
    fireEvent.change(counted, { target: { value: '130' } });
    expect(screen.getByTestId('close-difference').textContent).toBe('Exact');
    expect(screen.queryByLabelText('Reason for the difference')).toBeNull();
    fireEvent.click(submit);
    await waitFor(() => expect(onClosed).toHaveBeenCalledWith(z));
    expect(sent).toEqual([{ countedCash: '130.00' }]);
    expect(called).toHaveLength(1);
    expect(called[0]).toMatch(/\/api\/shifts\/7\/close$/);
  });

  it('cannot be dismissed while the close is being sent', async () => {
    let answer!: (value: { status: number; body: unknown }) => void;
    serve(new Promise((resolve) => (answer = resolve)));
    const { counted, submit, onClose, onClosed } = open();
    fireEvent.change(counted, { target: { value: '130' } });
    fireEvent.click(submit);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Closing...' })).toBeTruthy());
    const dialog = screen.getByRole('dialog');
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    fireEvent.click(dialog);
    expect(onClose).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);

    answer({ status: 200, body: { kind: 'Z', shift: { ...shift, zNumber: 1 } } });
    await waitFor(() => expect(onClosed).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Closing...' })).toBeNull());
    // Sent, Escape closes it again.
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says why when the server wants a reason for a count that matched the report on screen', async () => {
    serve({
      status: 400,
      body: {
        message: 'Validation failed',
        code: 'VALIDATION',
        fieldErrors: { varianceReason: 'Give a reason for the difference' },
      },
    });
    const { counted, submit, onClosed } = open();
    fireEvent.change(counted, { target: { value: '130' } });
    fireEvent.click(submit);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Give a reason for the difference: the expected cash has changed since this report was read.',
      ),
    );
    expect(onClosed).not.toHaveBeenCalled();
  });
});
