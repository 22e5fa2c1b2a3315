import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { claimPayFormSchema, type PrizeClaim } from '@lot/domain/schemas/claims';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';
import { newIdempotencyKey } from '../../../lib/retry.ts';
import { payClaim, type PaidClaim } from '../api/pay-claim.ts';

/** The sum of claims' amounts, in cents to add up exactly. */
export const sumAmounts = (claims: readonly PrizeClaim[]) =>
  claims.reduce((sum, claim) => sum + Math.round(Number(claim.amount) * 100), 0) / 100;

/** An entry code as the slip prints it: four groups of four. */
const grouped = (code: string) => code.replace(/(.{4})(?!$)/g, '$1 ');

/**
 * The slip's entry code (filled from the scan or the typed code the prize was found by) and who
 * collects the prize(s); paying sends each with its own Idempotency-Key, kept for resends. The
 * server checks the code as it pays (decision 086).
 */
export function PayForm({
  prizes,
  entryCode,
  onPaid,
}: {
  prizes: PrizeClaim[];
  entryCode: string;
  onPaid: (paid: PaidClaim[]) => Promise<void>;
}) {
  const toast = useToast();
  // One key per prize for the life of the form: a resend after a lost answer pays once.
  const [keys] = useState(() => new Map<number, string>());
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(claimPayFormSchema),
    defaultValues: { entryCode: grouped(entryCode), claimerName: '', claimerIdNumber: '' },
  });
  const total = sumAmounts(prizes);

  const pay = handleSubmit(async (fields) => {
    setFailure(null);
    const input = {
      entryCode: fields.entryCode,
      claimerName: fields.claimerName,
      ...(fields.claimerIdNumber ? { claimerIdNumber: fields.claimerIdNumber } : {}),
    };
    const done: PaidClaim[] = [];
    for (const prize of prizes) {
      let key = keys.get(prize.winnerId);
      if (!key) {
        key = newIdempotencyKey();
        keys.set(prize.winnerId, key);
      }
      try {
        done.push(await payClaim(prize.winnerId, input, key));
      } catch (error) {
        const named = error instanceof ApiError ? error.fieldErrors : undefined;
        if (named?.entryCode) setError('entryCode', { message: named.entryCode });
        if (named?.claimerName) setError('claimerName', { message: named.claimerName });
        if (named?.claimerIdNumber) setError('claimerIdNumber', { message: named.claimerIdNumber });
        const message = errorMessage(error, 'Failed to pay the prize');
        if (!named) setFailure(message);
        toast.error(`Error: ${message}`);
        break;
      }
    }
    if (done.length > 0) toast.success(`Paid ${money(sumAmounts(done.map((d) => d.claim)))}`);
    await onPaid(done);
  });

  return (
    <form className="mt-5 space-y-4 border-t border-slate-100 pt-4" onSubmit={(event) => void pay(event)} noValidate>
      <h3 className="text-sm font-semibold text-slate-900">Who collects the prize</h3>
      <TextField
        label="Entry code on the slip"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        className="font-mono"
        hint="Filled from the slip you scanned or typed: the prize is paid only with its slip’s code"
        error={errors.entryCode?.message}
        {...register('entryCode')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Claimer’s name"
          autoComplete="off"
          error={errors.claimerName?.message}
          {...register('claimerName')}
        />
        <TextField
          label="ID number (optional)"
          autoComplete="off"
          error={errors.claimerIdNumber?.message}
          {...register('claimerIdNumber')}
        />
      </div>
      <FormError message={failure} />
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Paying...' : `Pay ${money(total)} and print receipt`}
      </Button>
    </form>
  );
}
