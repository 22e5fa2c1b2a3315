import { useQuery } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';
import { currentShiftQuery } from '../api/get-current-shift.ts';

/** How often the play screen asks again whether a shift is open (the shift screen asks every 15 s). */
const PLAY_SHIFT_REFRESH_MS = 60_000;

/**
 * "No shift open" (docs/product/screens.md#game-play): on the play screen of a shop that uses shifts
 * (it has opened one) while none is open, since its games and payouts then fall outside every Z report.
 * Nothing for a shop that never opened a shift, nor while one is open.
 */
export function NoShiftBanner() {
  const current = useQuery({ ...currentShiftQuery(), refetchInterval: PLAY_SHIFT_REFRESH_MS });
  if (!current.data?.usesShifts || current.data.shift) return null;
  return (
    <div
      role="status"
      data-testid="no-shift-banner"
      className="mb-3 flex flex-wrap items-center justify-center gap-x-3 gap-y-1 bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-950"
    >
      <span className="flex items-center gap-2">
        <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden="true" />
        <span>
          <strong>No shift open.</strong> Games and payouts now fall outside every Z report.
        </span>
      </span>
      <Link to="/user/shift" className="font-semibold underline underline-offset-2 hover:text-amber-800">
        Open a shift
      </Link>
    </div>
  );
}
