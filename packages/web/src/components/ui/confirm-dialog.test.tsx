import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';

afterEach(cleanup);

function setup(props: Partial<Parameters<typeof ConfirmDialog>[0]> = {}) {
  const onClose = vi.fn();
  const onConfirm = vi.fn(async () => null as string | null);
  render(
    <ConfirmDialog
      open
      title="Confirm Delete"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      onConfirm={onConfirm}
      onClose={onClose}
      {...props}
    >
      <p>Are you sure you want to delete Ann?</p>
    </ConfirmDialog>,
  );
  return { onClose, onConfirm };
}

describe('ConfirmDialog', () => {
  it('asks, then runs the action once; while it runs both buttons wait and Cancel does nothing', async () => {
    let finish: (failure: string | null) => void = () => undefined;
    const onConfirm = vi.fn(() => new Promise<string | null>((resolve) => (finish = resolve)));
    const { onClose } = setup({ onConfirm });
    expect(screen.getByText('Are you sure you want to delete Ann?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const pending = await screen.findByRole('button', { name: 'Deleting...' });
    expect(pending.hasAttribute('disabled')).toBe(true);
    fireEvent.click(pending);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => finish(null));
    expect(screen.getByRole('button', { name: 'Delete' }).hasAttribute('disabled')).toBe(false);
  });

  it('keeps a refusal in the dialog, and Cancel then closes it', async () => {
    const { onClose } = setup({ onConfirm: async () => 'Cannot delete a user who still has a balance' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Cannot delete a user who still has a balance');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('does not run the action while validate refuses', () => {
    const { onConfirm } = setup({ validate: () => false });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
