import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { MESSAGES } from '@lot/domain/messages';
import type { UserStatus } from '@lot/domain/roles';
import { fullNameSchema, passwordSchema, statusSchema, usernameSchema, type User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, SelectField, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useCreateUser } from '../api/create-user.ts';
import { useScopedUsers } from '../api/get-scoped-users.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { FORM_CONFIG, type FormKind } from './hierarchy-form-config.ts';
import { mapUserFormError } from './server-errors.ts';

type FormValues = {
  username: string;
  password: string;
  fullName: string;
  shopName: string;
  status: UserStatus;
  parentId: string;
};

const FIELDS = ['username', 'password', 'fullName', 'shopName', 'status', 'parentId'] as const;

/** A blank password on edit keeps the current one; anything typed must pass the usual rule. */
const newPasswordSchema = z.string().superRefine((value, ctx) => {
  if (value === '') return;
  const result = passwordSchema.safeParse(value);
  if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? 'Invalid' });
});

const required = (message: string) => z.string().trim().min(1, message);

/**
 * Spec section 5. The super agent's forms check lengths and characters in the domain's words;
 * the agent's form only requires (the server may still refuse a short value, and its message is
 * shown on the field). The users form of a super agent requires a parent ('Parent is required').
 */
function formSchema(editing: boolean, kind: FormKind): z.ZodType<FormValues, FormValues> {
  const strict = FORM_CONFIG[kind].strict;
  return z.object({
    username: editing ? z.string() : strict ? usernameSchema : required(MESSAGES.usernameRequired),
    password: editing
      ? strict
        ? newPasswordSchema
        : z.string()
      : strict
        ? passwordSchema
        : z.string().min(1, MESSAGES.passwordRequired),
    fullName: strict ? fullNameSchema : required(MESSAGES.fullNameRequired),
    shopName: z.string().trim().max(100, MESSAGES.shopNameMax),
    status: statusSchema,
    parentId: FORM_CONFIG[kind].parentField ? z.string().min(1, MESSAGES.parentRequired) : z.string(),
  });
}

/** Add {noun} / Edit {noun}. The form is mounted only while open, so each opening starts fresh. */
export function UserFormModal({
  kind,
  open,
  user,
  onClose,
}: {
  kind: FormKind;
  open: boolean;
  /** The user to edit; null to create one. */
  user: User | null;
  onClose: () => void;
}) {
  const config = FORM_CONFIG[kind];
  return (
    <Modal open={open} title={user ? `Edit ${config.noun}` : `Add ${config.noun}`} onClose={onClose}>
      {open &&
        (config.parentField ? (
          <ParentsGate key={user?.id ?? 'new'} kind={kind} user={user} onClose={onClose} />
        ) : (
          <UserForm key={user?.id ?? 'new'} kind={kind} user={user} onClose={onClose} agents={[]} />
        ))}
    </Modal>
  );
}

/**
 * The parent select gets its options (the super agent's agents) before the form mounts: a select
 * registered before its options exist would show the first option while the form holds another.
 */
function ParentsGate({ kind, user, onClose }: { kind: FormKind; user: User | null; onClose: () => void }) {
  const agents = useScopedUsers('agent');
  if (agents.isPending) return <Spinner />;
  return (
    <UserForm kind={kind} user={user} onClose={onClose} agents={agents.data ?? []} agentsFailed={agents.isError} />
  );
}

function UserForm({
  kind,
  user,
  onClose,
  agents,
  agentsFailed = false,
}: {
  kind: FormKind;
  user: User | null;
  onClose: () => void;
  agents: User[];
  agentsFailed?: boolean;
}) {
  const config = FORM_CONFIG[kind];
  const me = useCurrentUser();
  const editing = user !== null;
  const toast = useToast();
  const create = useCreateUser();
  const update = useUpdateUser();
  const [formError, setFormError] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema(editing, kind)),
    defaultValues: {
      username: user?.username ?? '',
      password: '',
      fullName: user?.fullName ?? '',
      shopName: user?.shopName ?? '',
      status: user?.status ?? 'active',
      parentId: user?.parentId ? String(user.parentId) : '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const shopName = values.shopName.trim() || null;
    // Only the super agent's users form picks a parent; elsewhere the server fixes it.
    const parent = config.parentField ? { parentId: Number(values.parentId) } : {};
    try {
      if (user) {
        const result = await update.mutateAsync({
          id: user.id,
          fullName: values.fullName,
          shopName,
          status: values.status,
          ...(values.password ? { password: values.password } : {}),
          ...parent,
        });
        toast.success(result.message);
      } else {
        await create.mutateAsync({
          username: values.username,
          password: values.password,
          fullName: values.fullName,
          shopName,
          role: config.role,
          ...parent,
        });
        toast.success(`${config.noun} ${values.fullName} created successfully`);
      }
      onClose();
    } catch (error) {
      const mapped = mapUserFormError(error, editing ? config.updateFallback : config.createFallback, FIELDS);
      for (const [field, message] of Object.entries(mapped.fieldErrors)) {
        setError(field as (typeof FIELDS)[number], { type: 'server', message }, { shouldFocus: true });
      }
      setFormError(mapped.formError);
    }
  });

  const busy = isSubmitting || create.isPending || update.isPending;

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
      <FormError message={formError} />
      <TextField
        label="Username"
        autoComplete="off"
        disabled={editing}
        hint={
          editing
            ? 'The username cannot be changed.'
            : config.strict
              ? 'Letters, numbers and underscores; at least 3.'
              : undefined
        }
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label={editing ? 'New Password (leave blank to keep current)' : 'Password'}
        type="password"
        autoComplete="new-password"
        hint={editing || !config.strict ? undefined : 'At least 6 characters'}
        error={errors.password?.message}
        {...register('password')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Full Name" autoComplete="off" error={errors.fullName?.message} {...register('fullName')} />
        <TextField
          label="Shop Name (Optional)"
          autoComplete="off"
          error={errors.shopName?.message}
          {...register('shopName')}
        />
      </div>
      {config.parentField && (
        <SelectField
          label="Parent"
          error={errors.parentId?.message}
          hint={agentsFailed ? 'Failed to fetch agents' : undefined}
          {...register('parentId')}
        >
          <option value="">Select Parent</option>
          <option value={String(me.id)}>Me (Super Agent)</option>
          {agents.map((agent) => (
            <option key={agent.id} value={String(agent.id)}>
              {agent.fullName} (Agent)
            </option>
          ))}
        </SelectField>
      )}
      {editing && (
        <SelectField label="Status" error={errors.status?.message} {...register('status')}>
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
        </SelectField>
      )}
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : editing ? `Update ${config.noun}` : `Create ${config.noun}`}
        </Button>
      </div>
    </form>
  );
}
