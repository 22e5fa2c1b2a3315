import { UsersScreen } from '../../features/users/components/users-screen.tsx';

/** docs/product/screens.md#admin-people-lists: the admin's list of role user. */
export function AdminUsersRoute() {
  return <UsersScreen key="user" role="user" />;
}
