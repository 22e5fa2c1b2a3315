import { useState, type FormEvent } from 'react';
import { Loader2, Search } from 'lucide-react';
import type { GameProof } from '@lot/domain/schemas/games';
import { findOwnEntries } from '@lot/domain/verify';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { money } from '../../../lib/format.ts';

/**
 * The entry code a slip's QR code carries in the address's fragment (`/verify/{code}#n=<nonce>`).
 * A fragment never leaves the browser, and the page sends it nowhere: it is only hashed here.
 */
export function nonceFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('n')?.trim() ?? '';
}

/** The code as printed may be grouped ('3f2a 9c01 …' or with dashes): what is hashed is its 16 hex digits. */
const normalized = (code: string) => code.replace(/[\s-]+/g, '').toLowerCase();

/**
 * A participant types their name and phone and the entry code from their slip (filled in when the
 * page was opened from the slip's QR code): the page hashes them here and lists every number they
 * hold in the game, whatever the case, spacing and accents of the name and the punctuation of the
 * phone (docs/product/game.md#find-my-entry). Games from before entry codes are found by name and phone.
 */
export function FindMyEntry({ proof }: { proof: GameProof }) {
  const [fromSlip] = useState(() => nonceFromFragment(window.location.hash));
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [nonce, setNonce] = useState(fromSlip);
  const [found, setFound] = useState<number[] | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !phone.trim()) {
      setError('Type your name and your phone number as you gave them to the shop.');
      return;
    }
    const code = normalized(nonce);
    if (code && !/^[0-9a-f]{16}$/.test(code)) {
      setError('The entry code is the 16 letters and digits printed on your slip (0–9 and a–f).');
      return;
    }
    setError(null);
    setPending(true);
    try {
      setFound(await findOwnEntries(proof, { name, phoneNumber: phone, nonce: code }));
    } catch (failure) {
      setError(`This browser could not check it (${String(failure)}).`);
    } finally {
      setPending(false);
    }
  };

  return (
    <section
      aria-labelledby="find-entry-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="find-entry-title" className="mb-3 text-base font-semibold">
        Find my entry
      </h2>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="grid gap-3 lg:grid-cols-[1fr_1fr_1fr_auto] lg:items-start"
      >
        <TextField label="Your name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        <TextField
          label="Your phone number"
          type="tel"
          autoComplete="tel"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
        />
        <TextField
          label="Entry code (on your slip)"
          autoComplete="off"
          spellCheck={false}
          value={nonce}
          onChange={(e) => setNonce(e.target.value)}
          hint={fromSlip ? 'Filled in from your slip’s QR code.' : 'Games from before entry codes: leave it empty.'}
        />
        <Button type="submit" disabled={pending} className="lg:mt-6">
          {pending ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <Search className="h-4 w-4" aria-hidden="true" />
          )}
          Find
        </Button>
      </form>
      <p className="mt-2 text-xs text-slate-500">Checked in this browser: what you type is not sent anywhere.</p>
      {error && (
        <p role="alert" className="mt-3 text-sm text-rose-600">
          {error}
        </p>
      )}
      {found && (
        <div role="status" data-testid="own-entry" data-numbers={found.join(',')} className="mt-3">
          {found.length === 0 ? (
            <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm font-semibold text-slate-700">
              No entry matches that name, phone number and entry code. Type the name and phone number you gave the shop
              (capitals, spaces, accents and letters like ø or ß do not matter, nor + or 00 before the country code) and
              the code as printed on your slip.
            </p>
          ) : (
            <>
              <p className="text-sm font-semibold text-emerald-800">
                {found.length === 1
                  ? 'You hold 1 number in this game:'
                  : `You hold ${found.length} numbers in this game:`}
              </p>
              <ul className="mt-2 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
                {found.map((number) => (
                  <li key={number} data-testid="own-number" className="flex items-center gap-3 px-3 py-2">
                    <span className="flex h-9 w-11 shrink-0 items-center justify-center rounded-lg bg-indigo-50 font-black text-indigo-700">
                      {number}
                    </span>
                    <span className="min-w-0 text-sm text-slate-700">{outcomeOf(proof, number)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}

/** What became of one number: drawn (and paid or not), would have been drawn (a voided game), or not drawn. */
function outcomeOf(proof: GameProof, number: number): string {
  const prizeName = (position: number) => proof.prizes.find((p) => p.position === position)?.name ?? '';
  const drawn = proof.draws.find((d) => d.number === number);
  if (drawn) {
    const where = `Drawn for position ${drawn.position} (${prizeName(drawn.position)})`;
    if (proof.status === 'voided') return `${where}: not paid, the game was voided.`;
    return `${where}: prize ${money(drawn.prizeAmount)}.`;
  }
  const unplayed = proof.unplayedDraws.find((d) => d.number === number);
  if (unplayed) {
    return `Would have been drawn for position ${unplayed.position} (${prizeName(unplayed.position)}): not played, the game was voided.`;
  }
  return proof.status === 'open' || proof.status === 'drawing' ? 'Not drawn yet.' : 'Not drawn.';
}
