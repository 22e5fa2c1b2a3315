import { Search } from 'lucide-react';

/** A list's search box: a magnifier inside, the whole width on a phone, 16 rem beside other controls. */
export function SearchInput({
  label,
  value,
  onChange,
  placeholder = 'Search by username or name',
}: {
  /** Its accessible name ('Search users'); the placeholder is no label. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}) {
  return (
    <div className="relative sm:w-64">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
        aria-hidden="true"
      />
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="block w-full rounded-lg border-0 py-2 pr-3 pl-9 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-indigo-600"
      />
    </div>
  );
}
