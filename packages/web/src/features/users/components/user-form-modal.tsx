import { Fragment, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@lot/domain/schemas/users';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, SelectField, TextField } from '../../../components/ui/field.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { Spinner } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useCreateUser } from '../api/create-user.ts';
import { useUpdateUser } from '../api/update-user.ts';
import { mapUserFormError } from './server-errors.ts';
import type { ParentChoice, ParentChoices, ParentField, UserFormRules } from './user-form-rules.ts';
import { USER_FORM_FIELDS, userFormSchema, type UserFormValues } from './user-form-schema.ts';

const NO_CHOICES: ParentChoices = { isPending: false, isError: false, groups: [] };

function choiceOption(choice: ParentChoice) {
  return (
    <option key={choice.value} value={choice.value}>
      {choice.label}
    </option>
  );
}

/**
 * Every user form (the admin's lists and the hierarchy screens): '{addLabel}' / 'Edit {noun}',
 * what differs comes from `rules`. The form is mounted only while open, so each opening starts fresh.
 */
export function UserFormModal({
  rules,
  open,
  user,
  onClose,
}: {
  rules: UserFormRules;
  open: boolean;
  /** The user to edit; null to create one. */
  user: User | null;
  onClose: () => void;
}) {
  const key = user?.id ?? 'new';
  return (
    <Modal open={open} title={user ? `Edit ${rules.noun}` : rules.addLabel} onClose={onClose}>
      {open &&
        (rules.parent ? (
          <ParentsGate key={key} parent={rules.parent} rules={rules} user={user} onClose={onClose} />
        ) : (
          <UserForm key={key} rules={rules} user={user} onClose={onClose} choices={NO_CHOICES} />
        ))}
    </Modal>
  );
}

type FormProps = { rules: UserFormRules; user: User | null; onClose: () => void };

/**
 * The parent select gets its options before the form mounts: a select registered before its
 * options exist would show the first option while the form still holds the current parent.
 */
function ParentsGate({ parent, ...props }: FormProps & { parent: ParentField }) {
  const choices = parent.useChoices();
  if (choices.isPending) return <Spinner />;
  return <UserForm {...props} choices={choices} />;
}

function UserForm({ rules, user, onClose, choices }: FormProps & { choices: ParentChoices }) {
  const { parent } = rules;
  const editing = user !== null;
  const toast = useToast();
  const create = useCreateUser();
  const update = useUpdateUser();
  const [formError, setFormError] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<UserFormValues>({
    resolver: zodResolver(userFormSchema(editing, rules)),
    defaultValues: {
      username: user?.username ?? '',
      password: '',
      fullName: user?.fullName ?? '',
      shopName: user?.shopName ?? '',
      status: user?.status ?? 'active',
      parentId: user?.parentId ? String(user.parentId) : '',
    },
  });

  const chosenParent = useWatch({ control, name: 'parentId' });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const shopName = values.shopName.trim() || null;
    // Only a form with a parent select sends one; elsewhere the server fixes it.
    const parentId = parent ? { parentId: values.parentId ? Number(values.parentId) : null } : {};
    try {
      if (user) {
        const result = await update.mutateAsync({
          id: user.id,
          fullName: values.fullName,
          shopName,
          status: values.status,
          ...(values.password ? { password: values.password } : {}),
          ...parentId,
        });
        toast.success(result.message);
      } else {
        await create.mutateAsync({
          username: values.username,
          password: values.password,
          fullName: values.fullName,
          shopName,
          role: rules.role,
          ...parentId,
        });
        toast.success(`${rules.noun} ${values.fullName} created successfully`);
      }
      onClose();
    } catch (error) {
      const mapped = mapUserFormError(error, editing ? rules.updateFallback : rules.createFallback, USER_FORM_FIELDS);
      for (const [field, message] of Object.entries(mapped.fieldErrors)) {
        setError(field as (typeof USER_FORM_FIELDS)[number], { type: 'server', message }, { shouldFocus: true });
      }
      setFormError(mapped.formError);
    }
  });

  const busy = isSubmitting || create.isPending || update.isPending;
  const strictHints = rules.strict && !editing;

  return (
    <form
      onSubmit={(event) => {
        // A new attempt: the last server message goes, also when the form's own check stops this one.
        setFormError(null);
        void onSubmit(event);
      }}
      noValidate
      className="space-y-4"
    >
      <FormError message={formError} />
      <TextField
        label="Username"
        autoComplete="off"
        disabled={editing}
        hint={
          editing
            ? 'The username cannot be changed.'
            : strictHints
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
        hint={strictHints ? 'At least 6 characters' : undefined}
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
      {parent && (
        <SelectField
          label={parent.label}
          error={errors.parentId?.message}
          hint={choices.isError ? parent.failedHint : chosenParent === '' ? parent.emptyHint : undefined}
          {...register('parentId')}
        >
          <option value="">{parent.placeholder}</option>
          {choices.groups.map((group, index) =>
            !group.heading ? (
              <Fragment key={index}>{group.choices.map(choiceOption)}</Fragment>
            ) : group.choices.length > 0 ? (
              <optgroup key={group.heading} label={group.heading}>
                {group.choices.map(choiceOption)}
              </optgroup>
            ) : null,
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
          {busy ? 'Saving...' : `${editing ? 'Update' : 'Create'} ${rules.noun}`}
        </Button>
      </div>
    </form>
  );
}
