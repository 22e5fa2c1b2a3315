import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { MESSAGES } from '@lot/domain/messages';
import { ROLE_LABELS, type UserStatus } from '@lot/domain/roles';
import { fullNameSchema, passwordSchema, statusSchema, usernameSchema, type User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, SelectField, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useCreateUser } from '../api/create-user.ts';
import { useParentOptions, type ParentOption } from '../api/get-parent-options.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { ROLE_CONFIG, type ManagedRole, type RoleConfig } from './role-config.ts';
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

/**
 * The admin form's rules (spec section 5), in the domain's words, so the client and the server
 * say the same thing: username, password (on create) and full name required; an agent's
 * super agent required. The username is not checked on edit: it cannot change.
 */
function formSchema(editing: boolean, config: RoleConfig): z.ZodType<FormValues, FormValues> {
  return z.object({
    username: editing ? z.string() : usernameSchema,
    password: editing ? newPasswordSchema : passwordSchema,
    fullName: fullNameSchema,
    shopName: z.string().trim().max(100, MESSAGES.shopNameMax),
    status: statusSchema,
    parentId: config.parentRequired ? z.string().min(1, MESSAGES.superAgentRequired) : z.string(),
  });
}

/** Add New {noun} / Edit {noun}. The form is mounted only while open, so each opening starts fresh. */
export function UserFormModal({
  role,
  open,
  user,
  onClose,
}: {
  role: ManagedRole;
  open: boolean;
  /** The user to edit; null to create one. */
  user: User | null;
  onClose: () => void;
}) {
  const config = ROLE_CONFIG[role];
  return (
    <Modal open={open} title={user ? `Edit ${config.noun}` : `Add New ${config.noun}`} onClose={onClose}>
      {open && <ParentsGate key={user?.id ?? 'new'} role={role} user={user} onClose={onClose} />}
    </Modal>
  );
}

/**
 * The parent select gets its options before the form mounts: a select registered before its
 * options exist would show the first option while the form still holds the current parent.
 */
function ParentsGate({ role, user, onClose }: { role: ManagedRole; user: User | null; onClose: () => void }) {
  const config = ROLE_CONFIG[role];
  const parents = useParentOptions(config.parentRoles);
  if (config.parentRoles.length > 0 && parents.isPending) return <Spinner />;
  return (
    <UserForm role={role} user={user} onClose={onClose} parents={parents.data ?? []} parentsFailed={parents.isError} />
  );
}

function UserForm({
  role,
  user,
  onClose,
  parents,
  parentsFailed,
}: {
  role: ManagedRole;
  user: User | null;
  onClose: () => void;
  parents: ParentOption[];
  parentsFailed: boolean;
}) {
  const config = ROLE_CONFIG[role];
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
    resolver: zodResolver(formSchema(editing, config)),
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
    const parentId = values.parentId ? Number(values.parentId) : null;
    const hasParent = config.parentRoles.length > 0;
    try {
      if (user) {
        const result = await update.mutateAsync({
          id: user.id,
          fullName: values.fullName,
          shopName,
          status: values.status,
          ...(values.password ? { password: values.password } : {}),
          ...(hasParent ? { parentId } : {}),
        });
        toast.success(result.message);
      } else {
        await create.mutateAsync({
          username: values.username,
          password: values.password,
          fullName: values.fullName,
          shopName,
          role,
          parentId: hasParent ? parentId : null,
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
  const superagents = parents.filter((p) => p.role === 'superagent');
  const agents = parents.filter((p) => p.role === 'agent');

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="space-y-4">
      <FormError message={formError} />
      <TextField
        label="Username"
        autoComplete="off"
        disabled={editing}
        hint={editing ? 'The username cannot be changed.' : 'Letters, numbers and underscores; at least 3.'}
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        label={editing ? 'New Password (leave blank to keep current)' : 'Password'}
        type="password"
        autoComplete="new-password"
        hint={editing ? undefined : 'At least 6 characters'}
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
      {config.parentRoles.length > 0 && (
        <SelectField
          label={config.parentRequired ? 'Super Agent' : 'Parent (Optional)'}
          error={errors.parentId?.message}
          hint={
            parentsFailed
              ? config.parentRequired
                ? 'Failed to fetch super agents'
                : 'Failed to fetch users'
              : undefined
          }
          {...register('parentId')}
        >
          <option value="">{config.parentRequired ? 'Select Super Agent' : 'No parent'}</option>
          {config.parentRequired ? (
            superagents.map((p) => (
              <option key={p.id} value={p.id}>
                {p.fullName} ({p.username})
              </option>
            ))
          ) : (
            <>
              {superagents.length > 0 && (
                <optgroup label="Super Agents">
                  {superagents.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.fullName} ({ROLE_LABELS[p.role]})
                    </option>
                  ))}
                </optgroup>
              )}
              {agents.length > 0 && (
                <optgroup label="Agents">
                  {agents.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.fullName} ({ROLE_LABELS[p.role]})
                    </option>
                  ))}
                </optgroup>
              )}
            </>
          )}
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
          {busy ? 'Saving...' : `${editing ? 'Update' : 'Create'} ${config.noun}`}
        </Button>
      </div>
    </form>
  );
}
