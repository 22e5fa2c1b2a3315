import { useParams } from 'react-router';
import { SlipsPage } from '../../features/slips/components/slips-page.tsx';
import { useCurrentUser } from '../../lib/auth.tsx';

/** A positive whole number from the address, else null (an address like /slips/abc has no game). */
function gameId(param: string | undefined): number | null {
  if (!param || !/^\d{1,15}$/.test(param)) return null;
  const id = Number(param);
  return id >= 1 && Number.isSafeInteger(id) ? id : null;
}

/** /user/number-game/slips/{gameId}: the printable slips of one of the shop's games (docs/product/screens.md#slips). */
export function NumberGameSlipsRoute() {
  const user = useCurrentUser();
  return <SlipsPage gameId={gameId(useParams().gameId)} player={{ id: user.id, hasLogo: user.hasLogo }} />;
}
