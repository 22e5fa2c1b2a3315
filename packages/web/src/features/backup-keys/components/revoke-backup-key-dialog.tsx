import type { BackupKey } from '@lot/domain/schemas/backup';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useRevokeBackupKey } from '../api/backup-keys.ts';

/** The confirmation before a key is revoked: backups that use it stop at once. */
export function RevokeBackupKeyDialog({ backupKey, onClose }: { backupKey: BackupKey | null; onClose: () => void }) {
  const toast = useToast();
  const revoke = useRevokeBackupKey();

  const confirm = async () => {
    if (!backupKey) return null;
    try {
      const answer = await revoke.mutateAsync(backupKey.id);
      toast.success(answer.message);
      onClose();
      return null;
    } catch (error) {
      return errorMessage(error, 'Failed to revoke the backup key');
    }
  };

  return (
    <ConfirmDialog
      open={backupKey !== null}
      title="Revoke backup key"
      confirmLabel="Revoke key"
      pendingLabel="Revoking..."
      onConfirm={confirm}
      onClose={onClose}
    >
      <p className="text-sm text-slate-600">
        Are you sure you want to revoke the backup key “{backupKey?.name}”? Backups that use it stop working at once,
        and it cannot be turned back on.
      </p>
    </ConfirmDialog>
  );
}
