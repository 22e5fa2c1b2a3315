import type { UserStatus } from '@lot/domain/roles';
import type { User } from '@lot/domain/schemas/users';
import type { HierarchyFormKind } from './user-form-rules.ts';

/** The super agent's toggle (docs/product/screens.md#superagent-users). */
export type UsersFilter = 'all' | 'mine' | 'agents';
export const SHOW_OPTIONS: { value: UsersFilter; label: string }[] = [
  { value: 'all', label: 'All Users' },
  { value: 'mine', label: 'My Users' },
  { value: 'agents', label: 'Agent Users' },
];

export type ScopedFilter = { kind: HierarchyFormKind; show: UsersFilter; status: UserStatus | ''; search: string };

/**
 * The people a hierarchy screen lists out of everyone of the role in scope: an agent's direct users,
 * the super agent's toggle (by parentId, docs/product/roles-and-scope.md#scope), a status, and a
 * search in the username, full name or shop name, as the server's lists search.
 */
export function filterScopedUsers(all: readonly User[], meId: number, filter: ScopedFilter): User[] {
  const text = filter.search.trim().toLowerCase();
  return all.filter(
    (user) =>
      (filter.kind !== 'agent-user' || user.parentId === meId) &&
      (filter.kind !== 'superagent-user' ||
        filter.show === 'all' ||
        (filter.show === 'mine') === (user.parentId === meId)) &&
      (!filter.status || user.status === filter.status) &&
      (!text ||
        user.username.toLowerCase().includes(text) ||
        user.fullName.toLowerCase().includes(text) ||
        (user.shopName ?? '').toLowerCase().includes(text)),
  );
}
