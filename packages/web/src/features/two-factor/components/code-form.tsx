import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { twoFactorCodeInputSchema, type TwoFactorCodeInput } from '@lot/domain/schemas/auth';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';

/**
 * One code field and its button, for turning two-factor sign-in on or off: the shared schema's
 * messages, and the server's ('The code is not valid') under the field.
 */
export function CodeForm({
  label,
  hint,
  submit,
  busyLabel,
  fallback,
  onSubmit,
  children,
}: {
  label: string;
  hint: string;
  submit: string;
  busyLabel: string;
  fallback: string;
  onSubmit: (code: string) => Promise<unknown>;
  /** Beside the submit button (a Cancel). */
  children?: ReactNode;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorCodeInput>({
    resolver: zodResolver(twoFactorCodeInputSchema),
    defaultValues: { code: '' },
  });

  const send = handleSubmit(async ({ code }) => {
    setFailure(null);
    try {
      await onSubmit(code);
    } catch (error) {
      const message = error instanceof ApiError ? error.fieldErrors?.code : undefined;
      if (message) setError('code', { message }, { shouldFocus: true });
      else setFailure(errorMessage(error, fallback));
    }
  });

  return (
    <form onSubmit={(event) => void send(event)} noValidate className="space-y-4">
      <TextField
        label={label}
        hint={hint}
        autoComplete="one-time-code"
        inputMode="text"
        spellCheck={false}
        error={errors.code?.message}
        {...register('code')}
      />
      <FormError message={failure} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {children}
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? busyLabel : submit}
        </Button>
      </div>
    </form>
  );
}
