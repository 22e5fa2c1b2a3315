import { HierarchyUsers } from '../shared/hierarchy-users.tsx';

/** Spec screen 11: the super agent's direct users and its agents' users. */
export function SuperagentUsersRoute() {
  return <HierarchyUsers kind="superagent-user" title="Users Management" />;
}
