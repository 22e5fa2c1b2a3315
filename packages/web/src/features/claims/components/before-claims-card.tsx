import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Card } from '../../../components/ui/panels.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { count, money } from '../../../lib/format.ts';
import { useMarkBeforeClaimsPaid } from '../api/mark-before-claims-paid.ts';

/**
 * The admin's bulk action on the prizes won before prize claims existed (decision 060): they were
 * never payable here; once the admin confirms that the shops paid them at the time, all of them
 * are marked "Paid before prize claims" in one audited call.
 */
export function BeforeClaimsCard({ total, amount }: { total: number; amount: string }) {
  const [confirming, setConfirming] = useState(false);
  const mark = useMarkBeforeClaimsPaid();
  const prizes = `${count(total)} prize${total === 1 ? '' : 's'}`;
  return (
    <Card title="Prizes from before claims">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-700">
          {prizes} ({money(amount)}) were won before prize claims existed. Nobody recorded whether they were paid, so
          they can never be paid here. If the shops paid them at the time, mark them paid.
        </p>
        <Button className="shrink-0" onClick={() => setConfirming(true)}>
          Mark All as Paid
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Mark prizes from before claims as paid"
        confirmLabel={`Mark ${prizes} as Paid`}
        pendingLabel="Marking..."
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          try {
            await mark.mutateAsync();
            setConfirming(false);
            return null;
          } catch (error) {
            return errorMessage(error, 'Failed to mark the prizes');
          }
        }}
      >
        <p className="text-sm text-slate-700">
          {prizes} worth {money(amount)} will be recorded as paid before prize claims. This is kept in the audit trail
          and cannot be undone.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
