import type { ReactNode } from 'react';
import { RotateCcw } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/panels.tsx';

/**
 * The history screens' Filters card (docs/product/screens.md): the fields in a grid,
 * Reset All Filters (disabled while nothing is narrowed) and, when a picker's people failed to
 * load, the documented message under them.
 */
export function FiltersCard({
  canReset,
  onReset,
  pickerFailed = false,
  gridClassName,
  children,
}: {
  canReset: boolean;
  onReset: () => void;
  pickerFailed?: boolean;
  /** The grid's columns on a wide screen: 'lg:grid-cols-5'. */
  gridClassName: string;
  children: ReactNode;
}) {
  return (
    <Card
      title="Filters"
      actions={
        <Button variant="secondary" disabled={!canReset} onClick={onReset}>
          <RotateCcw className="h-4 w-4" aria-hidden="true" />
          Reset All Filters
        </Button>
      }
    >
      <div className={`grid gap-4 sm:grid-cols-2 ${gridClassName}`}>{children}</div>
      {pickerFailed && <p className="mt-3 text-sm text-rose-600">Failed to fetch users</p>}
    </Card>
  );
}
