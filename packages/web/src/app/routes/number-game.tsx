import { GameIntro } from '../../features/play/components/game-intro.tsx';

export function NumberGameRoute() {
  return <GameIntro />;
}
