import { useState } from 'react';
import type { Winner } from '@lot/domain/schemas/winners';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDeleteWinner } from '../api/delete-winner.ts';

/** docs/product/validation-and-errors.md: a delete asks 'Are you sure you want to delete {name}?' first. */
export function DeleteWinnerDialog({ winner, onClose }: { winner: Winner | null; onClose: () => void }) {
  const toast = useToast();
  const remove = useDeleteWinner();
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    setFailure(null);
    remove.reset();
    onClose();
  };

  const confirm = async () => {
    if (!winner) return;
    setFailure(null);
    try {
      await remove.mutateAsync(winner.id);
      toast.success(`${winner.name} deleted`);
      close();
    } catch (error) {
      const message = errorMessage(error, 'Failed to delete winner');
      setFailure(message);
      toast.error(message);
    }
  };

  return (
    <Modal open={winner !== null} title="Delete Winner Configuration" onClose={close} size="sm">
      <div className="space-y-4">
        <p className="text-sm text-slate-600">Are you sure you want to delete {winner?.name}?</p>
        <FormError message={failure} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void confirm()} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
