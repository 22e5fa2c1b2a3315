import { HierarchyUsers } from '../compositions/hierarchy-users.tsx';

/** docs/product/screens.md#superagent-agents: the super agent's own agents (the server forces their parent to the super agent). */
export function SuperagentAgentsRoute() {
  return <HierarchyUsers kind="superagent-agent" title="Agents" />;
}
