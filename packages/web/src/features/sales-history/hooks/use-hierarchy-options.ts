import { useQueries } from '@tanstack/react-query';
import { childrenQuery, useChildren } from '../api/get-children.ts';
import { byName, useUsersByRole, type PickerUser } from '../api/get-users-by-role.ts';

export type HierarchyOptions = {
  superagents: PickerUser[];
  agents: PickerUser[];
  users: PickerUser[];
  isError: boolean;
};

/**
 * The admin's cascading pickers (docs/product/screens.md#admin-sales-history): super agents; the chosen one's agents (all agents
 * when none is chosen); the chosen agent's users, else everyone under the chosen super agent
 * (its direct users and its agents' users), else all users.
 */
export function useHierarchyOptions(superagentId: number | null, agentId: number | null): HierarchyOptions {
  const superagents = useUsersByRole('superagent');
  const allAgents = useUsersByRole('agent', superagentId === null);
  const ownAgents = useChildren(superagentId, 'agent');
  const agents = (superagentId === null ? allAgents.data : ownAgents.data) ?? [];

  const allUsers = useUsersByRole('user', superagentId === null && agentId === null);
  const agentUsers = useChildren(agentId, 'user');
  const directUsers = useChildren(agentId === null ? superagentId : null, 'user');
  const underAgents = useQueries({
    queries: superagentId !== null && agentId === null ? agents.map((agent) => childrenQuery(agent.id, 'user')) : [],
  });

  let users: PickerUser[];
  if (agentId !== null) users = agentUsers.data ?? [];
  else if (superagentId !== null)
    users = [...(directUsers.data ?? []), ...underAgents.flatMap((q) => q.data ?? [])].sort(byName);
  else users = allUsers.data ?? [];

  return {
    superagents: superagents.data ?? [],
    agents,
    users,
    isError: [superagents, allAgents, ownAgents, allUsers, agentUsers, directUsers, ...underAgents].some(
      (q) => q.isError,
    ),
  };
}
