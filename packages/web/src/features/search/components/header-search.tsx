import { lazy, Suspense, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Search, X } from 'lucide-react';
import { SEARCH_MAX } from '@lot/domain/search';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useSearch } from '../api/search.ts';
import { searchOptions } from './search-options.ts';

const loadResults = () => import('./search-results.tsx');
const SearchResults = lazy(loadResults);

/** How long typing pauses before the server is asked. */
const DEBOUNCE_MS = 250;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The header's search (docs/product/screens.md#header, decision 022): an ARIA combobox over the
 * people in the caller's scope and the games they may read. Arrow keys move through the list,
 * Enter opens the row, Escape closes the list (a second Escape empties the box). From 1024 px
 * the box stands in the header; below, a button opens it over the header.
 */
export function HeaderSearch() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const listboxId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  // Below 1024 px the box is folded behind a button.
  const [unfolded, setUnfolded] = useState(false);
  const [activeId, setActiveId] = useState<string>();
  const q = useDebouncedValue(text.trim(), DEBOUNCE_MS);
  const typed = text.trim();
  const search = useSearch(q);
  const options = q === '' ? [] : searchOptions(search.data);
  const waiting = typed !== q || search.isFetching;
  const active = options.find((o) => o.id === activeId);

  // A navigation (a pick, a link elsewhere) folds it all; adjusted while rendering, not in an effect.
  const [shownAt, setShownAt] = useState(pathname);
  if (shownAt !== pathname) {
    setShownAt(pathname);
    setOpen(false);
    setUnfolded(false);
  }

  /** Closes and empties the search once a row is chosen (a click's link navigates by itself). */
  const done = () => {
    setOpen(false);
    setUnfolded(false);
    setText('');
    input.current?.blur();
  };
  const pick = (href: string) => {
    done();
    void navigate(href);
  };

  const move = (step: number) => {
    if (options.length === 0) return;
    const at = options.findIndex((o) => o.id === activeId);
    const next = at === -1 ? (step > 0 ? 0 : options.length - 1) : (at + step + options.length) % options.length;
    setActiveId(options[next]?.id);
    document.getElementById(options[next]?.id ?? '')?.scrollIntoView({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        move(event.key === 'ArrowDown' ? 1 : -1);
        break;
      case 'Home':
      case 'End':
        if (!open || options.length === 0) return;
        event.preventDefault();
        setActiveId(options[event.key === 'Home' ? 0 : options.length - 1]?.id);
        break;
      case 'Enter':
        // Enter opens the chosen row; with none chosen, the only row there is.
        if (!open) return;
        event.preventDefault();
        if (active) pick(active.href);
        else if (options.length === 1 && options[0]) pick(options[0].href);
        break;
      case 'Escape':
        event.preventDefault();
        if (open && typed !== '') setOpen(false);
        else if (text !== '') setText('');
        else {
          setUnfolded(false);
          input.current?.blur();
        }
        break;
    }
  };

  const showList = open && typed !== '';
  const status = waiting
    ? 'Searching…'
    : search.isError
      ? search.error.message || 'Search failed. Try again.'
      : options.length === 0
        ? `No people or games match “${q}”`
        : undefined;
  const people = search.data?.people.length ?? 0;
  const games = search.data?.games.length ?? 0;

  return (
    <>
      <button
        type="button"
        aria-label="Search"
        onClick={() => {
          setUnfolded(true);
          // The box appears in this render; focus it when it is there.
          requestAnimationFrame(() => input.current?.focus());
        }}
        className="ml-auto rounded-full p-2 text-slate-500 hover:bg-slate-100 lg:hidden"
      >
        <Search className="h-5 w-5" />
      </button>
      <div
        className={
          unfolded
            ? 'absolute inset-0 z-30 flex items-center gap-2 bg-white px-4 lg:static lg:ml-auto lg:max-w-sm lg:flex-1 lg:bg-transparent lg:px-0'
            : 'relative ml-auto hidden max-w-sm flex-1 lg:flex'
        }
      >
        <div className="relative flex flex-1 items-center gap-2 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-500 focus-within:ring-2 focus-within:ring-indigo-600">
          <Search className="h-4 w-4 shrink-0" aria-hidden="true" />
          <input
            ref={input}
            type="text"
            role="combobox"
            aria-label="Search people and games"
            aria-expanded={showList}
            aria-controls={listboxId}
            aria-autocomplete="list"
            aria-activedescendant={showList ? active?.id : undefined}
            placeholder="Search people or games..."
            autoComplete="off"
            spellCheck={false}
            maxLength={SEARCH_MAX}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
            }}
            onFocus={() => {
              void loadResults();
              setOpen(true);
            }}
            onBlur={() => setOpen(false)}
            onKeyDown={onKeyDown}
            className="w-full min-w-0 bg-transparent text-slate-900 outline-none placeholder:text-slate-600"
          />
          {showList && (
            <div className="fixed inset-x-0 top-16 z-30 border-b border-slate-200 bg-white shadow-lg lg:absolute lg:inset-x-auto lg:top-full lg:right-0 lg:mt-2 lg:w-[28rem] lg:rounded-xl lg:border lg:ring-1 lg:ring-slate-200">
              {status !== undefined && (
                <p className="px-4 py-3 text-sm text-slate-500" role={search.isError ? 'alert' : undefined}>
                  {status}
                </p>
              )}
              {options.length > 0 && (
                <Suspense fallback={null}>
                  <SearchResults
                    listboxId={listboxId}
                    options={options}
                    activeId={active?.id}
                    onPick={done}
                    onHover={setActiveId}
                  />
                </Suspense>
              )}
            </div>
          )}
        </div>
        {unfolded && (
          <button
            type="button"
            aria-label="Close search"
            onClick={() => {
              setUnfolded(false);
              setText('');
            }}
            className="rounded-full p-2 text-slate-500 hover:bg-slate-100 lg:hidden"
          >
            <X className="h-5 w-5" />
          </button>
        )}
        <p className="sr-only" aria-live="polite">
          {showList && !waiting && !search.isError && q !== ''
            ? `${plural(people, 'person', 'people')} and ${plural(games, 'game', 'games')} found`
            : ''}
        </p>
      </div>
    </>
  );
}
