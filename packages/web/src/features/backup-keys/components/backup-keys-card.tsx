import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { MESSAGES } from '@lot/domain/messages';
import { createBackupKeySchema, type BackupKey, type CreatedBackupKey } from '@lot/domain/schemas/backup';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { Card, Spinner } from '../../../components/ui/panels.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { dateTime } from '../../../lib/format.ts';
import { useBackupKeys, useCreateBackupKey } from '../api/backup-keys.ts';
import { NewBackupKey } from './new-backup-key.tsx';
import { RevokeBackupKeyDialog } from './revoke-backup-key-dialog.tsx';

/**
 * The admin's backup keys (decision 041, docs/product/screens.md#profile): a key lets
 * `npm run backup` take the copy under cron, also while two-factor sign-in is required; made here,
 * its secret shown once, listed with its last use, revoked after a confirmation.
 */
export function BackupKeysCard() {
  const keys = useBackupKeys();
  const [created, setCreated] = useState<CreatedBackupKey | null>(null);
  const [revoking, setRevoking] = useState<BackupKey | null>(null);

  return (
    <Card title="Backup keys">
      <div className="space-y-5">
        <p className="text-sm text-slate-600">
          A backup key lets <code className="font-mono text-slate-800">npm run backup</code> take a copy of the database
          on a schedule, also when admins must sign in with two-factor. It is good for the backup only.
        </p>
        {created ? (
          <NewBackupKey created={created} onDone={() => setCreated(null)} />
        ) : (
          <CreateKeyForm onCreated={setCreated} />
        )}
        {keys.isPending ? (
          <Spinner />
        ) : keys.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            {errorMessage(keys.error, 'Failed to load the backup keys')}
          </p>
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-slate-500">No backup keys yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 border-t border-slate-100" data-testid="backup-keys">
            {keys.data.map((key) => (
              <KeyRow key={key.id} backupKey={key} onRevoke={() => setRevoking(key)} />
            ))}
          </ul>
        )}
      </div>
      <RevokeBackupKeyDialog backupKey={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedBackupKey) => void }) {
  const create = useCreateBackupKey();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  return (
    <form
      noValidate
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        setFailure(null);
        const parsed = createBackupKeySchema.safeParse({ name });
        if (!parsed.success) {
          setNameError(parsed.error.issues[0]?.message ?? MESSAGES.backupKeyNameRequired);
          return;
        }
        setNameError(null);
        create.mutate(parsed.data.name, {
          onSuccess: (answer) => {
            setName('');
            onCreated(answer);
          },
          onError: (error) => {
            const named = error instanceof ApiError ? error.fieldErrors?.name : undefined;
            if (named) setNameError(named);
            else setFailure(errorMessage(error, 'Failed to create the backup key'));
          },
        });
      }}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <TextField
            label="Key name"
            name="name"
            autoComplete="off"
            placeholder="e.g. nightly cron on backup-host"
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={nameError ?? undefined}
          />
        </div>
        <Button type="submit" className="sm:mt-6" disabled={create.isPending}>
          <KeyRound className="h-4 w-4" aria-hidden="true" />
          {create.isPending ? 'Creating...' : 'Create key'}
        </Button>
      </div>
      <FormError message={failure} />
    </form>
  );
}

function KeyRow({ backupKey: key, onRevoke }: { backupKey: BackupKey; onRevoke: () => void }) {
  const revoked = key.revokedAt !== null;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3 last:pb-0" data-testid="backup-key">
      <span
        className={`hidden rounded-lg p-2 sm:block ${revoked ? 'bg-slate-50 text-slate-300' : 'bg-indigo-50 text-indigo-600'}`}
      >
        <KeyRound className="h-5 w-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium break-words text-slate-900">
          <span className={revoked ? 'text-slate-500 line-through' : ''}>{key.name}</span>
          <span className="ml-2 font-mono text-xs font-normal text-slate-500">{key.hint}…</span>
          {revoked && (
            <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600 ring-1 ring-slate-200">
              Revoked
            </span>
          )}
        </p>
        <p className="text-slate-500">
          Created {dateTime(key.createdAt)}
          {key.createdBy && ` by ${key.createdBy.username}`}
        </p>
        <p className="text-slate-500">
          {key.lastUsedAt
            ? `Last used ${dateTime(key.lastUsedAt)}${key.lastUsedAddress ? ` from ${key.lastUsedAddress}` : ''}`
            : 'Never used'}
        </p>
        {revoked && key.revokedAt && (
          <p className="text-slate-500">
            Revoked {dateTime(key.revokedAt)}
            {key.revokedBy && ` by ${key.revokedBy.username}`}
          </p>
        )}
      </div>
      {!revoked && (
        <Button
          variant="ghost"
          className="text-rose-700 hover:bg-rose-50 hover:text-rose-800"
          aria-label={`Revoke backup key ${key.name}`}
          onClick={onRevoke}
        >
          Revoke
        </Button>
      )}
    </li>
  );
}
