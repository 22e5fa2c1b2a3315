import { AlertTriangle } from 'lucide-react';
import type { User } from '@lot/domain/schemas/users';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
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
  const toast = useToast();
  const remove = useDeleteUser();

  const confirm = async () => {
    if (!user) return null;
    try {
      const result = await remove.mutateAsync(user.id);
      toast.success(result.message);
      onClose();
      return null;
    } catch (error) {
      const message = errorMessage(error, fallback);
      toast.error(message);
      return message;
    }
  };

  return (
    <ConfirmDialog
      open={user !== null}
      title="Confirm Delete"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      onConfirm={confirm}
      onClose={onClose}
    >
      <div className="flex items-start gap-3">
        <span className="rounded-full bg-rose-50 p-2 text-rose-600">
          <AlertTriangle className="h-5 w-5" aria-hidden="true" />
        </span>
        <p className="pt-1 text-sm text-slate-700">Are you sure you want to delete {user?.fullName}?</p>
      </div>
    </ConfirmDialog>
  );
}
