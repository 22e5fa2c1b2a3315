import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { gameTitle } from '@lot/domain/game';
import { ROLE_LABELS } from '@lot/domain/roles';
import type { GameStatus } from '@lot/domain/schemas/games';
import { dateTime } from '../../../lib/format.ts';
import type { SearchOption } from './search-options.ts';

const GAME_STATUS: Record<GameStatus, string> = {
  open: 'Open',
  drawing: 'Drawing',
  settled: 'Settled',
  voided: 'Voided',
  discarded: 'Discarded',
};

type Props = {
  listboxId: string;
  options: SearchOption[];
  activeId: string | undefined;
  onPick: () => void;
  onHover: (id: string) => void;
};

/**
 * The header search's list (loaded the first time the box is used, so the shell's first screen
 * does not carry it): people, then games, each row a link. Focus stays in the box; the row the
 * arrow keys reach is `aria-activedescendant` there and highlighted here.
 */
export default function SearchResults({ listboxId, options, activeId, onPick, onHover }: Props) {
  const people = options.filter((o) => o.kind === 'person');
  const games = options.filter((o) => o.kind === 'game');
  const row = (option: SearchOption) => {
    const active = option.id === activeId;
    return (
      <li key={option.id} id={option.id} role="option" aria-selected={active}>
        <Link
          to={option.href}
          tabIndex={-1}
          onClick={onPick}
          onMouseMove={() => onHover(option.id)}
          // The box keeps the focus: a click must not blur it (and close the list) before it lands.
          onMouseDown={(event) => event.preventDefault()}
          className={`flex items-center gap-3 px-3 py-2 text-sm ${active ? 'bg-indigo-50 text-indigo-900' : 'text-slate-700'}`}
        >
          {option.kind === 'person' ? (
            <>
              <span
                aria-hidden="true"
                className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700"
              >
                {(option.person.fullName.trim()[0] ?? 'U').toUpperCase()}
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium text-slate-900">{option.person.fullName}</span>
                <span className="block truncate text-xs text-slate-500">
                  @{option.person.username} · {ROLE_LABELS[option.person.role]}
                  {option.person.shopName && ` · ${option.person.shopName}`}
                  {option.person.status === 'inactive' && ' · Inactive'}
                </span>
              </span>
            </>
          ) : (
            <>
              <span
                aria-hidden="true"
                className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-amber-100 text-xs font-semibold text-amber-800"
              >
                #
              </span>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-mono text-xs font-medium text-slate-900">{option.game.code}</span>
                <span className="block truncate text-xs text-slate-500">
                  {gameTitle(option.game.number)} · {option.game.player.fullName} · {GAME_STATUS[option.game.status]} ·{' '}
                  {dateTime(option.game.createdAt)}
                </span>
                {option.game.participant && (
                  <span data-testid="search-participant" className="block truncate text-xs text-slate-700">
                    Participant: {option.game.participant.name} · {option.game.participant.phoneNumber}
                  </span>
                )}
              </span>
            </>
          )}
        </Link>
      </li>
    );
  };
  return (
    <ul
      id={listboxId}
      role="listbox"
      aria-label="Search results"
      className="max-h-[min(24rem,70vh)] overflow-y-auto py-1"
    >
      <Section label="People">{people.map(row)}</Section>
      <Section label="Games">{games.map(row)}</Section>
    </ul>
  );
}

/** One group of results under its heading; nothing when it holds no row. */
function Section({ label, children }: { label: string; children: ReactNode[] }) {
  if (children.length === 0) return null;
  return (
    <li role="presentation">
      <p aria-hidden="true" className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {label}
      </p>
      <ul role="group" aria-label={label}>
        {children}
      </ul>
    </li>
  );
}
