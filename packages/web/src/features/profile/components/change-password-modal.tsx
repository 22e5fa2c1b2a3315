import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { changePasswordFormSchema, type ChangePasswordForm as FormValues } from '@lot/domain/schemas/auth';
import { MESSAGES } from '@lot/domain/messages';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useChangePassword } from '../api/change-password.ts';

const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** Change Password (docs/product/screens.md#profile). The form lives inside the modal, so each opening starts blank. */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Change Password" onClose={onClose}>
      <ChangePasswordForm onDone={onClose} />
    </Modal>
  );
}

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const toast = useToast();
  const change = useChangePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    setFailure(null);
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      toast.success(MESSAGES.passwordChanged);
      onDone();
    } catch (error) {
      // The server's field messages go under their fields ('Current password is incorrect').
      const fields = error instanceof ApiError ? (error.fieldErrors ?? {}) : {};
      const placed = FIELDS.filter((field) => fields[field]);
      for (const field of placed) setError(field, { message: fields[field] }, { shouldFocus: true });
      if (placed.length === 0) setFailure(errorMessage(error, 'Failed to change password'));
    }
  });

  const busy = change.isPending;
  return (
    <form
      onSubmit={(event) => {
        // A new attempt: the last server message goes, also when the form's own check stops this one.
        setFailure(null);
        void onSubmit(event);
      }}
      noValidate
      className="space-y-4"
    >
      <p className="text-sm text-slate-500">You stay signed in here; sessions on other devices are signed out.</p>
      <FormError message={failure} />
      <TextField
        label="Current Password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        hint="At least 6 characters"
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <TextField
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing...' : 'Change Password'}
        </Button>
      </div>
    </form>
  );
}
