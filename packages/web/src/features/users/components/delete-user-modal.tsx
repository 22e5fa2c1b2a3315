import { useState } from 'react';
import { AlertTriangle } from 'lucide-react';
import type { User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDeleteUser } from '../api/delete-user.ts';

/**
 * 'Are you sure you want to delete {name}?' (docs/product/roles-and-scope.md#delete). A refusal (a
 * balance left, people still under them) is announced, and stays in the dialog so it can be read.
 */
export function DeleteUserModal({
  user,
  fallback,
  onClose,
}: {
  user: User | null;
  /** 'Failed to delete user' / 'Failed to delete super agent' / 'Failed to delete agent'. */
  fallback: string;
  onClose: () => void;
}) {
  return (
    <Modal open={user !== null} title="Confirm Delete" size="sm" onClose={onClose}>
      {user && <DeleteConfirm key={user.id} user={user} fallback={fallback} onClose={onClose} />}
    </Modal>
  );
}

function DeleteConfirm({ user, fallback, onClose }: { user: User; fallback: string; onClose: () => void }) {
  const toast = useToast();
  const remove = useDeleteUser();
  const [failure, setFailure] = useState<string | null>(null);

  const confirm = async () => {
    setFailure(null);
    try {
      const result = await remove.mutateAsync(user.id);
      toast.success(result.message);
      onClose();
    } catch (error) {
      const message = errorMessage(error, fallback);
      setFailure(message);
      toast.error(message);
    }
  };

  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3">
        <span className="rounded-full bg-rose-50 p-2 text-rose-600">
          <AlertTriangle className="h-5 w-5" aria-hidden="true" />
        </span>
        <p className="pt-1 text-sm text-slate-700">Are you sure you want to delete {user.fullName}?</p>
      </div>
      <FormError message={failure} />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </div>
  );
}
