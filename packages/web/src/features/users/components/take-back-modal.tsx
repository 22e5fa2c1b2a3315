import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { AlertTriangle } from 'lucide-react';
import { MESSAGES } from '@lot/domain/messages';
import { decimalToCents, formatCents, type Cents } from '@lot/domain/money';
import { takeBackInputSchema } from '@lot/domain/schemas/balance';
import type { User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { AccountBalance, AmountField, useMoneyCall } from '../../../components/ui/money-form.tsx';
import { money } from '../../../lib/format.ts';
import { useTakeBack } from '../api/take-back.ts';

const takeBackFormSchema = takeBackInputSchema.pick({ amount: true, reason: true, fromDrawer: true });
type Chosen = { amount: Cents; reason: string; fromDrawer?: boolean };

/**
 * Take Back (docs/product/money.md#take-back): the amount and the reason, then a confirmation; the
 * money moves from the row's person to the signed-in one ('Funds successfully taken back from {name}').
 */
export function TakeBackModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  return (
    <Modal open={user !== null} title="Take Back Funds" onClose={onClose}>
      {user && <TakeBackForm key={user.id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function TakeBackForm({ user, onClose }: { user: User; onClose: () => void }) {
  const takeBack = useTakeBack();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(takeBackFormSchema),
    defaultValues: { amount: '', reason: '', fromDrawer: false },
  });
  const call = useMoneyCall({
    fallback: 'Take back failed',
    fields: ['amount', 'reason', 'fromDrawer'],
    // Back to the form, with the message on its field (e.g. the balance changed meanwhile).
    onFieldError: (field, message) => {
      setChosen(null);
      setError(field, { type: 'server', message });
    },
  });
  const balance = decimalToCents(user.balance.amount);

  const review = (values: Chosen) => {
    if (values.amount > balance) {
      setError('amount', { type: 'balance', message: MESSAGES.takeBackAboveBalance });
      return;
    }
    call.clearFormError();
    setChosen(values);
  };

  const send = async () => {
    if (chosen && (await call.run(() => takeBack.mutateAsync({ userId: user.id, ...chosen })))) onClose();
  };

  const summary = <AccountBalance label="From" user={user} testId="take-back-current-balance" />;

  if (chosen) {
    const busy = takeBack.isPending;
    return (
      <div className="space-y-4">
        {summary}
        <div className="flex items-start gap-3">
          <span className="rounded-full bg-amber-50 p-2 text-amber-600">
            <AlertTriangle className="h-5 w-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 space-y-1 pt-1 text-sm text-slate-700">
            <p data-testid="take-back-question">
              Take back <strong>{money(formatCents(chosen.amount))}</strong> from {user.fullName}? It moves to your
              balance.
            </p>
            <p className="break-words text-slate-500">Reason: {chosen.reason}</p>
            {chosen.fromDrawer && (
              <p data-testid="take-back-from-drawer">The cash comes from the drawer of its open shift.</p>
            )}
          </div>
        </div>
        <FormError message={call.formError} />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setChosen(null)} disabled={busy}>
            Back
          </Button>
          <Button variant="danger" onClick={() => void send()} disabled={busy}>
            {busy ? 'Processing...' : 'Take Back'}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={(event) => void handleSubmit(review, call.clearFormError)(event)} noValidate className="space-y-4">
      {summary}
      <AmountField error={errors.amount?.message} {...register('amount')} />
      <TextField
        label="Reason"
        maxLength={200}
        placeholder="Why the money is taken back"
        error={errors.reason?.message}
        {...register('reason')}
      />
      {user.role === 'user' && (
        // A shop's agent often takes the money in cash from the drawer (decision 091): the shift then counts it.
        <div>
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 rounded border-slate-300 text-indigo-600"
              {...register('fromDrawer')}
            />
            <span>
              Taken in cash from the drawer of the open shift
              <span className="block text-xs text-slate-500">The shop’s shift records it as a pickup.</span>
            </span>
          </label>
          {errors.fromDrawer?.message && (
            <p role="alert" className="mt-1 text-sm text-rose-600">
              {errors.fromDrawer.message}
            </p>
          )}
        </div>
      )}
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">Continue</Button>
      </div>
    </form>
  );
}
