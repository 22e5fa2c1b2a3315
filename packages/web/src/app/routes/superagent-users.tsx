import { HierarchyUsers } from '../compositions/hierarchy-users.tsx';

/** docs/product/screens.md#superagent-users: the super agent's direct users and its agents' users. */
export function SuperagentUsersRoute() {
  return <HierarchyUsers kind="superagent-user" title="Users Management" />;
}
