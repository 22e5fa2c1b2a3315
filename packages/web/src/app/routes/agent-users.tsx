import { HierarchyUsers } from '../compositions/hierarchy-users.tsx';

/** docs/product/screens.md#agent-users: the agent's direct users; new ones get the agent as parent. */
export function AgentUsersRoute() {
  return <HierarchyUsers kind="agent-user" title="Users Management" />;
}
