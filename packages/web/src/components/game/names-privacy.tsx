import { Eye, EyeOff } from 'lucide-react';
import { maskName, maskPhone } from '@lot/domain/mask';

/**
 * Names and phones on the play screen, which faces customers: masked as the public pages mask
 * them unless the operator chose to see them (docs/product/game.md#names-on-the-play-screen).
 */
export const shownName = (name: string, reveal: boolean) => (reveal ? name : maskName(name));
export const shownPhone = (phone: string, reveal: boolean) => (reveal ? phone : maskPhone(phone));

export const SHOW_NAMES = 'Show names';

/** Whether names show in full, and the operator's way to change it. */
export type NamesView = { reveal: boolean; setReveal: (reveal: boolean) => void };

/** The operator's switch between masked and full names: a toggle button, pressed while they show. */
export function NamesToggle({ names: { reveal, setReveal }, className }: { names: NamesView; className: string }) {
  const Icon = reveal ? EyeOff : Eye;
  return (
    <button
      type="button"
      aria-pressed={reveal}
      onClick={() => setReveal(!reveal)}
      title={reveal ? 'Names and phones show in full: press to mask them' : 'Press to show names and phones in full'}
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-semibold normal-case focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-yellow-300 ${className}`}
    >
      <Icon className="h-4 w-4" aria-hidden="true" />
      {SHOW_NAMES}
    </button>
  );
}
