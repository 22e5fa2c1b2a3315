import { useState } from 'react';
import { Loader2 } from 'lucide-react';
import { VOID_REASON_REQUIRED } from '@lot/domain/schemas/games';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

/**
 * What Reset Game does depends on how far the game went: before the first draw nothing is held and
 * the game is simply discarded (or there is no game yet); after a draw the game is voided, which
 * returns the held pool and keeps the game on record for the people above the shop, so a reason is
 * required.
 */
export type ResetMode = 'setup' | 'before-draw' | 'after-draw';

export function ResetDialog({
  mode,
  pool,
  onConfirm,
  onClose,
}: {
  /** null: closed. */
  mode: ResetMode | null;
  /** The held pool, as shown (after a draw). */
  pool: string;
  /** Answers null when done, else the reason it failed. */
  onConfirm: (reason: string) => Promise<string | null>;
  onClose: () => void;
}) {
  return (
    <Modal open={mode !== null} title="Reset Game" size={mode === 'after-draw' ? 'md' : 'sm'} onClose={onClose}>
      {mode !== null && <ResetForm key={mode} mode={mode} pool={pool} onConfirm={onConfirm} onClose={onClose} />}
    </Modal>
  );
}

function ResetForm({
  mode,
  pool,
  onConfirm,
  onClose,
}: {
  mode: ResetMode;
  pool: string;
  onConfirm: (reason: string) => Promise<string | null>;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    if (pending) return;
    if (mode === 'after-draw' && reason.trim() === '') {
      setReasonError(VOID_REASON_REQUIRED);
      return;
    }
    setPending(true);
    setFailure(null);
    const error = await onConfirm(reason.trim());
    setPending(false);
    if (error) setFailure(error);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void confirm();
      }}
    >
      {mode === 'after-draw' ? (
        <div className="space-y-3 text-slate-700">
          <p>
            Winners have already been drawn. Resetting now <strong>voids this game</strong>: it is recorded as voided
            with your reason, visible to your agent and the admin, and the pool of <strong>{pool}</strong> held for it
            returns to your balance. No prizes are paid.
          </p>
          <div>
            <label htmlFor="void-reason" className="mb-1 block text-sm font-medium text-slate-700">
              Reason
            </label>
            <textarea
              id="void-reason"
              rows={3}
              maxLength={500}
              value={reason}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? 'void-reason-error' : undefined}
              onChange={(event) => {
                setReason(event.target.value);
                if (event.target.value.trim()) setReasonError(null);
              }}
              className="block w-full rounded-lg border-0 px-3 py-2 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600"
            />
            {reasonError && (
              <p id="void-reason-error" role="alert" className="mt-1 text-sm text-rose-600">
                {reasonError}
              </p>
            )}
          </div>
        </div>
      ) : (
        <p className="text-slate-700">
          Clear the selected numbers, the drawn winners and the counter, and start a new game?
          {mode === 'before-draw' && ' Nothing has been drawn, so nothing is charged.'}
        </p>
      )}
      {failure && (
        <p role="alert" className="mt-3 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800 ring-1 ring-rose-200">
          {failure}
        </p>
      )}
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={pending}>
          {pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
          {mode === 'after-draw' ? 'Void Game' : 'Reset Game'}
        </Button>
      </div>
    </form>
  );
}
