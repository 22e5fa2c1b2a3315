import type { Role } from '@lot/domain/roles';
import { USER_FORMS, type ManagedRole, type UserFormRules } from './user-form-rules.ts';

export type RoleConfig = {
  listTitle: string;
  searchLabel: string;
  fetchError: string;
  deleteFallback: string;
  /** Whether the list shows a Parent column. */
  showParent: boolean;
  /** Whose people the Parent filter offers (none: the list has no Parent filter). */
  parentRoles: readonly Role[];
  /** The Add New and Edit form. */
  form: UserFormRules;
};

/** The texts per admin list (docs/product/validation-and-errors.md#write-fallbacks). */
export const ROLE_CONFIG: Record<ManagedRole, RoleConfig> = {
  user: {
    listTitle: 'All Users',
    searchLabel: 'Search users',
    fetchError: 'Failed to fetch users',
    deleteFallback: 'Failed to delete user',
    showParent: true,
    parentRoles: ['superagent', 'agent'],
    form: USER_FORMS['admin-user'],
  },
  superagent: {
    listTitle: 'All Super Agents',
    searchLabel: 'Search super agents',
    fetchError: 'Failed to fetch superagents',
    deleteFallback: 'Failed to delete super agent',
    showParent: false,
    parentRoles: [],
    form: USER_FORMS['admin-superagent'],
  },
  agent: {
    listTitle: 'All Agents',
    searchLabel: 'Search agents',
    fetchError: 'Failed to fetch agents',
    deleteFallback: 'Failed to delete agent',
    showParent: true,
    parentRoles: ['superagent'],
    form: USER_FORMS['admin-agent'],
  },
};
