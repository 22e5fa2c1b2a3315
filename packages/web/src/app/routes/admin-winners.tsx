import { useState } from 'react';
import { Plus } from 'lucide-react';
import type { Winner } from '@lot/domain/schemas/winners';
import { Button } from '../../components/ui/button.tsx';
import { Card, ErrorPanel, Spinner } from '../../components/ui/panels.tsx';
import { usePlayers } from '../../features/winners/api/get-players.ts';
import { useWinners, type WinnerFilter } from '../../features/winners/api/get-winners.ts';
import { DeleteWinnerDialog } from '../../features/winners/components/delete-winner-dialog.tsx';
import { WinnerFormModal } from '../../features/winners/components/winner-form-modal.tsx';
import { WinnerTotal } from '../../features/winners/components/winner-total.tsx';
import { WinnersList } from '../../features/winners/components/winners-list.tsx';

type Editing = { mode: 'add' } | { mode: 'edit'; winner: Winner } | null;

const parseFilter = (value: string): WinnerFilter => (value === 'all' || value === 'global' ? value : Number(value));

/** Spec screen 7 (/admin/winners): the list filtered by user, the total box, add, edit, delete. */
export function AdminWinnersRoute() {
  const [filter, setFilter] = useState<WinnerFilter>('all');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Winner | null>(null);
  const winners = useWinners(filter);
  const players = usePlayers();
  const playerList = players.data ?? [];

  const selectedPlayer = typeof filter === 'number' ? playerList.find((p) => p.id === filter) : undefined;
  const scope =
    filter === 'all'
      ? 'All Configurations'
      : filter === 'global'
        ? 'Global'
        : selectedPlayer
          ? `${selectedPlayer.fullName} (${selectedPlayer.username})`
          : 'Selected User';

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 className="text-2xl font-bold tracking-tight text-slate-900">Winner Configurations</h2>
          <p className="mt-1 text-sm text-slate-500">
            The share of the prize pool each position wins. Global ones apply to players without their own.
          </p>
        </div>
        <Button onClick={() => setEditing({ mode: 'add' })} className="w-full sm:w-auto">
          <Plus className="h-4 w-4" aria-hidden="true" />
          Add Winner Configuration
        </Button>
      </div>

      <Card>
        <div className="sm:max-w-sm">
          <label htmlFor="winner-filter" className="mb-1 block text-sm font-medium text-slate-700">
            Filter by User
          </label>
          <select
            id="winner-filter"
            value={String(filter)}
            onChange={(event) => setFilter(parseFilter(event.target.value))}
            className="block w-full rounded-lg border-0 py-2 pr-8 pl-3 text-sm text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-indigo-600"
          >
            <option value="all">All Configurations</option>
            <option value="global">Global</option>
            {playerList.map((player) => (
              <option key={player.id} value={String(player.id)}>
                {player.fullName} ({player.username})
              </option>
            ))}
          </select>
          {players.isError && <p className="mt-1 text-sm text-rose-600">Failed to fetch users</p>}
        </div>
      </Card>

      {winners.isPending ? (
        <Spinner />
      ) : winners.isError ? (
        <ErrorPanel message="Failed to fetch winners" onRetry={() => void winners.refetch()} />
      ) : (
        <>
          <WinnerTotal winners={winners.data} scope={scope} />
          <Card title="Configurations">
            <div aria-busy={winners.isFetching}>
              <WinnersList
                winners={winners.data}
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
        players={playerList}
      />
      <DeleteWinnerDialog winner={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
