import { useState } from 'react';
import { Card } from '../../components/ui/panels.tsx';
import { usePlayers } from '../../features/winners/api/get-players.ts';
import type { WinnerFilter } from '../../features/winners/api/get-winners.ts';
import { WinnersScreen } from '../../features/winners/components/winners-screen.tsx';

const parseFilter = (value: string): WinnerFilter => (value === 'all' || value === 'global' ? value : Number(value));

/** docs/product/screens.md#winner-configurations (/admin/winners): the list filtered by user, the total box, add, edit, delete. */
export function AdminWinnersRoute() {
  const [filter, setFilter] = useState<WinnerFilter>('all');
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
    <WinnersScreen
      title="Winner Configurations"
      description="The share of the prize pool each position wins. Global ones apply to players without their own."
      filter={filter}
      failure="Failed to fetch winners"
      scope={scope}
      players={playerList}
    >
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
    </WinnersScreen>
  );
}
