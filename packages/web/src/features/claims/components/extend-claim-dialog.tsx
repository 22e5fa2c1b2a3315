import { useState } from 'react';
import type { PrizeClaim } from '@lot/domain/schemas/claims';
import { useExtendClaim } from '../api/extend-claim.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { dateTime, money } from '../../../lib/format.ts';

/**
 * The admin gives a winner more days to collect an unpaid or expired prize
 * (docs/product/money.md#prize-claims): how many and why (the reason goes into the audit trail).
 */
export function ExtendClaimDialog({ claim, onClose }: { claim: PrizeClaim; onClose: () => void }) {
  const extend = useExtendClaim();
  const toast = useToast();
  const [days, setDays] = useState('30');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ days?: string; reason?: string }>({});

  const validate = () => {
    const next: typeof errors = {};
    const n = Number(days);
    if (!Number.isInteger(n) || n < 1 || n > 3650) next.days = 'Enter a whole number of days from 1 to 3650';
    if (!reason.trim()) next.reason = 'Give a reason';
    else if (reason.trim().length > 200) next.reason = 'At most 200 characters';
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  return (
    <ConfirmDialog
      open
      title="Extend the claim"
      confirmLabel="Extend"
      pendingLabel="Extending..."
      validate={validate}
      onClose={onClose}
      onConfirm={async () => {
        try {
          const extended = await extend.mutateAsync({
            winnerId: claim.winnerId,
            input: { days: Number(days), reason: reason.trim() },
          });
          toast.success(`The prize can be collected until ${dateTime(extended.expiresAt)}`);
          onClose();
          return null;
        } catch (error) {
          return errorMessage(error, 'Failed to extend the claim');
        }
      }}
    >
      <p className="text-sm text-slate-600">
        {claim.gameNumber === null ? 'The game' : `Game #${claim.gameNumber}`} at {claim.shopName}: #{claim.position}{' '}
        {claim.prizeName}, {money(claim.amount)}.{' '}
        {claim.status === 'expired'
          ? `It expired on ${dateTime(claim.expiresAt)}.`
          : `It can be collected until ${dateTime(claim.expiresAt)}.`}{' '}
        The winner gets this many more days from {claim.status === 'expired' ? 'now' : 'that date'}.
      </p>
      <TextField
        label="Days"
        type="number"
        inputMode="numeric"
        min={1}
        max={3650}
        value={days}
        onChange={(event) => setDays(event.target.value)}
        error={errors.days}
      />
      <TextField
        label="Reason"
        value={reason}
        maxLength={200}
        onChange={(event) => setReason(event.target.value)}
        error={errors.reason}
      />
    </ConfirmDialog>
  );
}
