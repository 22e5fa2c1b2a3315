import { ShiftScreen } from '../../features/shifts/components/shift-screen.tsx';

/** docs/product/screens.md#shift: /user/shift, the shop's cash shift with its X and Z reports. */
export function UserShiftRoute() {
  return <ShiftScreen />;
}
