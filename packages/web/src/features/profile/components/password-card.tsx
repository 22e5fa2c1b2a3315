import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/panels.tsx';
import { ChangePasswordModal } from './change-password-modal.tsx';

/** The password part of the profile: a short note and the button that opens Change Password. */
export function PasswordCard() {
  const [open, setOpen] = useState(false);
  return (
    <Card title="Password">
      <div className="flex items-start gap-3">
        <span className="rounded-lg bg-indigo-50 p-2 text-indigo-600">
          <KeyRound className="h-5 w-5" aria-hidden="true" />
        </span>
        <p className="text-sm text-slate-500">
          Use a password you do not use elsewhere. Changing it signs out your other sessions.
        </p>
      </div>
      <Button variant="secondary" className="mt-4 w-full" onClick={() => setOpen(true)}>
        Change Password
      </Button>
      <ChangePasswordModal open={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
