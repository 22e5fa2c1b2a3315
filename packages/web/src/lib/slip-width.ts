import { useCallback, useState } from 'react';
import { STORAGE_KEYS } from './storage.ts';

/**
 * The paper a shop prints slips on (docs/product/game.md#slips), payout receipts and shift reports
 * too: a 58 mm or 80 mm thermal roll, one slip per page as long as the slip, or an A4/Letter sheet
 * with several slips. Kept per device.
 */
export const SLIP_WIDTHS = ['58mm', '80mm', 'a4'] as const;
export type SlipWidth = (typeof SLIP_WIDTHS)[number];

export const SLIP_WIDTH_LABELS: Record<SlipWidth, string> = {
  '58mm': '58 mm',
  '80mm': '80 mm',
  a4: 'A4 / Letter',
};

export const DEFAULT_SLIP_WIDTH: SlipWidth = '80mm';

export const isThermal = (width: SlipWidth) => width !== 'a4';

export function loadSlipWidth(): SlipWidth {
  const stored = localStorage.getItem(STORAGE_KEYS.slipWidth);
  return SLIP_WIDTHS.find((width) => width === stored) ?? DEFAULT_SLIP_WIDTH;
}

export function saveSlipWidth(width: SlipWidth) {
  localStorage.setItem(STORAGE_KEYS.slipWidth, width);
}

/** The paper chosen on this device, and a setter that keeps the choice. */
export function useSlipWidth(): [SlipWidth, (width: SlipWidth) => void] {
  const [width, setWidth] = useState<SlipWidth>(loadSlipWidth);
  const choose = useCallback((next: SlipWidth) => {
    saveSlipWidth(next);
    setWidth(next);
  }, []);
  return [width, choose];
}
