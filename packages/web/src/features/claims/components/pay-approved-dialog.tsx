import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { claimPayApprovedSchema, type PrizeClaim } from '@lot/domain/schemas/claims';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';
import { newIdempotencyKey } from '../../../lib/retry.ts';
import { claimsQueryKey } from '../api/get-claims.ts';
import { payClaim, type PaidClaim } from '../api/pay-claim.ts';

type Errors = { claimerName?: string; claimerIdNumber?: string };

/**
 * A shop pays a prize the admin approved without an entry code (decision 086): to the claimer whose
 * ID number is the approved one (the server checks it; the shop is not shown it). `onPaid` prints.
 */
export function PayApprovedDialog({
  claim,
  onClose,
  onPaid,
}: {
  claim: PrizeClaim;
  onClose: () => void;
  onPaid: (paid: PaidClaim) => Promise<void>;
}) {
  const toast = useToast();
  const queryClient = useQueryClient();
  // One key for the life of the dialog: a resend after a lost answer pays once.
  const [key] = useState(newIdempotencyKey);
  const [claimerName, setClaimerName] = useState('');
  const [claimerIdNumber, setClaimerIdNumber] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const parsed = () => claimPayApprovedSchema.safeParse({ claimerName, claimerIdNumber });

  return (
    <ConfirmDialog
      open
      title="Pay the approved prize"
      confirmLabel={`Pay ${money(claim.amount)} and print receipt`}
      pendingLabel="Paying..."
      validate={() => {
        const result = parsed();
        const next: Errors = {};
        for (const issue of result.error?.issues ?? []) next[issue.path[0] as keyof Errors] ??= issue.message;
        setErrors(next);
        return result.success;
      }}
      onClose={onClose}
      onConfirm={async () => {
        const result = parsed();
        if (!result.success) return null;
        try {
          const paid = await payClaim(claim.winnerId, result.data, key);
          toast.success(`Paid ${money(paid.claim.amount)}`);
          await queryClient.invalidateQueries({ queryKey: claimsQueryKey });
          onClose();
          await onPaid(paid);
          return null;
        } catch (error) {
          return errorMessage(error, 'Failed to pay the prize');
        }
      }}
    >
      <p className="text-sm text-slate-600">
        {claim.gameNumber === null ? 'The game' : `Game #${claim.gameNumber}`}: #{claim.position} {claim.prizeName},{' '}
        {money(claim.amount)}. Its entry has no entry code: the admin approved paying it to one person. Ask for their ID
        document and type its number.
      </p>
      <TextField
        label="Claimer’s name"
        autoComplete="off"
        value={claimerName}
        onChange={(event) => setClaimerName(event.target.value)}
        error={errors.claimerName}
      />
      <TextField
        label="Claimer’s ID number"
        autoComplete="off"
        value={claimerIdNumber}
        onChange={(event) => setClaimerIdNumber(event.target.value)}
        error={errors.claimerIdNumber}
      />
    </ConfirmDialog>
  );
}
