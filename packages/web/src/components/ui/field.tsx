import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

type FieldProps = { label: string; error?: string; hint?: ReactNode };

const inputClass = (error?: string) =>
  `block w-full rounded-lg border-0 px-3 py-2 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-inset focus:outline-hidden sm:text-sm ${
    error ? 'ring-rose-400 focus:ring-rose-500' : 'ring-slate-300 focus:ring-indigo-600'
  } disabled:bg-slate-100 disabled:text-slate-500`;

function FieldFrame({ id, label, error, hint, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-rose-600">
          {error}
        </p>
      ) : hint ? (
        <p className="mt-1 text-xs text-slate-500">{hint}</p>
      ) : null}
    </div>
  );
}

/** A labelled input with its error under it (react-hook-form registers through the ref). */
export const TextField = forwardRef<HTMLInputElement, FieldProps & InputHTMLAttributes<HTMLInputElement>>(
  function TextField({ label, error, hint, id, ...props }, ref) {
    const generated = useId();
    const inputId = id ?? generated;
    return (
      <FieldFrame id={inputId} label={label} error={error} hint={hint}>
        <input
          ref={ref}
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          className={inputClass(error)}
          {...props}
        />
      </FieldFrame>
    );
  },
);

export const SelectField = forwardRef<HTMLSelectElement, FieldProps & SelectHTMLAttributes<HTMLSelectElement>>(
  function SelectField({ label, error, hint, id, children, ...props }, ref) {
    const generated = useId();
    const selectId = id ?? generated;
    return (
      <FieldFrame id={selectId} label={label} error={error} hint={hint}>
        <select
          ref={ref}
          id={selectId}
          aria-invalid={error ? true : undefined}
          className={inputClass(error)}
          {...props}
        >
          {children}
        </select>
      </FieldFrame>
    );
  },
);

/** A form-level error (the server's message when it is not about one field). */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200">
      {message}
    </div>
  );
}
