import type { Role } from '@lot/domain/roles';

/** The three lists an admin manages (spec screens 3–5). */
export type ManagedRole = Exclude<Role, 'admin'>;

export type RoleConfig = {
  /** One of them, in titles and buttons: 'Add New Super Agent', 'Edit Agent'. */
  noun: string;
  listTitle: string;
  searchLabel: string;
  fetchError: string;
  createFallback: string;
  updateFallback: string;
  deleteFallback: string;
  /** Who may be the parent; empty: the form has no parent field. */
  parentRoles: readonly Role[];
  /** Spec section 5: an agent needs a super agent ('Super Agent is required'); a user may have none. */
  parentRequired: boolean;
  /** Whether the list shows a Parent column. */
  showParent: boolean;
};

/** The spec's texts per list (section 8 names the fallbacks one by one). */
export const ROLE_CONFIG: Record<ManagedRole, RoleConfig> = {
  user: {
    noun: 'User',
    listTitle: 'All Users',
    searchLabel: 'Search users',
    fetchError: 'Failed to fetch users',
    createFallback: 'Failed to create user',
    updateFallback: 'Failed to update user',
    deleteFallback: 'Failed to delete user',
    parentRoles: ['superagent', 'agent'],
    parentRequired: false,
    showParent: true,
  },
  superagent: {
    noun: 'Super Agent',
    listTitle: 'All Super Agents',
    searchLabel: 'Search super agents',
    fetchError: 'Failed to fetch superagents',
    createFallback: 'Failed to create super agent',
    updateFallback: 'Failed to update super agent',
    deleteFallback: 'Failed to delete super agent',
    parentRoles: [],
    parentRequired: false,
    showParent: false,
  },
  agent: {
    noun: 'Agent',
    listTitle: 'All Agents',
    searchLabel: 'Search agents',
    fetchError: 'Failed to fetch agents',
    createFallback: 'Failed to create agent',
    updateFallback: 'Failed to update agent',
    deleteFallback: 'Failed to delete agent',
    parentRoles: ['superagent'],
    parentRequired: true,
    showParent: true,
  },
};
