import { SelectField } from '../../../components/ui/field.tsx';
import type { PickerUser } from '../api/get-users-by-role.ts';

/** A history filter's picker: an "all" option, then people as 'name (username)' (docs/product/screens.md#superagent-sales-history). */
export function PickerSelect({
  label,
  allLabel,
  users,
  value,
  onChange,
  disabled,
}: {
  label: string;
  allLabel: string;
  users: readonly PickerUser[];
  value: number | null;
  onChange: (id: number | null) => void;
  disabled?: boolean;
}) {
  return (
    <SelectField
      label={label}
      value={value === null ? '' : String(value)}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
    >
      <option value="">{allLabel}</option>
      {users.map((user) => (
        <option key={user.id} value={String(user.id)}>
          {user.fullName} ({user.username})
        </option>
      ))}
    </SelectField>
  );
}
