import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES } from '@lot/domain/messages';
import { decimalToCents } from '@lot/domain/money';
import { amountSchema, transferInputSchema, type MoneyResult, type TransferInput } from '@lot/domain/schemas/balance';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
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
  const toast = useToast();
  const balance = useBalance();
  const transfer = useTransfer();
  const [receiver, setReceiver] = useState<Receiver | null>(initialReceiver);
  const [formError, setFormError] = useState<string | null>(null);
  // A second click can land before the disabled button renders; this refuses it outright.
  const inFlight = useRef(false);

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

  const chooseReceiver = (next: Receiver | null) => {
    setReceiver(next);
    setValue('receiverId', next?.id ?? '', { shouldValidate: isSubmitted });
    if (next) clearErrors('receiverId');
  };

  const send = async (values: TransferInput) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setFormError(null);
    try {
      const result = await transfer.mutateAsync({ receiverId: values.receiverId, amount: values.amount });
      toast.success(result.message);
      onTransferred?.(result);
      onClose();
    } catch (error) {
      const message = errorMessage(error, 'Transfer failed');
      let onField = false;
      if (error instanceof ApiError && error.fieldErrors) {
        for (const [field, text] of Object.entries(error.fieldErrors)) {
          if (field === 'receiverId' || field === 'amount') {
            setError(field, { type: 'server', message: text });
            onField = true;
          }
        }
      }
      if (!onField) setFormError(`Error: ${message}`);
      // docs/product/validation-and-errors.md: fund errors are announced as 'Error: ' followed by the message.
      toast.error(`Error: ${message}`);
    } finally {
      inFlight.current = false;
    }
  };

  const busy = isSubmitting || transfer.isPending;
  const amountError = errors.amount?.message;
  const receiverError = errors.receiverId?.message;

  return (
    <form
      onSubmit={(event) => void handleSubmit(send, () => setFormError(null))(event)}
      noValidate
      className="space-y-4"
    >
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

      <TextField
        label="Amount"
        type="number"
        inputMode="decimal"
        step="0.01"
        min="0.01"
        max={balance.data ? plainAmount(balance.data.amount) : undefined}
        placeholder="0.00"
        error={typeof amountError === 'string' ? amountError : undefined}
        {...register('amount')}
      />

      <FormError message={formError} />

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
