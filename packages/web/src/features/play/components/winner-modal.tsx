import { Trophy } from 'lucide-react';
import { formatMoney, type Cents } from '@lot/domain/money';
import { Modal } from '../../../components/ui/modal.tsx';
import { NamesToggle, shownName, shownPhone, type NamesView } from '../../../components/game/names-privacy.tsx';

export type DrawnWinner = {
  number: number;
  name: string;
  phoneNumber: string;
  prizeName: string;
  prizeAmount: Cents;
};

/**
 * We Have a Winner!: shown only when the drawn number belongs to a participant, the name and phone
 * masked unless `names.reveal`; its Show names comes after Continue, so Continue has the focus.
 */
export function WinnerModal({
  winner,
  names,
  onContinue,
}: {
  winner: DrawnWinner | null;
  names: NamesView;
  onContinue: () => void;
}) {
  return (
    <Modal open={winner !== null} title="We Have a Winner!" size="lg" onClose={onContinue}>
      {winner && (
        <div className="space-y-5 text-center">
          <Trophy className="mx-auto h-12 w-12 text-amber-500" aria-hidden="true" />
          <p
            data-testid="winner-number"
            className="mx-auto flex h-28 w-28 items-center justify-center rounded-full bg-emerald-700 text-6xl font-black text-white sm:h-40 sm:w-40 sm:text-8xl"
          >
            {winner.number}
          </p>
          <div className="min-w-0">
            {/* A long name wraps (within a word too) rather than being cut short on a phone. */}
            <p data-testid="winner-name" className="text-3xl font-bold break-words text-slate-900 sm:text-5xl">
              {shownName(winner.name, names.reveal)}
            </p>
            <p data-testid="winner-phone" className="text-lg text-slate-600">
              {shownPhone(winner.phoneNumber, names.reveal)}
            </p>
          </div>
          <p className="text-xl break-words text-slate-700 sm:text-2xl">
            {winner.prizeName}:{' '}
            <span className="text-3xl font-black text-emerald-700 sm:text-4xl">{formatMoney(winner.prizeAmount)}</span>
          </p>
          <button
            type="button"
            onClick={onContinue}
            className="w-full rounded-2xl bg-emerald-700 px-6 py-4 text-2xl font-bold text-white shadow-lg hover:bg-emerald-800 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
          >
            Continue
          </button>
          <div className="flex justify-center">
            <NamesToggle names={names} className="bg-slate-100 text-slate-800 hover:bg-slate-200" />
          </div>
        </div>
      )}
    </Modal>
  );
}
