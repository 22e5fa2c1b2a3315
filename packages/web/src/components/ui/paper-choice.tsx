import { useId } from 'react';
import { SLIP_WIDTH_LABELS, SLIP_WIDTHS, type SlipWidth } from '../../lib/slip-width.ts';

/**
 * The paper slips, payout receipts and shift reports print on (58 mm, 80 mm, A4 / Letter;
 * lib/slip-width.ts): one setting, kept on this device, chosen here on every screen that prints.
 */
export function PaperChoice({
  width,
  onChange,
  label = 'Paper',
}: {
  width: SlipWidth;
  onChange: (width: SlipWidth) => void;
  label?: string;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{label}</legend>
      <div className="mt-1.5 inline-flex rounded-lg bg-slate-100 p-1">
        {SLIP_WIDTHS.map((option) => (
          <label
            key={option}
            className={`cursor-pointer rounded-md px-3 py-1.5 text-sm font-semibold whitespace-nowrap has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 ${
              width === option ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
            }`}
          >
            <input
              type="radio"
              name={name}
              value={option}
              checked={width === option}
              onChange={() => onChange(option)}
              className="sr-only"
            />
            {SLIP_WIDTH_LABELS[option]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
