export const ROLES = ['admin', 'superagent', 'agent', 'user'] as const;
export type Role = (typeof ROLES)[number];

export const USER_STATUSES = ['active', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** docs/product/roles-and-scope.md#roles: any role value other than admin, superagent or agent is an ordinary user. */
export function normalizeRole(role: unknown): Role {
  return role === 'admin' || role === 'superagent' || role === 'agent' ? role : 'user';
}

export function dashboardPath(role: unknown): string {
  return `/${normalizeRole(role)}/dashboard`;
}

/** Which roles may be the parent of a user of the given role (null: no parent). */
export const ALLOWED_PARENT_ROLES: Record<Role, readonly (Role | null)[]> = {
  admin: [null],
  superagent: [null],
  agent: ['superagent'],
  user: [null, 'superagent', 'agent'],
};

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  superagent: 'Super Agent',
  agent: 'Agent',
  user: 'User',
};
