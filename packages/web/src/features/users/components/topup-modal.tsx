import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { amountSchema } from '@lot/domain/schemas/balance';
import type { User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';
import { useTopup } from '../api/topup.ts';

const topupFormSchema = z.object({ amount: amountSchema });

/** Top Up: adds funds to one user's balance ('Funds successfully topped up to {name}'). */
export function TopupModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Modal open={user !== null} title="Top Up Balance" onClose={onClose}>
      {user && <TopupForm key={user.id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function TopupForm({ user, onClose }: { user: User; onClose: () => void }) {
  const toast = useToast();
  const topup = useTopup();
  const [formError, setFormError] = useState<string | null>(null);
  // A second click can land before the disabled button renders; this refuses it outright.
  const inFlight = useRef(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(topupFormSchema), defaultValues: { amount: '' } });

  const send = async ({ amount }: { amount: number }) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setFormError(null);
    try {
      const result = await topup.mutateAsync({ userId: user.id, amount });
      toast.success(result.message);
      onClose();
    } catch (error) {
      const message = errorMessage(error, 'Top up failed');
      const onAmount = error instanceof ApiError ? error.fieldErrors?.amount : undefined;
      if (onAmount) setError('amount', { type: 'server', message: onAmount });
      else setFormError(`Error: ${message}`);
      // Fund errors are announced as 'Error: ' followed by the message
      // (docs/product/validation-and-errors.md#write-fallbacks).
      toast.error(`Error: ${message}`);
    } finally {
      inFlight.current = false;
    }
  };

  const busy = isSubmitting || topup.isPending;
  const amountError = errors.amount?.message;
  return (
    <form
      onSubmit={(event) => void handleSubmit(send, () => setFormError(null))(event)}
      noValidate
      className="space-y-4"
    >
      <dl className="grid grid-cols-2 gap-3 rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200">
        <div className="min-w-0">
          <dt className="text-slate-500">User</dt>
          <dd className="truncate font-medium text-slate-900">{user.fullName}</dd>
          <dd className="truncate text-xs text-slate-500">@{user.username}</dd>
        </div>
        <div className="text-right">
          <dt className="text-slate-500">Current balance</dt>
          <dd data-testid="topup-current-balance" className="font-semibold text-slate-900 tabular-nums">
            {money(user.balance.amount)}
          </dd>
        </div>
      </dl>
      <TextField
        label="Amount"
        type="number"
        inputMode="decimal"
        step="0.01"
        min="0.01"
        placeholder="0.00"
        error={typeof amountError === 'string' ? amountError : undefined}
        {...register('amount')}
      />
      <FormError message={formError} />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Processing...' : 'Top Up'}
        </Button>
      </div>
    </form>
  );
}
