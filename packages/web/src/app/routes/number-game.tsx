import { GameIntro } from '../../features/number-game/components/game-intro.tsx';

export function NumberGameRoute() {
  return <GameIntro />;
}
