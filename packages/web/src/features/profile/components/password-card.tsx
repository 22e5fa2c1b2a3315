import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Card, IconNote } from '../../../components/ui/panels.tsx';
import { ChangePasswordModal } from './change-password-modal.tsx';

/** The password part of the profile: a short note and the button that opens Change Password. */
export function PasswordCard() {
  const [open, setOpen] = useState(false);
  return (
    <Card title="Password">
      <IconNote icon={KeyRound} tone="indigo">
        <p className="text-slate-500">
          Use a password you do not use elsewhere. Changing it signs out your other sessions.
        </p>
      </IconNote>
      <Button variant="secondary" className="mt-4 w-full" onClick={() => setOpen(true)}>
        Change Password
      </Button>
      <ChangePasswordModal open={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
