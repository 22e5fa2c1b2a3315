import type { ParticipantsQuery, RememberedParticipant } from '@lot/domain/schemas/games';
import type { Context } from '../../lib/context.ts';
import { rememberedParticipantRows } from './games.repository.ts';

/**
 * The participants this shop entered before (docs/product/game.md#participants), across all its
 * games, once per name and phone, most recently used first. The search matches the name or the
 * phone; a search of phone characters only also matches the phone's digits ("5550101" finds
 * "555-0101").
 */
export async function rememberedParticipants(ctx: Context, query: ParticipantsQuery): Promise<RememberedParticipant[]> {
  const rows = await rememberedParticipantRows(ctx.db, ctx.caller.id, query.search ?? '', query.limit);
  return rows.map((row) => ({
    name: row.name,
    phoneNumber: row.phone,
    lastUsedAt: new Date(row.last_used).toISOString(),
  }));
}
