import { useState } from 'react';
import { VOID_REASON_REQUIRED } from '@lot/domain/schemas/games';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';

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
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const afterDraw = mode === 'after-draw';

  const forget = () => {
    setReason('');
    setReasonError(null);
  };

  return (
    <ConfirmDialog
      open={mode !== null}
      title="Reset Game"
      size={afterDraw ? 'md' : 'sm'}
      confirmLabel={afterDraw ? 'Void Game' : 'Reset Game'}
      validate={() => {
        if (afterDraw && reason.trim() === '') setReasonError(VOID_REASON_REQUIRED);
        return !afterDraw || reason.trim() !== '';
      }}
      onConfirm={async () => {
        const failure = await onConfirm(reason.trim());
        if (!failure) forget();
        return failure;
      }}
      onClose={() => {
        forget();
        onClose();
      }}
    >
      {afterDraw ? (
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
    </ConfirmDialog>
  );
}
