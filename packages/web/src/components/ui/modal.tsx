import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { X } from 'lucide-react';

/**
 * A dialog on the browser's own modal `<dialog>` (docs/decisions/019-dialogs-on-the-native-dialog.md): while it is open
 * the page behind is inert (Tab stays inside, nothing behind can be clicked or read out), Escape,
 * a backdrop click and the close button call `onClose`, the page does not scroll, focus moves to
 * the first field (or button) and returns where it was. The parent decides whether it is open.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  size = 'md',
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  const closing = useRef(false);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const element = dialog.current;
    if (!open || !element) return;
    const previous = document.activeElement as HTMLElement | null;
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    closing.current = false;
    if (!element.open) element.showModal();
    const first = element.querySelector<HTMLElement>('input, select, textarea, button:not([data-close])');
    (first ?? element).focus();
    return () => {
      // The dialog leaves the page with this cleanup (a closed Modal renders nothing): its close
      // event must not call onClose a second time.
      closing.current = true;
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  const width = size === 'sm' ? 'sm:max-w-sm' : size === 'lg' ? 'sm:max-w-2xl' : 'sm:max-w-lg';
  return createPortal(
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      // Escape: the parent closes it (and may refuse, e.g. while a call is pending).
      onCancel={(event) => {
        event.preventDefault();
        close.current();
      }}
      // Closed by the browser itself (a second Escape it will not let a page refuse): tell the parent.
      onClose={() => {
        if (!closing.current) close.current();
      }}
      // The dialog box is the panel itself, so a click on the dialog element is a click on the backdrop.
      onClick={(event) => {
        if (event.target === event.currentTarget) close.current();
      }}
      className={`mx-auto mt-auto mb-0 max-h-[90vh] w-full max-w-full overflow-y-auto rounded-t-2xl bg-white p-0 shadow-xl backdrop:bg-slate-900/50 sm:my-auto sm:rounded-2xl ${width}`}
    >
      <div className="p-6">
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          <button
            type="button"
            data-close
            onClick={onClose}
            aria-label="Close"
            className="rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-700"
          >
            <X className="h-5 w-5" />
          </button>
        </div>
        {children}
      </div>
    </dialog>,
    document.body,
  );
}
