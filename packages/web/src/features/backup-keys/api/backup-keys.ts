import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupKey, CreatedBackupKey, RevokedBackupKey } from '@lot/domain/schemas/backup';
import { api } from '../../../lib/api-client.ts';

/** Backup keys (decision 041): the admin's keys for `npm run backup` under cron. */
export const backupKeysKey = ['admin', 'backup-keys'] as const;

/** GET /api/admin/backup-keys: every key, the valid ones first; never a secret. */
export const getBackupKeys = () => api<BackupKey[]>('/api/admin/backup-keys');

export function useBackupKeys() {
  return useQuery({ queryKey: backupKeysKey, queryFn: getBackupKeys });
}

/** POST /api/admin/backup-keys: the answer holds the key's secret, this once (never cached). */
export const createBackupKey = (name: string) =>
  api<CreatedBackupKey>('/api/admin/backup-keys', { method: 'POST', body: { name } });

export function useCreateBackupKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBackupKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupKeysKey }),
  });
}

/** DELETE /api/admin/backup-keys/{id}: revoked, the key stays listed. */
export const revokeBackupKey = (id: number) =>
  api<RevokedBackupKey>(`/api/admin/backup-keys/${id}`, { method: 'DELETE' });

export function useRevokeBackupKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeBackupKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupKeysKey }),
  });
}
