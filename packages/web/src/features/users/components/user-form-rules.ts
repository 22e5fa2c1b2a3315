import { MESSAGES } from '@lot/domain/messages';
import { ROLE_LABELS, type Role } from '@lot/domain/roles';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useParentOptions } from '../api/get-parent-options.ts';
import { useScopedUsers } from '../api/get-scoped-users.ts';

/** The roles an admin manages (docs/product/screens.md#admin-people-lists). */
export type ManagedRole = Exclude<Role, 'admin'>;

/** The three forms of docs/product/screens.md#hierarchy-people-screens. */
export type HierarchyFormKind = 'superagent-agent' | 'superagent-user' | 'agent-user';

/** Every user form: the admin's one per role, and the hierarchy screens' three. */
export type UserFormKind = `admin-${ManagedRole}` | HierarchyFormKind;

export type ParentChoice = { value: string; label: string };
/** Choices under a heading (an optgroup, left out when it has none) or, without one, plain options. */
export type ParentGroup = { heading?: string; choices: ParentChoice[] };
export type ParentChoices = { isPending: boolean; isError: boolean; groups: ParentGroup[] };

/** A form's parent select: its words, and the hook that loads its choices. */
export type ParentField = {
  label: string;
  /** The first option (value ''). */
  placeholder: string;
  /** The message when nothing is chosen; null: the field may stay empty. */
  requiredMessage: string | null;
  /** The hint under the select when its choices failed to load. */
  failedHint: string;
  /** The hint under the select while no parent is chosen: what that means (docs/product/roles-and-scope.md#hierarchy). */
  emptyHint?: string;
  useChoices: () => ParentChoices;
};

export type UserFormRules = {
  /** The role the form creates. */
  role: ManagedRole;
  /** In titles and buttons: 'Edit Agent', 'Update User'. */
  noun: string;
  /** The create dialog's title and the button that opens it: 'Add New Super Agent', 'Add User'. */
  addLabel: string;
  /**
   * docs/product/validation-and-errors.md#user-forms: the admin's and the super agent's forms
   * check lengths and characters in the
   * domain's words; the agent's form only requires (the server may still refuse a short value,
   * and its message is then shown on the field).
   */
  strict: boolean;
  /** Null: no parent select, and the server decides the parent. */
  parent: ParentField | null;
  createFallback: string;
  updateFallback: string;
};

const SUPERAGENTS: readonly Role[] = ['superagent'];
const SUPERAGENTS_AND_AGENTS: readonly Role[] = ['superagent', 'agent'];

function useSuperagentChoices(): ParentChoices {
  const parents = useParentOptions(SUPERAGENTS);
  const choices = (parents.data ?? []).map((p) => ({ value: String(p.id), label: `${p.fullName} (${p.username})` }));
  return { isPending: parents.isPending, isError: parents.isError, groups: [{ choices }] };
}

function useAnyParentChoices(): ParentChoices {
  const parents = useParentOptions(SUPERAGENTS_AND_AGENTS);
  const group = (heading: string, role: Role): ParentGroup => ({
    heading,
    choices: (parents.data ?? [])
      .filter((p) => p.role === role)
      .map((p) => ({ value: String(p.id), label: `${p.fullName} (${ROLE_LABELS[p.role]})` })),
  });
  return {
    isPending: parents.isPending,
    isError: parents.isError,
    groups: [group('Super Agents', 'superagent'), group('Agents', 'agent')],
  };
}

/** A super agent's user belongs to the super agent itself or to one of its agents. */
function useSelfOrAgentChoices(): ParentChoices {
  const me = useCurrentUser();
  const agents = useScopedUsers('agent');
  const choices = [
    { value: String(me.id), label: 'Me (Super Agent)' },
    ...(agents.data ?? []).map((agent) => ({ value: String(agent.id), label: `${agent.fullName} (Agent)` })),
  ];
  return { isPending: agents.isPending, isError: agents.isError, groups: [{ choices }] };
}

const user = {
  role: 'user',
  noun: 'User',
  createFallback: 'Failed to create user',
  updateFallback: 'Failed to update user',
} as const;
const agent = {
  role: 'agent',
  noun: 'Agent',
  createFallback: 'Failed to create agent',
  updateFallback: 'Failed to update agent',
} as const;

/** The role a kind of form creates: 'superagent-agent' creates agents. */
type CreatedRole<K extends UserFormKind> = K extends `${string}-${infer R extends ManagedRole}` ? R : never;

/** Each form's rules and fallback messages (docs/product/validation-and-errors.md#user-forms, #write-fallbacks). */
export const USER_FORMS: { [K in UserFormKind]: UserFormRules & { role: CreatedRole<K> } } = {
  'admin-user': {
    ...user,
    addLabel: 'Add New User',
    strict: true,
    parent: {
      label: 'Parent (Optional)',
      placeholder: 'No parent',
      requiredMessage: null,
      failedHint: 'Failed to fetch users',
      emptyHint: 'Without a super agent or agent, this user is managed by the admin directly.',
      useChoices: useAnyParentChoices,
    },
  },
  'admin-superagent': {
    role: 'superagent',
    noun: 'Super Agent',
    addLabel: 'Add New Super Agent',
    strict: true,
    parent: null,
    createFallback: 'Failed to create super agent',
    updateFallback: 'Failed to update super agent',
  },
  'admin-agent': {
    ...agent,
    addLabel: 'Add New Agent',
    strict: true,
    parent: {
      label: 'Super Agent',
      placeholder: 'Select Super Agent',
      requiredMessage: MESSAGES.superAgentRequired,
      failedHint: 'Failed to fetch super agents',
      useChoices: useSuperagentChoices,
    },
  },
  // The server makes the super agent the parent of its new agents.
  'superagent-agent': { ...agent, addLabel: 'Add Agent', strict: true, parent: null },
  'superagent-user': {
    ...user,
    addLabel: 'Add User',
    strict: true,
    parent: {
      label: 'Parent',
      placeholder: 'Select Parent',
      requiredMessage: MESSAGES.parentRequired,
      failedHint: 'Failed to fetch agents',
      useChoices: useSelfOrAgentChoices,
    },
  },
  // The server makes the agent the parent of its new users.
  'agent-user': { ...user, addLabel: 'Add User', strict: false, parent: null },
};
