import type { SlipPrint, SlipPrintInput } from '@lot/domain/schemas/games';
import { api } from '../../../lib/api-client.ts';

/**
 * POST /api/games/{id}/slips/prints: counts one print of a slip before it is printed and answers its
 * count, so a second print says COPY whichever device printed the first (docs/product/game.md#slips).
 */
export function printSlip(gameId: number, slip: SlipPrintInput): Promise<SlipPrint> {
  return api<SlipPrint>(`/api/games/${gameId}/slips/prints`, { method: 'POST', body: slip });
}
