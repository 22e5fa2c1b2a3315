import { useCurrentUser } from '../../lib/auth.tsx';
import { EffectiveScheme } from '../../features/winners/components/effective-scheme.tsx';
import { WinnersScreen } from '../../features/winners/components/winners-screen.tsx';

/**
 * docs/product/screens.md#my-winner-settings (/user/winner-settings): the user's own prize shares. Their active ones, by
 * position, are what their game pays; with none, the game uses the global ones, shown read-only
 * above their own list.
 */
export function UserWinnerSettingsRoute() {
  const me = useCurrentUser();
  return (
    <WinnersScreen
      title="My Winner Settings"
      description="The share of each game's prize pool every winning position takes. Only active ones are paid, in position order."
      filter={me.id}
      failure="Failed to fetch winner settings"
      scope="Your own settings"
      emptyHint="Until you add your own, your games pay by the global settings."
    >
      <EffectiveScheme />
    </WinnersScreen>
  );
}
