import { useState } from 'react';
import { isDay, PRESETS, presetOf, presetPeriod, type Period } from '../../lib/periods.ts';
import { TextField } from './field.tsx';

/**
 * docs/product/screens.md#period-picker: Today, This week, This month, Last month, or Custom days
 * (from and to, both inclusive). A custom period is shown once both days are real and in order.
 */
export function PeriodPicker({ value, onChange }: { value: Period; onChange: (next: Period) => void }) {
  const preset = presetOf(value);
  const [custom, setCustom] = useState<Period | null>(preset ? null : value);
  const draft = custom ?? value;
  const invalid = custom !== null && isDay(draft.from) && isDay(draft.to) && draft.from > draft.to;

  const pick = (next: Period) => {
    setCustom(next);
    if (isDay(next.from) && isDay(next.to) && next.from <= next.to) onChange(next);
  };

  const chip = 'rounded-full px-3 py-1.5 text-sm font-medium ring-1 ring-inset transition';
  const chipOn = 'bg-indigo-600 text-white ring-indigo-600';
  const chipOff = 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50';

  return (
    <div data-testid="period-picker" className="space-y-3">
      <div role="group" aria-label="Period" className="flex flex-wrap gap-2">
        {PRESETS.map(({ name, label }) => {
          const on = custom === null && preset === name;
          return (
            <button
              key={name}
              type="button"
              aria-pressed={on}
              className={`${chip} ${on ? chipOn : chipOff}`}
              onClick={() => {
                setCustom(null);
                onChange(presetPeriod(name));
              }}
            >
              {label}
            </button>
          );
        })}
        <button
          type="button"
          aria-pressed={custom !== null || preset === null}
          className={`${chip} ${custom !== null || preset === null ? chipOn : chipOff}`}
          onClick={() => setCustom(value)}
        >
          Custom
        </button>
      </div>
      {(custom !== null || preset === null) && (
        <div className="grid max-w-md grid-cols-2 gap-3">
          <TextField
            label="From"
            type="date"
            value={draft.from}
            max={isDay(draft.to) ? draft.to : undefined}
            onChange={(event) => pick({ ...draft, from: event.target.value })}
          />
          <TextField
            label="To"
            type="date"
            value={draft.to}
            min={isDay(draft.from) ? draft.from : undefined}
            error={invalid ? 'The end day must be on or after the start day.' : undefined}
            onChange={(event) => pick({ ...draft, to: event.target.value })}
          />
        </div>
      )}
    </div>
  );
}
