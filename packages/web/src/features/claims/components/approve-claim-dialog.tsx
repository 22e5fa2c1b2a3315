import { useState } from 'react';
import { claimApproveInputSchema, type PrizeClaim } from '@lot/domain/schemas/claims';
import { useApproveClaim } from '../api/approve-claim.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { money } from '../../../lib/format.ts';

type Errors = { claimerIdNumber?: string; reason?: string };

/**
 * The admin approves paying a prize whose entry has no entry code (decision 086): the claimer's ID
 * number the shop must then be shown, and why (the reason goes into the audit trail).
 */
export function ApproveClaimDialog({ claim, onClose }: { claim: PrizeClaim; onClose: () => void }) {
  const approve = useApproveClaim();
  const toast = useToast();
  const [claimerIdNumber, setClaimerIdNumber] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const parsed = () => claimApproveInputSchema.safeParse({ claimerIdNumber, reason });

  return (
    <ConfirmDialog
      open
      title="Approve the payout"
      confirmLabel="Approve"
      pendingLabel="Approving..."
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
          await approve.mutateAsync({ winnerId: claim.winnerId, input: result.data });
          toast.success(`${claim.shopName} can now pay this prize to ID ${result.data.claimerIdNumber}`);
          onClose();
          return null;
        } catch (error) {
          return errorMessage(error, 'Failed to approve the payout');
        }
      }}
    >
      <p className="text-sm text-slate-600">
        {claim.gameNumber === null ? 'The game' : `Game #${claim.gameNumber}`} at {claim.shopName}: #{claim.position}{' '}
        {claim.prizeName}, {money(claim.amount)}. Its entry has no entry code, so no slip can prove who won it. The shop
        can pay it only to the person who shows the ID number you approve.
      </p>
      <TextField
        label="Claimer’s ID number"
        autoComplete="off"
        maxLength={50}
        value={claimerIdNumber}
        onChange={(event) => setClaimerIdNumber(event.target.value)}
        error={errors.claimerIdNumber}
      />
      <TextField
        label="Reason"
        maxLength={200}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={errors.reason}
      />
    </ConfirmDialog>
  );
}
