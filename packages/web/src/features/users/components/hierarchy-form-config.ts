/** The three forms of the hierarchy screens (spec screens 10, 11 and 14). */
export type FormKind = 'superagent-agent' | 'superagent-user' | 'agent-user';

export type FormConfig = {
  /** In titles and buttons: 'Add User', 'Update Agent'. */
  noun: string;
  role: 'agent' | 'user';
  /** Spec section 5: the super agent's forms check lengths and characters; the agent's only requires. */
  strict: boolean;
  /** Only the super agent's users form picks a parent (itself or one of its agents). */
  parentField: boolean;
  createFallback: string;
  updateFallback: string;
};

export const FORM_CONFIG: Record<FormKind, FormConfig> = {
  'superagent-agent': {
    noun: 'Agent',
    role: 'agent',
    strict: true,
    parentField: false,
    createFallback: 'Failed to create agent',
    updateFallback: 'Failed to update agent',
  },
  'superagent-user': {
    noun: 'User',
    role: 'user',
    strict: true,
    parentField: true,
    createFallback: 'Failed to create user',
    updateFallback: 'Failed to update user',
  },
  'agent-user': {
    noun: 'User',
    role: 'user',
    strict: false,
    parentField: false,
    createFallback: 'Failed to create user',
    updateFallback: 'Failed to update user',
  },
};
