import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES } from '@lot/domain/messages';
import { decimalToCents } from '@lot/domain/money';
import { amountSchema, transferInputSchema, type MoneyResult, type TransferInput } from '@lot/domain/schemas/balance';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { AmountField, useMoneyCall } from '../../../components/ui/money-form.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { amount as plainAmount, money } from '../../../lib/format.ts';
import { useBalance } from '../api/get-balance.ts';
import type { UserStatus } from '@lot/domain/roles';
import type { Receiver } from '../api/get-receivers.ts';
import { useTransfer } from '../api/transfer.ts';
import { ReceiverPicker } from './receiver-picker.tsx';

export type TransferModalProps = {
  open: boolean;
  onClose: () => void;
  /** A receiver chosen before opening (a row's Transfer action on a users page); an inactive one is never chosen. */
  receiver?: (Receiver & { status?: UserStatus }) | null;
  onTransferred?: (result: MoneyResult) => void;
};

/** 'Transfer Funds': the same dialog wherever money is sent (transactions, dashboards, user lists). */
export function TransferModal({ open, onClose, receiver = null, onTransferred }: TransferModalProps) {
  return (
    <Modal open={open} title="Transfer Funds" onClose={onClose}>
      {/* Mounted only while open, so every opening starts from a clean form. */}
      {open && (
        <TransferForm
          // Only active users receive money (docs/product/roles-and-scope.md#transfers).
          initialReceiver={receiver && (receiver.status ?? 'active') === 'active' ? receiver : null}
          onClose={onClose}
          onTransferred={onTransferred}
        />
      )}
    </Modal>
  );
}

function TransferForm({
  initialReceiver,
  onClose,
  onTransferred,
}: {
  initialReceiver: Receiver | null;
  onClose: () => void;
  onTransferred?: (result: MoneyResult) => void;
}) {
  const me = useCurrentUser();
  const balance = useBalance();
  const transfer = useTransfer();
  const [receiver, setReceiver] = useState<Receiver | null>(initialReceiver);

  const balanceCents = balance.data ? decimalToCents(balance.data.amount) : null;
  // The domain's transfer rules (the server's own words) plus the one only the client can check
  // before sending: the amount may not exceed the balance it shows (docs/product/validation-and-errors.md).
  const schema = useMemo(
    () =>
      transferInputSchema.extend({
        amount: amountSchema.refine((cents) => balanceCents === null || cents <= balanceCents, {
          message: MESSAGES.insufficientBalance,
        }),
      }),
    [balanceCents],
  );

  const {
    register,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(schema),
    defaultValues: { receiverId: initialReceiver?.id ?? '', amount: '' },
  });

  const call = useMoneyCall({
    fallback: 'Transfer failed',
    fields: ['receiverId', 'amount'],
    onFieldError: (field, message) => setError(field, { type: 'server', message }),
  });

  const chooseReceiver = (next: Receiver | null) => {
    setReceiver(next);
    setValue('receiverId', next?.id ?? '', { shouldValidate: isSubmitted });
    if (next) clearErrors('receiverId');
  };

  const send = async (values: TransferInput) => {
    const result = await call.run(() => transfer.mutateAsync({ receiverId: values.receiverId, amount: values.amount }));
    if (!result) return;
    onTransferred?.(result);
    onClose();
  };

  const busy = isSubmitting || transfer.isPending;
  const receiverError = errors.receiverId?.message;

  return (
    <form onSubmit={(event) => void handleSubmit(send, call.clearFormError)(event)} noValidate className="space-y-4">
      <div className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200">
        <span className="text-slate-600">Available balance</span>
        <span data-testid="available-balance" className="font-semibold text-slate-900 tabular-nums">
          {balance.data ? money(balance.data.amount) : balance.isError ? 'Failed to fetch balance' : 'Loading...'}
        </span>
      </div>

      <ReceiverPicker
        selfId={me.id}
        selected={receiver}
        onSelect={chooseReceiver}
        error={typeof receiverError === 'string' ? receiverError : undefined}
      />

      <AmountField
        max={balance.data ? plainAmount(balance.data.amount) : undefined}
        error={errors.amount?.message}
        {...register('amount')}
      />

      <FormError message={call.formError} />

      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Sending...' : 'Send Funds'}
        </Button>
      </div>
    </form>
  );
}
