import { useId, useState, type InputHTMLAttributes } from 'react';
import { formatCents, type Cents } from '@lot/domain/money';
import { gameSetupSchema, type GameSetup } from '@lot/domain/schemas/sales-history';
import type { GameTheme } from '../../../lib/game/game-theme.ts';

export const SELECTION_OUTSIDE_RANGE = 'Selected numbers must stay within the range';

type Draft = { startRange: string; endRange: string; betAmount: string };
type Errors = Partial<Record<keyof Draft, string>>;

function ErrorText({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 rounded bg-rose-50 px-2 py-1 text-sm font-medium text-rose-800">
      {message}
    </p>
  );
}

/** A big, theme-coloured input; its message shows under it, or under its group (`errorId`). */
function GameInput({
  label,
  error,
  errorId,
  theme,
  className = '',
  ...props
}: { label?: string; error?: string; errorId?: string; theme: GameTheme } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={className}>
      {label && (
        <label htmlFor={id} className="mb-1 block text-sm font-semibold tracking-wide uppercase">
          {label}
        </label>
      )}
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? (errorId ?? `${id}-error`) : undefined}
        className={`block w-full rounded-lg border-0 px-3 py-2 text-2xl font-bold tabular-nums outline-hidden ${theme.input} ${
          error ? 'ring-4 ring-rose-500' : ''
        }`}
        {...props}
      />
      {!errorId && <ErrorText id={`${id}-error`} message={error} />}
    </div>
  );
}

/**
 * Number Range and Bet Amount (docs/product/validation-and-errors.md), checked as they are typed: a valid setup applies at
 * once, an invalid one says why under its field and changes nothing. Locked once the draw starts.
 */
export function GameSetupFields({
  startRange,
  endRange,
  betCents,
  selectedNumbers,
  locked,
  theme,
  onChange,
}: {
  startRange: number;
  endRange: number;
  betCents: Cents;
  selectedNumbers: number[];
  locked: boolean;
  theme: GameTheme;
  onChange: (setup: GameSetup) => void;
}) {
  const [draft, setDraft] = useState<Draft>({
    startRange: String(startRange),
    endRange: String(endRange),
    betAmount: formatCents(betCents).replace(/\.00$/, ''),
  });
  const [errors, setErrors] = useState<Errors>({});
  const rangeErrorId = useId();

  const edit = (field: keyof Draft, value: string) => {
    const next = { ...draft, [field]: value };
    setDraft(next);
    const parsed = gameSetupSchema.safeParse(next);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Draft;
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    const { startRange: start, endRange: end } = parsed.data;
    if (selectedNumbers.some((n) => n < start || n > end)) {
      setErrors({ [field === 'betAmount' ? 'endRange' : field]: SELECTION_OUTSIDE_RANGE });
      return;
    }
    setErrors({});
    onChange(parsed.data);
  };

  return (
    <div className="flex flex-wrap items-start gap-x-6 gap-y-3">
      <fieldset className="max-w-xs min-w-0">
        <legend className="mb-1 text-sm font-semibold tracking-wide uppercase">Number Range</legend>
        <div className="flex items-start gap-2">
          <GameInput
            theme={theme}
            className="w-24"
            errorId={rangeErrorId}
            type="number"
            inputMode="numeric"
            min={1}
            max={99}
            value={draft.startRange}
            disabled={locked}
            error={errors.startRange}
            aria-label="Range start"
            onChange={(event) => edit('startRange', event.target.value)}
          />
          <span className="pt-3 text-lg font-semibold">to</span>
          <GameInput
            theme={theme}
            className="w-24"
            errorId={rangeErrorId}
            type="number"
            inputMode="numeric"
            min={2}
            max={100}
            value={draft.endRange}
            disabled={locked}
            error={errors.endRange}
            aria-label="Range end"
            onChange={(event) => edit('endRange', event.target.value)}
          />
        </div>
        <ErrorText id={rangeErrorId} message={errors.startRange ?? errors.endRange} />
      </fieldset>
      <GameInput
        label="Bet Amount"
        theme={theme}
        className="w-36"
        type="text"
        inputMode="decimal"
        value={draft.betAmount}
        disabled={locked}
        error={errors.betAmount}
        onChange={(event) => edit('betAmount', event.target.value)}
      />
    </div>
  );
}
