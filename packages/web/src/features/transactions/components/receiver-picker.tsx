import { useId, useState } from 'react';
import { Loader2, Search, UserRound } from 'lucide-react';
import { useReceivers, type Receiver } from '../api/get-receivers.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';

/**
 * Choose who receives: search by username or full name (case-insensitive, on the server), pick
 * one from the matches. Once chosen, the choice is shown with a way to change it.
 */
export function ReceiverPicker({
  selfId,
  selected,
  onSelect,
  error,
}: {
  selfId: number;
  selected: Receiver | null;
  onSelect: (receiver: Receiver | null) => void;
  error?: string;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 250);
  const receivers = useReceivers(debounced, selfId, selected === null);
  const searching = receivers.isFetching || debounced !== search;

  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        Receiver
      </label>
      {selected ? (
        <div
          data-testid="selected-receiver"
          className="flex items-center gap-3 rounded-lg bg-indigo-50 px-3 py-2 ring-1 ring-inset ring-indigo-200"
        >
          <UserRound className="h-5 w-5 shrink-0 text-indigo-500" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-slate-900">{selected.fullName}</p>
            <p className="truncate text-xs text-slate-500">@{selected.username}</p>
          </div>
          <button
            id={id}
            type="button"
            onClick={() => onSelect(null)}
            className="rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-100"
          >
            Change
          </button>
        </div>
      ) : (
        <>
          <div className="relative">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
              aria-hidden="true"
            />
            <input
              id={id}
              type="text"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Search by username or full name"
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              className={`block w-full rounded-lg border-0 py-2 pr-9 pl-9 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-inset sm:text-sm ${
                error ? 'ring-rose-400 focus:ring-rose-500' : 'ring-slate-300 focus:ring-indigo-600'
              }`}
            />
            {searching && (
              <Loader2
                className="absolute top-1/2 right-3 h-4 w-4 -translate-y-1/2 animate-spin text-slate-400"
                aria-hidden="true"
              />
            )}
          </div>
          <div className="mt-2 max-h-52 overflow-y-auto rounded-lg ring-1 ring-slate-200">
            {receivers.isError ? (
              <p className="px-3 py-4 text-center text-sm text-rose-600">Failed to fetch users</p>
            ) : receivers.data === undefined ? (
              <p className="px-3 py-4 text-center text-sm text-slate-500">Loading...</p>
            ) : receivers.data.length === 0 ? (
              <p className="px-3 py-4 text-center text-sm text-slate-500">No users found</p>
            ) : (
              <ul aria-label="Matching users" className="divide-y divide-slate-100">
                {receivers.data.map((receiver) => (
                  <li key={receiver.id}>
                    <button
                      type="button"
                      onClick={() => onSelect(receiver)}
                      className="flex w-full items-center gap-3 px-3 py-2 text-left hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-none"
                    >
                      <span
                        aria-hidden="true"
                        className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-slate-100 text-sm font-semibold text-slate-600"
                      >
                        {(receiver.fullName.trim()[0] ?? 'U').toUpperCase()}
                      </span>
                      <span className="min-w-0 flex-1">
                        <span className="block truncate text-sm font-medium text-slate-900">{receiver.fullName}</span>
                        <span className="block truncate text-xs text-slate-500">@{receiver.username}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-rose-600">
          {error}
        </p>
      )}
    </div>
  );
}
