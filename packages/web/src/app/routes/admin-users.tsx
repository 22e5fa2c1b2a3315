import { UsersScreen } from '../../features/users/components/users-screen.tsx';

/** Spec screen 3: the admin's list of role user. */
export function AdminUsersRoute() {
  return <UsersScreen key="user" role="user" />;
}
