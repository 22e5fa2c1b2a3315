import { forwardRef, useRef, useState, type InputHTMLAttributes } from 'react';
import type { User } from '@lot/domain/schemas/users';
import { ApiError, errorMessage, onRetrying } from '../../lib/api-client.ts';
import { money } from '../../lib/format.ts';
import { TextField } from './field.tsx';
import { useToast } from './toast.tsx';

type MoneyCallOptions<Field extends string> = {
  /** The fallback when the server's answer says nothing (docs/product/validation-and-errors.md#write-fallbacks). */
  fallback: string;
  /** The form's fields a server refusal may name; a refusal naming one goes on that field. */
  fields: readonly Field[];
  onFieldError: (field: Field, message: string) => void;
};

/**
 * One money call from a dialog (top up, transfer, take back): a second click that lands before the
 * button disables is refused; success toasts the server's message; a refusal goes on the field it
 * names, anything else shows as 'Error: {message}' above the buttons and in a toast
 * (docs/product/validation-and-errors.md#write-fallbacks). While the client sends the call again
 * after no answer, the banner says so (decision 056): a toast sits under the dialog.
 */
export function useMoneyCall<Field extends string>({ fallback, fields, onFieldError }: MoneyCallOptions<Field>) {
  const toast = useToast();
  const [formError, setFormError] = useState<string | null>(null);
  const inFlight = useRef(false);

  /** The call's result once it succeeded; undefined when it was refused or already running. */
  const run = async <Result extends { message: string }>(call: () => Promise<Result>): Promise<Result | undefined> => {
    if (inFlight.current) return undefined;
    inFlight.current = true;
    setFormError(null);
    const stopListening = onRetrying(setFormError);
    try {
      const result = await call();
      setFormError(null);
      toast.success(result.message);
      return result;
    } catch (error) {
      const message = errorMessage(error, fallback);
      const named = error instanceof ApiError ? error.fieldErrors : undefined;
      let onField = false;
      for (const field of fields) {
        const text = named?.[field];
        if (text) {
          onFieldError(field, text);
          onField = true;
        }
      }
      setFormError(onField ? null : `Error: ${message}`);
      toast.error(`Error: ${message}`);
      return undefined;
    } finally {
      stopListening();
      inFlight.current = false;
    }
  };

  return { run, formError, clearFormError: () => setFormError(null) };
}

/** The amount input of every money dialog: dollars and cents, a decimal keypad on phones. */
export const AmountField = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { error?: unknown }
>(function AmountField({ error, ...props }, ref) {
  return (
    <TextField
      ref={ref}
      label="Amount"
      type="number"
      inputMode="decimal"
      step="0.01"
      min="0.01"
      placeholder="0.00"
      error={typeof error === 'string' ? error : undefined}
      {...props}
    />
  );
});

/** Whose money a dialog moves: the account's name and username beside its current balance. */
export function AccountBalance({ label, user, testId }: { label: string; user: User; testId: string }) {
  return (
    <dl className="grid grid-cols-2 gap-3 rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200">
      <div className="min-w-0">
        <dt className="text-slate-500">{label}</dt>
        <dd className="truncate font-medium text-slate-900">{user.fullName}</dd>
        <dd className="truncate text-xs text-slate-500">@{user.username}</dd>
      </div>
      <div className="text-right">
        <dt className="text-slate-500">Current balance</dt>
        <dd data-testid={testId} className="font-semibold text-slate-900 tabular-nums">
          {money(user.balance.amount)}
        </dd>
      </div>
    </dl>
  );
}
