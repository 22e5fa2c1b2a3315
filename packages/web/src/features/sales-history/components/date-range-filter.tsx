import { TextField } from '../../../components/ui/field.tsx';

export type DateRange = { startDate: string; endDate: string };

/**
 * Start Date and End Date (YYYY-MM-DD). The screen turns them into instants with the domain's
 * dayRange: start 00:00:00.000, end 23:59:59.999, both inclusive (docs/product/validation-and-errors.md).
 */
export function DateRangeFilter({ value, onChange }: { value: DateRange; onChange: (next: DateRange) => void }) {
  return (
    <>
      <TextField
        label="Start Date"
        type="date"
        value={value.startDate}
        max={value.endDate || undefined}
        onChange={(event) => onChange({ ...value, startDate: event.target.value })}
      />
      <TextField
        label="End Date"
        type="date"
        value={value.endDate}
        min={value.startDate || undefined}
        onChange={(event) => onChange({ ...value, endDate: event.target.value })}
      />
    </>
  );
}
