import { useState, type ReactNode } from 'react';
import { Loader2 } from 'lucide-react';
import { Button } from './button.tsx';
import { FormError } from './field.tsx';
import { Modal } from './modal.tsx';

/**
 * The one confirmation before a destructive action (a delete, a reset): what will happen, Cancel,
 * and the action's button. While the action runs, both buttons are disabled and the dialog stays;
 * a refusal is shown in it, so it can be read, and nothing else changes.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  pendingLabel = confirmLabel,
  onConfirm,
  onClose,
  validate,
  size = 'sm',
  children,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  pendingLabel?: string;
  /** Does the action: null when done (the caller closes the dialog), else the message to show. */
  onConfirm: () => Promise<string | null>;
  onClose: () => void;
  /** Checked before the action; false keeps the dialog open (the content shows why). */
  validate?: () => boolean;
  size?: 'sm' | 'md';
  children: ReactNode;
}) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    if (pending) return;
    setFailure(null);
    onClose();
  };

  const confirm = async () => {
    if (pending || (validate && !validate())) return;
    setPending(true);
    setFailure(null);
    try {
      setFailure(await onConfirm());
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal open={open} title={title} size={size} onClose={close}>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        {children}
        <FormError message={failure} />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={pending}>
            {pending && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />}
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
