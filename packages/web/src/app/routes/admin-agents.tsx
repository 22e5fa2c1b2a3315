import { UsersScreen } from '../../features/users/components/users-screen.tsx';

/** Spec screen 5: the admin's list of role agent. */
export function AdminAgentsRoute() {
  return <UsersScreen key="agent" role="agent" />;
}
