import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { CheckCircle2, X, XCircle } from 'lucide-react';
import { onRetrying } from '../../lib/api-client.ts';

type Toast = { id: number; kind: 'success' | 'error'; message: string };
type Notify = { success: (message: string) => void; error: (message: string) => void };

const ToastContext = createContext<Notify | null>(null);

/**
 * Notices for the outcome of an action ('Funds successfully transferred to {name}', 'Error: …'), shown
 * in the page rather than as a blocking browser alert (docs/product/validation-and-errors.md#notices).
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (kind: Toast['kind'], message: string) => {
      const id = Date.now() + Math.random();
      setToasts((all) => [...all, { id, kind, message }]);
      setTimeout(() => dismiss(id), 6000);
    },
    [dismiss],
  );
  const notify = useMemo<Notify>(
    () => ({ success: (m) => push('success', m), error: (m) => push('error', m) }),
    [push],
  );
  // A keyed call sent again after no answer says so while it tries (decision 056).
  useEffect(() => {
    const stop = onRetrying(notify.error);
    return () => void stop();
  }, [notify]);
  return (
    <ToastContext.Provider value={notify}>
      {children}
      <div
        aria-live="polite"
        // At the bottom (right, on a wide screen), so a notice never covers the page's heading; on a
        // shop's big screen (1536 px and up) large enough to read across the room.
        className="pointer-events-none fixed inset-x-0 bottom-4 z-[60] flex flex-col items-center gap-2 px-4 sm:inset-x-auto sm:right-4 sm:items-end"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role={toast.kind === 'error' ? 'alert' : 'status'}
            className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-xl px-4 py-3 text-sm shadow-lg ring-1 2xl:max-w-xl 2xl:px-6 2xl:py-4 2xl:text-xl ${
              toast.kind === 'success'
                ? 'bg-emerald-50 text-emerald-800 ring-emerald-200'
                : 'bg-rose-50 text-rose-800 ring-rose-200'
            }`}
          >
            {toast.kind === 'success' ? (
              <CheckCircle2 className="h-5 w-5 shrink-0" />
            ) : (
              <XCircle className="h-5 w-5 shrink-0" />
            )}
            <span className="flex-1">{toast.message}</span>
            <button
              type="button"
              aria-label="Dismiss"
              onClick={() => dismiss(toast.id)}
              className="opacity-60 hover:opacity-100"
            >
              <X className="h-4 w-4" />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Notify {
  const notify = useContext(ToastContext);
  if (!notify) throw new Error('useToast outside ToastProvider');
  return notify;
}
