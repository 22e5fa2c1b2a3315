import type { Winner } from '@lot/domain/schemas/winners';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDeleteWinner } from '../api/delete-winner.ts';

/** docs/product/validation-and-errors.md: a delete asks 'Are you sure you want to delete {name}?' first. */
export function DeleteWinnerDialog({ winner, onClose }: { winner: Winner | null; onClose: () => void }) {
  const toast = useToast();
  const remove = useDeleteWinner();

  const confirm = async () => {
    if (!winner) return null;
    try {
      await remove.mutateAsync(winner.id);
      toast.success(`${winner.name} deleted`);
      onClose();
      return null;
    } catch (error) {
      const message = errorMessage(error, 'Failed to delete winner');
      toast.error(message);
      return message;
    }
  };

  return (
    <ConfirmDialog
      open={winner !== null}
      title="Delete Winner Configuration"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      onConfirm={confirm}
      onClose={onClose}
    >
      <p className="text-sm text-slate-600">Are you sure you want to delete {winner?.name}?</p>
    </ConfirmDialog>
  );
}
