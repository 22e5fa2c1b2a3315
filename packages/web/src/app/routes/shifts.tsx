import { useSearchParams } from 'react-router';
import { shiftsFilterAt } from '../../features/shifts/api/get-shifts.ts';
import { ShiftsListScreen } from '../../features/shifts/components/shifts-list-screen.tsx';

/** docs/product/screens.md#shifts: /admin/shifts, /superagent/shifts, /agent/shifts (the server scopes the list). */
export function ShiftsRoute() {
  const [search] = useSearchParams();
  return <ShiftsListScreen initial={shiftsFilterAt(search)} />;
}
