import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useSetServerRandomness } from '../api/draw-randomness.ts';

/**
 * The confirmation before LOT-DRAW-1 is allowed (or stopped) while the beacon cannot be reached
 * (decision 061): what it gives away, and that it is recorded and every admin told.
 */
export function ServerRandomnessDialog({
  open,
  allow,
  onClose,
}: {
  open: boolean;
  allow: boolean;
  onClose: () => void;
}) {
  const toast = useToast();
  const change = useSetServerRandomness();

  const confirm = async () => {
    try {
      await change.mutateAsync(allow);
      toast.success(allow ? 'LOT-DRAW-1 allowed while the beacon cannot be reached' : 'LOT-DRAW-1 stopped');
      onClose();
      return null;
    } catch (error) {
      return errorMessage(error, 'Failed to change the setting');
    }
  };

  return (
    <ConfirmDialog
      open={open}
      title={allow ? 'Allow LOT-DRAW-1' : 'Stop LOT-DRAW-1'}
      confirmLabel={allow ? 'Allow LOT-DRAW-1' : 'Stop LOT-DRAW-1'}
      pendingLabel="Saving..."
      onConfirm={confirm}
      onClose={onClose}
    >
      {allow ? (
        <div className="space-y-2 text-sm text-slate-600">
          <p>
            While the public randomness beacon cannot be reached, new games will open as LOT-DRAW-1: their numbers come
            from the server alone, and whoever holds its seed could know every draw in advance.
          </p>
          <p>
            Anyone who can cut this server off from the internet could then choose that for every game. Each such game
            is labelled “Server randomness only” on its slip and proof. The change is recorded in the audit trail and
            every admin is notified.
          </p>
        </div>
      ) : (
        <p className="text-sm text-slate-600">
          While the beacon cannot be reached, new games will wait for it again (they cannot open until it answers). The
          change is recorded in the audit trail and every admin is notified.
        </p>
      )}
    </ConfirmDialog>
  );
}
