import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

/** Reset Game asks first: it clears the selection, the drawn winners and the counter. */
export function ResetDialog({
  open,
  unsaved,
  onConfirm,
  onClose,
}: {
  open: boolean;
  /** A finished game the server has not recorded: resetting discards it. */
  unsaved: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal open={open} title="Reset Game" size="sm" onClose={onClose}>
      <p className="text-slate-700">
        Clear the selected numbers, the drawn winners and the counter, and start a new game?
      </p>
      {unsaved && (
        <p role="alert" className="mt-3 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800 ring-1 ring-rose-200">
          This game has not been saved to Game History. Resetting discards it.
        </p>
      )}
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm}>
          Reset Game
        </Button>
      </div>
    </Modal>
  );
}
