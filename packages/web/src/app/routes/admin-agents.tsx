import { UsersScreen } from '../../features/users/components/users-screen.tsx';

/** docs/product/screens.md#admin-people-lists: the admin's list of role agent. */
export function AdminAgentsRoute() {
  return <UsersScreen key="agent" role="agent" />;
}
