import { useEffect, useRef, useState } from 'react';
import { X } from 'lucide-react';
import { GAME_RULES } from '@lot/domain/game';
import type { GameTheme } from '../../../lib/game/game-theme.ts';

/**
 * Numbers Left (docs/product/screens.md): each number nobody chose, one every 3 seconds, spoken by its clip
 * (/audio/{n}.m4a at volume 0.7); the overlay closes 3 seconds after the last one. Escape or the
 * close button stops it early.
 */
export function NumbersLeftOverlay({
  numbers,
  theme,
  onClose,
}: {
  numbers: number[];
  theme: GameTheme;
  onClose: () => void;
}) {
  const [index, setIndex] = useState(0);
  const audio = useRef<HTMLAudioElement>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  const number = numbers[index];

  useEffect(() => {
    const clip = audio.current;
    if (clip) {
      clip.volume = GAME_RULES.numbersLeftAudioVolume;
      // A browser that refuses to play (no sound device, autoplay rules) still shows the numbers.
      clip.play().catch(() => undefined);
    }
    const timer = setTimeout(() => {
      if (index + 1 < numbers.length) setIndex(index + 1);
      else close.current();
    }, GAME_RULES.numbersLeftIntervalMs);
    return () => clearTimeout(timer);
  }, [index, numbers.length]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label="Numbers Left"
      className={`fixed inset-0 z-50 flex flex-col items-center justify-center gap-6 p-6 ${theme.page}`}
    >
      <button
        type="button"
        onClick={onClose}
        // Keyboard users land on the one control of the overlay (Escape closes it too).
        autoFocus
        aria-label="Close Numbers Left"
        className={`absolute top-4 right-4 rounded-full p-3 ${theme.secondary}`}
      >
        <X className="h-8 w-8" aria-hidden="true" />
      </button>
      <h2 className="text-2xl font-bold tracking-widest uppercase sm:text-4xl">Numbers Left</h2>
      <p
        data-testid="numbers-left-number"
        aria-live="assertive"
        className={`text-[10rem] leading-none font-black tabular-nums sm:text-[18rem] lg:text-[24rem] ${theme.accent}`}
      >
        {number}
      </p>
      <p data-testid="numbers-left-progress" className={`text-xl font-semibold sm:text-3xl ${theme.muted}`}>
        {index + 1} of {numbers.length}
      </p>
      {number !== undefined && (
        <audio key={number} ref={audio} src={`/audio/${number}.m4a`} preload="auto" data-number={number} />
      )}
    </div>
  );
}
