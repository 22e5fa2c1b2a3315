import { useState } from 'react';
import { Smartphone } from 'lucide-react';
import { IconNote } from '../../../components/ui/panels.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/field.tsx';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useConfirmEnrolment } from '../api/confirm-enrolment.ts';
import { useStartEnrolment } from '../api/start-enrolment.ts';
import { CodeForm } from './code-form.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

/** The secret in groups of four, as authenticator apps show keys typed by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Setting up two-factor sign-in: a new secret as a QR code and as text, confirmed by a first code
 * from the app, then the recovery codes, shown once. `onDone` runs when they are saved.
 */
export function TwoFactorSetup({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const [codes, setCodes] = useState<string[] | null>(null);

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;

  const enrolment = start.data;
  if (!enrolment) {
    return (
      <div className="space-y-4">
        <IconNote icon={Smartphone} tone="indigo">
          <p>
            You need an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, Authy, 1Password
            or similar). After your password, LOT will ask for the 6-digit code it shows.
          </p>
        </IconNote>
        <FormError message={start.isError ? errorMessage(start.error, 'Failed to start the set-up') : null} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button onClick={() => start.mutate()} disabled={start.isPending}>
            {start.isPending ? 'Starting...' : 'Begin set-up'}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-5">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600">
        <li>In your authenticator app, add an account and scan this QR code.</li>
        <li>Type the 6-digit code the app shows for LOT.</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <QrCode
          value={enrolment.uri}
          label="QR code for your authenticator app"
          className="h-44 w-44 shrink-0 rounded-lg ring-1 ring-slate-200"
        />
        <div className="min-w-0 text-sm text-slate-600">
          <p>Cannot scan it? Enter this key in the app instead (time-based):</p>
          <p
            data-testid="two-factor-secret"
            className="mt-2 rounded-lg bg-slate-50 px-3 py-2 font-mono text-sm break-words text-slate-900 ring-1 ring-slate-200 select-all"
          >
            {grouped(enrolment.secret)}
          </p>
        </div>
      </div>
      <CodeForm
        label="Code from the app"
        hint="6 digits"
        submit="Turn on"
        busyLabel="Checking..."
        fallback="Failed to turn on two-factor sign-in"
        onSubmit={async (code) => setCodes((await confirm.mutateAsync(code)).recoveryCodes)}
      >
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </CodeForm>
    </div>
  );
}
