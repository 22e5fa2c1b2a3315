import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import type { CreatedBackupKey } from '@lot/domain/schemas/backup';
import { Button } from '../../../components/ui/button.tsx';

/** A key just made: its secret, shown this once, to copy into the file the backup's cron job reads. */
export function NewBackupKey({ created, onDone }: { created: CreatedBackupKey; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('yes');
    } catch {
      // No clipboard (an address that is not https): the key is selected, to copy by hand.
      const field = document.getElementById('new-backup-key') as HTMLInputElement | null;
      field?.select();
      setCopied('no');
    }
  };
  return (
    <div className="space-y-3 rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-200" data-testid="new-backup-key">
      <p role="status" className="text-sm font-semibold text-emerald-900">
        Backup key “{created.key.name}” created
      </p>
      <p className="text-sm text-emerald-900">
        Copy it now: it is shown only this once. Save it in a file only the backup&apos;s user can read (
        <code className="font-mono">chmod 600</code>) and name that file in{' '}
        <code className="font-mono">LOT_BACKUP_KEY_FILE</code>.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor="new-backup-key" className="sr-only">
          The new backup key
        </label>
        <input
          id="new-backup-key"
          readOnly
          value={created.secret}
          onFocus={(event) => event.target.select()}
          className="block w-full min-w-0 flex-1 rounded-lg border-0 bg-white px-3 py-2 font-mono text-xs text-slate-900 shadow-sm ring-1 ring-emerald-300 ring-inset sm:text-sm"
        />
        <Button variant="secondary" onClick={() => void copy()}>
          {copied === 'yes' ? (
            <Check className="h-4 w-4" aria-hidden="true" />
          ) : (
            <Copy className="h-4 w-4" aria-hidden="true" />
          )}
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {copied === 'no' && (
        <p className="text-sm text-emerald-900">
          Copying is not allowed here: the key is selected, copy it with Ctrl+C.
        </p>
      )}
      <div className="flex justify-end">
        <Button onClick={onDone}>I have saved the key</Button>
      </div>
    </div>
  );
}
