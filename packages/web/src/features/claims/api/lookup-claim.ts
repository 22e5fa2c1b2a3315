import type { ClaimLookup } from '@lot/domain/schemas/claims';
import { api } from '../../../lib/api-client.ts';
import { timeZoneHeader } from '../../../lib/periods.ts';
import type { ClaimKey } from '../components/entry-code.ts';

/**
 * GET /api/claims/lookup: the prizes an entry slip won, by its QR code (game code and entry code)
 * or its typed entry code. A shop only; an entry that won nothing is an answer (no prizes, its
 * `noPrize` text), an unknown code a 404, a game not drawn yet a 409.
 */
export function lookupClaim(key: ClaimKey): Promise<ClaimLookup> {
  return api<ClaimLookup>('/api/claims/lookup', {
    query: key.code === null ? { entry: key.entry } : { code: key.code, n: key.entry },
    headers: timeZoneHeader(),
  });
}
