import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { amountSchema } from '@lot/domain/schemas/balance';
import type { User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { AccountBalance, AmountField, useMoneyCall } from '../../../components/ui/money-form.tsx';
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
  const topup = useTopup();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(topupFormSchema), defaultValues: { amount: '' } });
  const call = useMoneyCall({
    fallback: 'Top up failed',
    fields: ['amount'],
    onFieldError: (field, message) => setError(field, { type: 'server', message }),
  });

  const send = async ({ amount }: { amount: number }) => {
    if (await call.run(() => topup.mutateAsync({ userId: user.id, amount }))) onClose();
  };

  const busy = isSubmitting || topup.isPending;
  return (
    <form onSubmit={(event) => void handleSubmit(send, call.clearFormError)(event)} noValidate className="space-y-4">
      <AccountBalance label="User" user={user} testId="topup-current-balance" />
      <AmountField error={errors.amount?.message} {...register('amount')} />
      <FormError message={call.formError} />
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
