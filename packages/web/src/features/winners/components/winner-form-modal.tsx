import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { formatBps } from '@lot/domain/game';
import { positionSchema, winnerInputSchema, type Winner, type WinnerInput } from '@lot/domain/schemas/winners';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, SelectField, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useCreateWinner, type WinnerBody } from '../api/create-winner.ts';
import type { Player } from '../api/get-players.ts';
import { useUpdateWinner } from '../api/update-winner.ts';

const FIELDS = ['name', 'percent', 'position', 'description', 'isActive', 'userId'] as const;

/**
 * The domain schema the server validates with, so both say 'Percentage must be between 0 and 100'; but a Position
 * emptied in the form is a mistake to name, not the API's default 1 (docs/product/validation-and-errors.md#winner-form).
 */
const winnerFormSchema = winnerInputSchema.extend({
  position: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? Number.NaN : value),
    positionSchema,
  ),
});

export type WinnerFormModalProps = {
  open: boolean;
  onClose: () => void;
  /** The configuration to edit; none to add one. */
  winner?: Winner | null;
  /** Who a new configuration is for (the user the list is filtered to); null for global. */
  defaultUserId?: number | null;
  /**
   * The admin's User picker. Left out on a user's own settings (docs/product/screens.md#my-winner-settings): no User field,
   * and the server makes a new configuration the caller's own.
   */
  players?: Player[];
};

/** Add / Edit Winner Configuration (docs/product/screens.md, rules in section 5). */
export function WinnerFormModal({ open, onClose, winner = null, defaultUserId = null, players }: WinnerFormModalProps) {
  return (
    <Modal open={open} title={winner ? 'Edit Winner Configuration' : 'Add Winner Configuration'} onClose={onClose}>
      {/* Mounted only while open, so every opening starts from the configuration it edits. */}
      {open && <WinnerForm winner={winner} defaultUserId={defaultUserId} players={players} onDone={onClose} />}
    </Modal>
  );
}

function WinnerForm({
  winner,
  defaultUserId,
  players,
  onDone,
}: {
  winner: Winner | null;
  defaultUserId: number | null;
  players: Player[] | undefined;
  onDone: () => void;
}) {
  const toast = useToast();
  const create = useCreateWinner();
  const update = useUpdateWinner();
  const [failure, setFailure] = useState<string | null>(null);
  const ownerId = winner ? winner.userId : defaultUserId;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(winnerFormSchema),
    defaultValues: {
      name: winner?.name ?? '',
      percent: winner?.percent ?? '',
      position: winner?.position ?? 1,
      description: winner?.description ?? '',
      isActive: winner?.isActive ?? true,
      userId: ownerId === null ? '' : String(ownerId),
    },
  });

  const save = async (values: WinnerInput) => {
    setFailure(null);
    const body: WinnerBody = {
      name: values.name,
      percent: formatBps(values.percent),
      position: values.position,
      description: values.description ?? null,
      isActive: values.isActive,
      // The owner of an existing configuration cannot change (the field is locked in edit).
      userId: winner ? winner.userId : (values.userId ?? null),
    };
    try {
      if (winner) await update.mutateAsync({ id: winner.id, ...body });
      else await create.mutateAsync(body);
      toast.success(winner ? `${body.name} updated` : `${body.name} created`);
      onDone();
    } catch (error) {
      const fields = error instanceof ApiError ? (error.fieldErrors ?? {}) : {};
      // A user's own form has no User field: an error about the owner goes to the banner.
      const placed = FIELDS.filter((field) => fields[field] && (players || field !== 'userId'));
      for (const field of placed) setError(field, { type: 'server', message: fields[field] }, { shouldFocus: true });
      if (placed.length === 0)
        setFailure(errorMessage(error, winner ? 'Failed to update winner' : 'Failed to create winner'));
    }
  };

  const busy = isSubmitting || create.isPending || update.isPending;
  const message = (value: unknown) => (typeof value === 'string' ? value : undefined);
  // A configuration whose owner is not in the list (an inactive account) still shows who it is.
  const owner = winner?.user;
  const ownerListed = !owner || (players ?? []).some((p) => p.id === owner.id);

  return (
    <form onSubmit={(event) => void handleSubmit(save, () => setFailure(null))(event)} noValidate className="space-y-4">
      <FormError message={failure} />
      <TextField
        label="Name"
        autoComplete="off"
        placeholder="First Prize"
        error={message(errors.name?.message)}
        {...register('name')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Percentage"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          max="100"
          placeholder="50.00"
          error={message(errors.percent?.message)}
          {...register('percent')}
        />
        <TextField
          label="Position"
          type="number"
          inputMode="numeric"
          step="1"
          min="1"
          error={message(errors.position?.message)}
          {...register('position')}
        />
      </div>
      <TextField
        label="Description (Optional)"
        autoComplete="off"
        error={message(errors.description?.message)}
        {...register('description')}
      />
      {players && (
        <SelectField
          label="User"
          disabled={winner !== null}
          hint={winner ? 'The owner of a configuration cannot change.' : 'Leave empty for a global configuration.'}
          error={message(errors.userId?.message)}
          {...register('userId')}
        >
          <option value="">Global (all users)</option>
          {!ownerListed && owner && (
            <option value={String(owner.id)}>
              {owner.fullName} ({owner.username})
            </option>
          )}
          {players.map((player) => (
            <option key={player.id} value={String(player.id)}>
              {player.fullName} ({player.username})
            </option>
          ))}
        </SelectField>
      )}
      <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
          {...register('isActive')}
        />
        Active
      </label>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : winner ? 'Update Configuration' : 'Create Configuration'}
        </Button>
      </div>
    </form>
  );
}
