import { useState } from 'react';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { MESSAGES } from '@lot/domain/messages';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Card, IconNote, Spinner } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDisableTwoFactor } from '../api/disable-two-factor.ts';
import { useTwoFactorStatus } from '../api/get-two-factor-status.ts';
import { CodeForm } from './code-form.tsx';
import { TwoFactorSetup } from './two-factor-setup.tsx';

/** The profile's two-factor part: whether it is on, set it up, or turn it off with a code. */
export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const disable = useDisableTwoFactor();
  const toast = useToast();
  const [dialog, setDialog] = useState<'setup' | 'disable' | null>(null);
  const close = () => setDialog(null);

  return (
    <Card title="Two-factor sign-in">
      {status.isPending ? (
        <Spinner />
      ) : status.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorMessage(status.error, 'Failed to load two-factor sign-in')}
        </p>
      ) : status.data.enabled ? (
        <div className="space-y-4">
          <IconNote icon={ShieldCheck} tone="emerald">
            <p className="font-semibold text-emerald-700" data-testid="two-factor-state">
              On
            </p>
            <p>
              Sign-in asks for a code from your authenticator app. {status.data.recoveryCodesLeft} of 10 recovery codes
              left.
            </p>
          </IconNote>
          {status.data.required ? (
            <p className="text-sm text-slate-500">Your role requires two-factor sign-in.</p>
          ) : (
            <Button variant="secondary" className="w-full" onClick={() => setDialog('disable')}>
              Turn off
            </Button>
          )}
        </div>
      ) : (
        <div className="space-y-4">
          <IconNote icon={ShieldOff} tone="slate">
            <p className="font-semibold text-slate-700" data-testid="two-factor-state">
              Off
            </p>
            <p>Add a code from an authenticator app to your password, so a stolen password alone cannot sign in.</p>
          </IconNote>
          <Button className="w-full" onClick={() => setDialog('setup')}>
            Set up two-factor sign-in
          </Button>
        </div>
      )}
      <Modal open={dialog === 'setup'} title="Set up two-factor sign-in" onClose={close}>
        <TwoFactorSetup onDone={close} onCancel={close} />
      </Modal>
      <Modal open={dialog === 'disable'} title="Turn off two-factor sign-in" onClose={close}>
        <div className="space-y-4">
          <p className="text-sm text-slate-600">
            Sign-in will ask for your password only. Your other sessions are signed out.
          </p>
          <CodeForm
            label="Code from the app or a recovery code"
            hint="6 digits, or a recovery code like abcd-efgh-jkmn-pqrs"
            submit="Turn off"
            busyLabel="Turning off..."
            fallback="Failed to turn off two-factor sign-in"
            onSubmit={async (code) => {
              await disable.mutateAsync(code);
              toast.success(MESSAGES.twoFactorDisabled);
              close();
            }}
          >
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
          </CodeForm>
        </div>
      </Modal>
    </Card>
  );
}
