import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Participant } from '@lot/domain/game';
import { participantFormSchema } from '@lot/domain/schemas/sales-history';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

/**
 * Enter Participant Details: who plays a number (Name and Phone Number, both required). A number
 * already chosen opens with its participant, to correct the details or give the number back.
 */
export function ParticipantModal({
  number,
  participant,
  onSave,
  onRemove,
  onClose,
}: {
  number: number | null;
  participant: Participant | null;
  onSave: (participant: Participant) => void;
  onRemove: (number: number) => void;
  onClose: () => void;
}) {
  return (
    <Modal open={number !== null} title="Enter Participant Details" onClose={onClose}>
      {number !== null && (
        <ParticipantForm
          key={number}
          number={number}
          participant={participant}
          onSave={onSave}
          onRemove={onRemove}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function ParticipantForm({
  number,
  participant,
  onSave,
  onRemove,
  onClose,
}: {
  number: number;
  participant: Participant | null;
  onSave: (participant: Participant) => void;
  onRemove: (number: number) => void;
  onClose: () => void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(participantFormSchema),
    defaultValues: { name: participant?.name ?? '', phoneNumber: participant?.phoneNumber ?? '' },
  });

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => void handleSubmit((values) => onSave({ number, ...values }))(event)}
    >
      <p className="flex items-center gap-3 text-slate-700">
        <span
          data-testid="participant-number"
          className="inline-flex h-14 min-w-14 items-center justify-center rounded-xl bg-indigo-700 px-3 text-3xl font-black text-white"
        >
          {number}
        </span>
        <span>Who is playing this number?</span>
      </p>
      <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Phone Number"
        type="tel"
        autoComplete="off"
        error={errors.phoneNumber?.message}
        {...register('phoneNumber')}
      />
      <div className="flex flex-wrap justify-end gap-2 pt-2">
        {participant && (
          <Button variant="danger" className="mr-auto" onClick={() => onRemove(number)}>
            Remove
          </Button>
        )}
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit">Save</Button>
      </div>
    </form>
  );
}
