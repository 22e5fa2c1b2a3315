import { useEffect } from 'react';

/** The browser tab's title for a screen: `{title} · LOT` (docs/product/screens.md#header). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · LOT`;
  }, [title]);
}
