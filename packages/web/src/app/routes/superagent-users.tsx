import { HierarchyUsers } from './hierarchy-users.tsx';

/** Spec screen 11: the super agent's direct users and its agents' users. */
export function SuperagentUsersRoute() {
  return <HierarchyUsers kind="superagent-user" title="Users Management" />;
}
