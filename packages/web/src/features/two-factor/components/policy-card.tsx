import { useState } from 'react';
import { MESSAGES } from '@lot/domain/messages';
import { ROLES, type Role } from '@lot/domain/roles';
import { Button } from '../../../components/ui/button.tsx';
import { FormError } from '../../../components/ui/field.tsx';
import { Card, Spinner } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useTwoFactorPolicy } from '../api/get-two-factor-policy.ts';
import { useSaveTwoFactorPolicy } from '../api/save-two-factor-policy.ts';

const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admins',
  superagent: 'Super Agents',
  agent: 'Agents',
  user: 'Users',
};

/** The admin's setting: which roles must sign in with two factors. */
export function TwoFactorPolicyCard() {
  const policy = useTwoFactorPolicy();
  return (
    <Card title="Two-factor policy">
      {policy.isPending ? (
        <Spinner />
      ) : policy.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {errorMessage(policy.error, 'Failed to load the two-factor policy')}
        </p>
      ) : (
        <PolicyForm key={policy.data.roles.join()} roles={policy.data.roles} />
      )}
    </Card>
  );
}

function PolicyForm({ roles }: { roles: Role[] }) {
  const save = useSaveTwoFactorPolicy();
  const toast = useToast();
  const [chosen, setChosen] = useState<Set<Role>>(() => new Set(roles));
  const [failure, setFailure] = useState<string | null>(null);
  const toggle = (role: Role) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(role)) next.add(role);
      return next;
    });

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        setFailure(null);
        save.mutate(
          { roles: ROLES.filter((role) => chosen.has(role)) },
          {
            onSuccess: () => toast.success(MESSAGES.twoFactorPolicySaved),
            onError: (error) => setFailure(errorMessage(error, 'Failed to save the two-factor policy')),
          },
        );
      }}
    >
      <fieldset>
        <legend className="text-sm text-slate-600">
          Users of these roles must sign in with a code from an authenticator app. Those without it are sent to set it
          up at their next sign-in.
        </legend>
        <div className="mt-3 grid grid-cols-2 gap-2">
          {ROLES.map((role) => (
            <label key={role} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                name="roles"
                value={role}
                checked={chosen.has(role)}
                onChange={() => toggle(role)}
                className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
              />
              {ROLE_LABELS[role]}
            </label>
          ))}
        </div>
      </fieldset>
      <FormError message={failure} />
      <Button type="submit" variant="secondary" className="w-full" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save policy'}
      </Button>
    </form>
  );
}
