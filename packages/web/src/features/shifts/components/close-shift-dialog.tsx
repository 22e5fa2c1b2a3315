import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { decimalToCents, parseAmountToCents } from '@lot/domain/money';
import { MESSAGES } from '@lot/domain/messages';
import { closeShiftInputSchema, type Shift, type ShiftReport } from '@lot/domain/schemas/shifts';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';
import { useCloseShift } from '../api/close-shift.ts';
import { shiftsQueryKey } from '../api/get-current-shift.ts';
import { Variance } from './variance.tsx';

type CloseValues = { countedCash: number; varianceReason?: string };

/**
 * The close's check: the API's schema, plus the reason a difference needs (the server says the same
 * with the same words, and decides with the expected cash at the moment it closes).
 */
const closeFormSchema = (expected: number) =>
  closeShiftInputSchema.superRefine((value, ctx) => {
    if (value.countedCash !== expected && !value.varianceReason?.trim())
      ctx.addIssue({ code: 'custom', path: ['varianceReason'], message: MESSAGES.shiftVarianceReasonRequired });
  });

/**
 * Close shift (docs/product/screens.md#shift, the rules in docs/product/shifts.md#closing): the
 * counted cash, the difference from the expected cash shown as it is typed, a reason when they
 * differ; the dialog itself is the confirmation (decision 019). A refusal (a game in progress)
 * stays readable in it; done, the caller gets the Z report.
 */
export function CloseShiftDialog({
  open,
  shift,
  expectedCash,
  onClose,
  onClosed,
}: {
  open: boolean;
  shift: Shift;
  /** The expected cash as the X report on screen says it. */
  expectedCash: string;
  onClose: () => void;
  onClosed: (report: ShiftReport) => void;
}) {
  // While the close is being sent, Escape and the backdrop do not close the dialog.
  const pendingRef = useRef(false);
  const closeUnlessPending = () => {
    if (!pendingRef.current) onClose();
  };
  return (
    <Modal open={open} title="Close shift" onClose={closeUnlessPending}>
      {open && (
        <CloseShiftForm
          shift={shift}
          expectedCash={expectedCash}
          pendingRef={pendingRef}
          onClose={closeUnlessPending}
          onClosed={onClosed}
        />
      )}
    </Modal>
  );
}

function CloseShiftForm({
  shift,
  expectedCash,
  pendingRef,
  onClose,
  onClosed,
}: {
  shift: Shift;
  expectedCash: string;
  pendingRef: { current: boolean };
  onClose: () => void;
  onClosed: (report: ShiftReport) => void;
}) {
  const expected = decimalToCents(expectedCash);
  const close = useCloseShift();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(closeFormSchema(expected)),
    defaultValues: { countedCash: '' as unknown, varianceReason: '' },
  });
  const typed = useWatch({ control, name: 'countedCash' });
  const counted = typeof typed === 'string' && typed.trim() === '' ? null : parseAmountToCents(typed);
  const difference = counted === null ? null : counted - expected;
  const busy = isSubmitting || close.isPending;
  useEffect(() => {
    pendingRef.current = busy;
  }, [busy, pendingRef]);

  const send = async ({ countedCash, varianceReason }: CloseValues) => {
    setFailure(null);
    try {
      const reason = countedCash === expected ? undefined : varianceReason?.trim();
      onClosed(await close.mutateAsync({ shiftId: shift.id, countedCash, varianceReason: reason }));
    } catch (error) {
      // The shift as the server has it now (a game settled or a prize paid since, closed elsewhere).
      void queryClient.invalidateQueries({ queryKey: shiftsQueryKey });
      const fields = error instanceof ApiError ? error.fieldErrors : undefined;
      if (fields?.varianceReason) {
        setError('varianceReason', { type: 'server', message: fields.varianceReason });
        // No reason field on screen: the expected cash moved since the report was read.
        if (countedCash === expected)
          setFailure(`${fields.varianceReason}: the expected cash has changed since this report was read.`);
      }
      if (fields?.countedCash) setError('countedCash', { type: 'server', message: fields.countedCash });
      if (!fields?.varianceReason && !fields?.countedCash)
        setFailure(errorMessage(error, 'The shift could not be closed. Try again.'));
    }
  };

  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void handleSubmit(send)(event)}>
      <dl className="grid grid-cols-2 gap-3 rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200">
        <div>
          <dt className="text-slate-500">Opening float</dt>
          <dd className="font-medium text-slate-900 tabular-nums">{money(shift.openingFloat)}</dd>
        </div>
        <div className="text-right">
          <dt className="text-slate-500">Expected cash</dt>
          <dd data-testid="close-expected" className="font-semibold text-slate-900 tabular-nums">
            {money(expectedCash)}
          </dd>
        </div>
      </dl>
      <TextField
        label="Counted cash"
        type="number"
        inputMode="decimal"
        step="0.01"
        min="0"
        placeholder="0.00"
        hint="Count every note and coin in the drawer."
        error={errors.countedCash?.message}
        {...register('countedCash')}
      />
      <p className="flex items-baseline justify-between gap-3 text-sm" aria-live="polite">
        <span className="text-slate-600">Difference</span>
        <span data-testid="close-difference">
          <Variance amount={difference} />
        </span>
      </p>
      {difference !== null && difference !== 0 && (
        <div>
          <label htmlFor="close-variance-reason" className="mb-1 block text-sm font-medium text-slate-700">
            Reason for the difference
          </label>
          <textarea
            id="close-variance-reason"
            rows={2}
            maxLength={200}
            aria-invalid={errors.varianceReason ? true : undefined}
            aria-describedby={errors.varianceReason ? 'close-variance-reason-error' : undefined}
            className="block w-full rounded-lg border-0 px-3 py-2 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600"
            {...register('varianceReason')}
          />
          {errors.varianceReason?.message && (
            <p id="close-variance-reason-error" role="alert" className="mt-1 text-sm text-rose-600">
              {errors.varianceReason.message}
            </p>
          )}
        </div>
      )}
      <p className="text-sm text-slate-700">
        Closing ends the shift for good: its Z report is numbered and kept as it is, and cannot be changed.
      </p>
      <FormError message={failure} />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="danger" disabled={busy}>
          {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
          {busy ? 'Closing...' : 'Close shift'}
        </Button>
      </div>
    </form>
  );
}
