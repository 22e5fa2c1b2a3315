import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { AlertTriangle, Loader2, Printer } from 'lucide-react';
import type { Participant } from '@lot/domain/game';
import { participantFormSchema } from '@lot/domain/schemas/sales-history';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useRememberedParticipants } from '../api/get-participants.ts';

/**
 * Enter Participant Details: who plays a number (Name and Phone Number, both required). A number
 * already chosen opens with its participant, to correct the details or give the number back. The
 * dialog stays open until the server has the list: a refusal or a lost connection is said here and
 * what was typed stays in the fields for another try. `onSave` and `onRemove` answer null once the
 * server has the list, else the reason to show; Save and print slip saves, then prints the
 * customer's slip (`andPrint`), so the cashier hands it over without leaving the screen.
 * `poolWarning`: said for a new participant whose bet makes the pool more than the balance, before
 * the customer pays.
 */
export function ParticipantModal({
  number,
  participant,
  poolWarning,
  onSave,
  onRemove,
  onClose,
}: {
  number: number | null;
  participant: Participant | null;
  poolWarning: string | null;
  onSave: (participant: Participant, andPrint: boolean) => Promise<string | null>;
  onRemove: (number: number) => Promise<string | null>;
  onClose: () => void;
}) {
  return (
    <Modal open={number !== null} title="Enter Participant Details" onClose={onClose}>
      {number !== null && (
        <ParticipantForm
          key={number}
          number={number}
          participant={participant}
          poolWarning={participant ? null : poolWarning}
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
  poolWarning,
  onSave,
  onRemove,
  onClose,
}: {
  number: number;
  participant: Participant | null;
  poolWarning: string | null;
  onSave: (participant: Participant, andPrint: boolean) => Promise<string | null>;
  onRemove: (number: number) => Promise<string | null>;
  onClose: () => void;
}) {
  const [saving, setSaving] = useState<'save' | 'print' | 'remove' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (kind: 'save' | 'print' | 'remove', call: () => Promise<string | null>) => {
    setSaving(kind);
    setFailure(null);
    const error = await call();
    setSaving(null);
    if (error) setFailure(error);
  };
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(participantFormSchema),
    defaultValues: { name: participant?.name ?? '', phoneNumber: participant?.phoneNumber ?? '' },
  });
  const [name, phoneNumber] = useWatch({ control, name: ['name', 'phoneNumber'] });
  const save = (andPrint: boolean) =>
    handleSubmit(async (values) => {
      if (saving) return;
      await run(andPrint ? 'print' : 'save', () => onSave({ number, ...values }, andPrint));
    });
  const suggestions = useSuggestions(participant === null ? name || phoneNumber : '');
  const offered = suggestions.filter((s) => s.name !== name || s.phoneNumber !== phoneNumber);

  return (
    <form noValidate className="space-y-4" onSubmit={(event) => void save(false)(event)}>
      <p className="flex items-center gap-3 text-slate-700">
        <span
          data-testid="participant-number"
          className="inline-flex h-14 min-w-14 items-center justify-center rounded-xl bg-indigo-700 px-3 text-3xl font-black text-white"
        >
          {number}
        </span>
        <span>Who is playing this number?</span>
      </p>
      {poolWarning && (
        <p
          data-testid="participant-pool-warning"
          className="flex items-start gap-2 rounded-lg bg-amber-100 px-3 py-2 text-sm font-semibold text-amber-950 ring-1 ring-amber-400"
        >
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>{poolWarning}</span>
        </p>
      )}
      <TextField label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Phone Number"
        type="tel"
        autoComplete="off"
        error={errors.phoneNumber?.message}
        {...register('phoneNumber')}
      />
      {offered.length > 0 && (
        <div data-testid="participant-suggestions">
          <p className="mb-1.5 text-sm font-medium text-slate-600">Played here before</p>
          <ul className="flex flex-wrap gap-2">
            {offered.map((s) => (
              <li key={`${s.name}\n${s.phoneNumber}`}>
                <button
                  type="button"
                  onClick={() => {
                    setValue('name', s.name, { shouldValidate: true });
                    setValue('phoneNumber', s.phoneNumber, { shouldValidate: true });
                  }}
                  className="rounded-lg bg-slate-100 px-3 py-1.5 text-left text-sm text-slate-800 ring-1 ring-slate-200 hover:bg-indigo-50 hover:ring-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
                >
                  <span className="font-semibold">{s.name}</span>{' '}
                  <span className="text-slate-600">{s.phoneNumber}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {failure && (
        <p
          role="alert"
          data-testid="participant-error"
          className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800 ring-1 ring-rose-200"
        >
          {failure} Nothing was changed; what you typed is still here to try again.
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2 pt-2">
        {participant && (
          <Button
            variant="danger"
            className="mr-auto"
            disabled={saving !== null}
            onClick={() => void run('remove', () => onRemove(number))}
          >
            {saving === 'remove' && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
            Remove
          </Button>
        )}
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        {/* Enter still saves alone; the sale's usual end, the slip in the customer's hand, is the main button. */}
        <Button type="submit" variant="secondary" disabled={saving !== null}>
          {saving === 'save' && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
          Save
        </Button>
        <Button disabled={saving !== null} onClick={() => void save(true)()}>
          {saving === 'print' ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <Printer className="h-4 w-4" aria-hidden="true" />
          )}
          Save and print slip
        </Button>
      </div>
    </form>
  );
}

/**
 * Names and phones this shop used before, for a new participant: searched by what is typed (the
 * name, else the phone) a quarter of a second after typing stops, so a fast typist sends one request.
 */
function useSuggestions(typed: string) {
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const remembered = useRememberedParticipants(search);
  return search.trim().length >= 2 ? (remembered.data ?? []) : [];
}
