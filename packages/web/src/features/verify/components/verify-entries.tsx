import type { GameProof } from '@lot/domain/schemas/games';
import { Section } from './verify-section.tsx';

/** Every entry by number, masked, with its entry hash; a drawn number is green. */
export function EntriesSection({ proof }: { proof: GameProof }) {
  const drawnNumbers = new Set(proof.draws.map((d) => d.number));
  return (
    <Section title={`Entries (${proof.entries.length})`}>
      {proof.entries.length === 0 ? (
        <p className="text-sm text-slate-500">No participants were entered.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {[...proof.entries]
            .sort((a, b) => a.number - b.number)
            .map((entry) => (
              <li key={entry.number} data-testid="verify-entry" className="flex gap-3 py-2.5">
                <span
                  className={`flex h-9 w-11 shrink-0 items-center justify-center rounded-lg font-black ${
                    drawnNumbers.has(entry.number) ? 'bg-emerald-600 text-white' : 'bg-indigo-50 text-indigo-700'
                  }`}
                >
                  {entry.number}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block text-sm font-semibold">
                    {entry.name} · {entry.phoneNumber}
                  </span>
                  <span className="block font-mono text-xs break-all text-slate-500">{entry.entryHash}</span>
                </span>
              </li>
            ))}
        </ul>
      )}
    </Section>
  );
}
