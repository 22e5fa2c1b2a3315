import { useState, type ReactNode } from 'react';
import { Plus } from 'lucide-react';
import type { Winner } from '@lot/domain/schemas/winners';
import { Button } from '../../../components/ui/button.tsx';
import { Card, ErrorPanel, PageHeading, Spinner } from '../../../components/ui/panels.tsx';
import type { Player } from '../api/get-players.ts';
import { useWinners, type WinnerFilter } from '../api/get-winners.ts';
import { DeleteWinnerDialog } from './delete-winner-dialog.tsx';
import { WinnerFormModal } from './winner-form-modal.tsx';
import { WinnerTotal } from './winner-total.tsx';
import { WinnersList } from './winners-list.tsx';

type Editing = { mode: 'add' } | { mode: 'edit'; winner: Winner } | null;

export type WinnersScreenProps = {
  title: string;
  description: string;
  /** Whose configurations: the admin's filter, or the signed-in user's id. */
  filter: WinnerFilter;
  /** The load failure text (docs/product/validation-and-errors.md: 'Failed to fetch winners' / 'Failed to fetch winner settings'). */
  failure: string;
  /** What the total covers, shown beside it (the admin's filter); none for a user's own. */
  scope?: string;
  /** The admin's User picker; left out, the list and the form are the user's own (no User column or field). */
  players?: Player[];
  /** A line under 'No winner configurations found.' */
  emptyHint?: string;
  /** Controls between the heading and the total (the admin's filter card). */
  children?: ReactNode;
};

/**
 * Winner settings, admin's (docs/product/screens.md#winner-configurations) and a user's own (screen 19): the total percentage box
 * with the section 5 notes, the list with edit and delete, and the add / edit / delete dialogs.
 */
export function WinnersScreen({
  title,
  description,
  filter,
  failure,
  scope,
  players,
  emptyHint,
  children,
}: WinnersScreenProps) {
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Winner | null>(null);
  const winners = useWinners(filter);

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <PageHeading title={title}>{description}</PageHeading>
        <Button onClick={() => setEditing({ mode: 'add' })} className="w-full sm:w-auto">
          <Plus className="h-4 w-4" aria-hidden="true" />
          Add Winner Configuration
        </Button>
      </div>

      {children}

      {winners.isPending ? (
        <Spinner />
      ) : winners.isError ? (
        <ErrorPanel message={failure} onRetry={() => void winners.refetch()} />
      ) : (
        <>
          <WinnerTotal winners={winners.data} scope={scope} />
          <Card title="Configurations">
            <div aria-busy={winners.isFetching}>
              <WinnersList
                winners={winners.data}
                showOwner={players !== undefined}
                emptyHint={emptyHint}
                onEdit={(winner) => setEditing({ mode: 'edit', winner })}
                onDelete={setDeleting}
              />
            </div>
          </Card>
        </>
      )}

      <WinnerFormModal
        open={editing !== null}
        onClose={() => setEditing(null)}
        winner={editing?.mode === 'edit' ? editing.winner : null}
        defaultUserId={typeof filter === 'number' ? filter : null}
        players={players}
      />
      <DeleteWinnerDialog winner={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
