import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { PlayCircle } from 'lucide-react';
import { openShiftInputSchema } from '@lot/domain/schemas/shifts';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { Card } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';
import { formatCents } from '@lot/domain/money';
import { useOpenShift } from '../api/open-shift.ts';
import { useState } from 'react';

/**
 * No shift open: the shop opens one with the cash it puts in the drawer to give change (the opening
 * float, zero allowed), checked by the API's own schema (docs/product/screens.md#shift).
 */
export function OpenShiftForm() {
  const open = useOpenShift();
  const toast = useToast();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(openShiftInputSchema), defaultValues: { openingFloat: '' as unknown } });

  const send = async ({ openingFloat }: { openingFloat: number }) => {
    setFormError(null);
    try {
      const shift = await open.mutateAsync(openingFloat);
      toast.success(`Shift opened with a float of ${money(shift.openingFloat)}`);
    } catch (error) {
      const field = error instanceof ApiError ? error.fieldErrors?.openingFloat : undefined;
      if (field) setError('openingFloat', { type: 'server', message: field });
      else setFormError(errorMessage(error, 'The shift could not be opened. Try again.'));
    }
  };

  const busy = isSubmitting || open.isPending;
  return (
    <Card title="No shift open">
      <form
        noValidate
        onSubmit={(event) => void handleSubmit(send)(event)}
        className="flex max-w-xl flex-col gap-4"
        aria-label="Open shift"
      >
        <p className="text-sm text-slate-600">
          Open a shift before the day’s games: count the cash you put in the drawer for change. Games frozen while the
          shift is open, and prizes paid, are counted in its report; closing it compares the cash you count with what
          the drawer should hold.
        </p>
        <TextField
          label="Opening float"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          placeholder="0.00"
          hint={`Cash in the drawer now, for change. ${formatCents(0)} if none.`}
          error={errors.openingFloat?.message}
          {...register('openingFloat')}
        />
        <FormError message={formError} />
        <div>
          <Button type="submit" disabled={busy}>
            <PlayCircle className="h-4 w-4" aria-hidden="true" />
            {busy ? 'Opening...' : 'Open shift'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
