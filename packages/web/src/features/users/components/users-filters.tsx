import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/field.tsx';

export const USERS_SEARCH_PLACEHOLDER = 'Search by name or shop';

/** A user's status as a list's filter ('' is every status). */
export type StatusFilter = '' | 'active' | 'inactive';

export function statusFilterOf(value: string): StatusFilter {
  return value === 'active' || value === 'inactive' ? value : '';
}

export type ParentFilter = {
  label: string;
  value: string;
  /** The first option ('' value), then each choice. */
  all: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
};

/**
 * The filter bar of the people lists (docs/product/screens.md#admin-people-lists): status, a
 * parent where the list has one to choose, and Reset filters, laid out like the other lists' bars.
 */
export function UsersFilters({
  status,
  onStatus,
  parent,
  filtered,
  onReset,
  children,
}: {
  status: StatusFilter;
  onStatus: (status: StatusFilter) => void;
  parent?: ParentFilter;
  filtered: boolean;
  onReset: () => void;
  /** Controls of a screen's own (the super agent's My Users / Agent Users toggle). */
  children?: ReactNode;
}) {
  return (
    <div className="mb-4 grid grid-cols-2 items-end gap-3 lg:grid-cols-4">
      {children}
      <SelectField label="Status" value={status} onChange={(e) => onStatus(statusFilterOf(e.target.value))}>
        <option value="">All statuses</option>
        <option value="active">Active</option>
        <option value="inactive">Inactive</option>
      </SelectField>
      {parent && (
        <SelectField label={parent.label} value={parent.value} onChange={(e) => parent.onChange(e.target.value)}>
          <option value="">{parent.all}</option>
          {parent.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
      )}
      <div className={parent ? 'col-span-2 lg:col-span-1' : ''}>
        <Button variant="secondary" className="w-full" disabled={!filtered} onClick={onReset}>
          Reset filters
        </Button>
      </div>
    </div>
  );
}
