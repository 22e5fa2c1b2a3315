import { useState } from 'react';
import type { BusinessSettings } from '@lot/domain/schemas/claims';
import { useBusinessSettings, useSaveBusinessSettings } from '../api/business-settings.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, TextField } from '../../../components/ui/field.tsx';
import { Card, Spinner } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';

/** The admin's business settings for prize claims (docs/product/money.md#prize-claims). */
export function BusinessSettingsCard() {
  const settings = useBusinessSettings();
  return (
    <Card title="Prize claims">
      {settings.isPending ? (
        <Spinner />
      ) : settings.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorMessage(settings.error, 'Failed to load the business settings')}
        </p>
      ) : (
        <SettingsForm key={JSON.stringify(settings.data)} settings={settings.data} />
      )}
    </Card>
  );
}

function SettingsForm({ settings }: { settings: BusinessSettings }) {
  const save = useSaveBusinessSettings();
  const toast = useToast();
  const [days, setDays] = useState(String(settings.claimPeriodDays));
  const [anyShop, setAnyShop] = useState(settings.claimsAnyShopOfAgent);
  const [daysError, setDaysError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setFailure(null);
        const n = Number(days);
        if (!Number.isInteger(n) || n < 1 || n > 3650) {
          setDaysError('Enter a whole number of days from 1 to 3650');
          return;
        }
        setDaysError(null);
        save.mutate(
          { claimPeriodDays: n, claimsAnyShopOfAgent: anyShop },
          {
            onSuccess: () => toast.success('Business settings saved'),
            onError: (error) => {
              const named = error instanceof ApiError ? error.fieldErrors?.claimPeriodDays : undefined;
              if (named) setDaysError(named);
              else setFailure(errorMessage(error, 'Failed to save the business settings'));
            },
          },
        );
      }}
    >
      <TextField
        label="Claim period (days)"
        type="number"
        inputMode="numeric"
        min={1}
        max={3650}
        value={days}
        onChange={(event) => setDays(event.target.value)}
        error={daysError ?? undefined}
        hint="How long a winner has to collect a prize. New prizes get the period in force when their game is drawn."
      />
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={anyShop}
          onChange={(event) => setAnyShop(event.target.checked)}
          className="mt-0.5 h-4 w-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
        />
        Any shop of the same agent may pay prizes
      </label>
      <FormError message={failure} />
      <Button type="submit" variant="secondary" className="w-full" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save settings'}
      </Button>
    </form>
  );
}
