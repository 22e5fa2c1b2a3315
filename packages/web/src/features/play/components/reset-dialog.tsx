import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';

/**
 * Reset Game before the draw starts: with no game yet it only clears the board; an open game
 * (nothing held) is discarded. From the first Check Winner on the game is frozen and its outcome
 * fixed, so the shop cannot reset it at all: the play screen says who can finish or void it.
 */
export type ResetMode = 'setup' | 'before-draw';

export function ResetDialog({
  mode,
  onConfirm,
  onClose,
}: {
  /** null: closed. */
  mode: ResetMode | null;
  /** Answers null when done, else the reason it failed. */
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={mode !== null}
      title="Reset Game"
      size="sm"
      confirmLabel="Reset Game"
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p className="text-slate-700">
        Clear the selected numbers, the drawn winners and the counter, and start a new game?
        {mode === 'before-draw' && ' Nothing has been drawn, so nothing is charged.'}
      </p>
    </ConfirmDialog>
  );
}
