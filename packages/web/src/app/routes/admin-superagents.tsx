import { UsersScreen } from '../../features/users/components/users-screen.tsx';

/** Spec screen 4: the admin's list of role superagent. */
export function AdminSuperagentsRoute() {
  return <UsersScreen key="superagent" role="superagent" />;
}
