import { useCallback, useEffect, useState } from 'react';
import { GAME_RULES } from '@lot/domain/game';

/** Typing a name or a number must not toggle fullscreen. */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/**
 * The play screen's fullscreen toggle (docs/product/screens.md#game-play): the button, F11 or the F key; entering it
 * shows a hint for 5 seconds.
 */
export function useFullscreen() {
  const [isFullscreen, setIsFullscreen] = useState(() => document.fullscreenElement !== null);
  const [hint, setHint] = useState(false);

  const toggle = useCallback(() => {
    const change = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen({ navigationUI: 'hide' });
    // A refused request (no user gesture, a browser without the API) leaves the page as it is.
    change?.catch(() => undefined);
  }, []);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      const entered = document.fullscreenElement !== null;
      setIsFullscreen(entered);
      setHint(entered);
      clearTimeout(timer);
      if (entered) timer = setTimeout(() => setHint(false), GAME_RULES.fullscreenHintMs);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // F11 would otherwise be the browser's own fullscreen, which the page cannot leave or see.
      const wanted = event.key === 'F11' || ((event.key === 'f' || event.key === 'F') && !isTyping(event.target));
      if (!wanted || document.querySelector('[role="dialog"]')) return;
      event.preventDefault();
      toggle();
    };
    document.addEventListener('fullscreenchange', onChange);
    document.addEventListener('keydown', onKey);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('fullscreenchange', onChange);
      document.removeEventListener('keydown', onKey);
    };
  }, [toggle]);

  return { isFullscreen, hint, toggle };
}
