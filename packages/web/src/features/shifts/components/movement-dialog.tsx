import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import {
  isCashTaken,
  SHIFT_MOVEMENT_KINDS,
  SHIFT_MOVEMENT_LABELS,
  shiftMovementInputSchema,
  type ShiftMovementInput,
} from '@lot/domain/schemas/shifts';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, SelectField, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { AmountField } from '../../../components/ui/money-form.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';
import { useRecordMovement } from '../api/record-movement.ts';

/** What each kind does to the drawer, as the dialog explains it. */
const KIND_HINTS: Record<ShiftMovementInput['kind'], string> = {
  pickup: 'Cash taken from the drawer by someone, such as your agent collecting it.',
  drop: 'Cash taken from the drawer to the safe.',
  paid_in: 'Cash put into the drawer, such as change from the bank.',
  paid_out: 'Cash paid from the drawer for something other than a prize.',
};

const FIELDS = ['kind', 'amount', 'reason', 'takenBy'] as const;

/**
 * Cash movement (docs/product/shifts.md#cash-movements): a pickup, a drop, a paid in or a paid out on
 * the open shift, with its amount, who took the cash (a pickup or a drop) and why. It changes the
 * expected cash at once; it is never changed afterwards, so the dialog says so before it records.
 */
export function MovementDialog({ shiftId, open, onClose }: { shiftId: number; open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Cash movement" onClose={onClose}>
      {open && <MovementForm shiftId={shiftId} onClose={onClose} />}
    </Modal>
  );
}

function MovementForm({ shiftId, onClose }: { shiftId: number; onClose: () => void }) {
  const record = useRecordMovement();
  const toast = useToast();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(shiftMovementInputSchema),
    defaultValues: { kind: 'pickup', amount: '' as unknown, reason: '', takenBy: '' },
  });
  const kind = useWatch({ control, name: 'kind' }) as ShiftMovementInput['kind'];
  const busy = isSubmitting || record.isPending;

  const send = async (input: ShiftMovementInput) => {
    setFailure(null);
    try {
      const movement = await record.mutateAsync({ shiftId, ...input });
      toast.success(`${SHIFT_MOVEMENT_LABELS[movement.kind]} of ${money(movement.amount)} recorded`);
      onClose();
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : undefined;
      let onField = false;
      for (const field of FIELDS) {
        const text = fields?.[field];
        if (text) {
          setError(field, { type: 'server', message: text });
          onField = true;
        }
      }
      if (!onField) setFailure(errorMessage(error, 'The cash movement could not be recorded. Try again.'));
    }
  };

  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void handleSubmit(send)(event)}>
      <SelectField label="Kind" hint={KIND_HINTS[kind]} error={errors.kind?.message} {...register('kind')}>
        {SHIFT_MOVEMENT_KINDS.map((value) => (
          <option key={value} value={value}>
            {SHIFT_MOVEMENT_LABELS[value]}
          </option>
        ))}
      </SelectField>
      <AmountField error={errors.amount?.message} {...register('amount')} />
      {isCashTaken(kind) && (
        <TextField
          label="Taken by"
          maxLength={100}
          placeholder={kind === 'drop' ? 'Who took it to the safe' : 'Who took the cash'}
          error={errors.takenBy?.message}
          {...register('takenBy', { shouldUnregister: true })}
        />
      )}
      <TextField
        label="Reason"
        maxLength={200}
        placeholder="Why the cash moved"
        error={errors.reason?.message}
        {...register('reason')}
      />
      <p className="text-sm text-slate-700">
        It changes the expected cash at once, and is kept as recorded: a mistake is put right by another movement.
      </p>
      <FormError message={failure} />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
          {busy ? 'Recording...' : 'Record'}
        </Button>
      </div>
    </form>
  );
}
