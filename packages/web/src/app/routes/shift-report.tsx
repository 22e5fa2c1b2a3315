import { useParams } from 'react-router';
import { useCurrentUser } from '../../lib/auth.tsx';
import { ShiftReportScreen } from '../../features/shifts/components/shift-report-screen.tsx';

/** docs/product/screens.md#shift-report: /shifts/:shiftId, for the shop and its upline (the server decides). */
export function ShiftReportRoute() {
  const { shiftId } = useParams();
  const { role } = useCurrentUser();
  const id = Number(shiftId);
  const backTo =
    role === 'user'
      ? { to: '/user/shift', label: 'Back to the shift' }
      : { to: `/${role}/shifts`, label: 'Back to shifts' };
  return <ShiftReportScreen key={id} shiftId={Number.isInteger(id) && id > 0 ? id : null} backTo={backTo} />;
}
