import { UsersScreen } from '../../features/users/components/users-screen.tsx';

/** docs/product/screens.md#admin-people-lists: the admin's list of role superagent. */
export function AdminSuperagentsRoute() {
  return <UsersScreen key="superagent" role="superagent" />;
}
