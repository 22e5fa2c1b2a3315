import { sql } from 'drizzle-orm';
import type { ParticipantsQuery, RememberedParticipant } from '@lot/domain/schemas/games';
import { queryRows, type Db } from '../../db/client.ts';
import { containsPattern } from '../../db/sql.ts';
import type { Caller } from '../../lib/caller.ts';

/**
 * The participants this shop entered before (docs/product/game.md#participants), across all its
 * games, once per name and phone, most recently used first. The search matches the name or the
 * phone; a search of phone characters only also matches the phone's digits ("5550101" finds
 * "555-0101").
 */
export async function rememberedParticipants(
  db: Db,
  caller: Caller,
  query: ParticipantsQuery,
): Promise<RememberedParticipant[]> {
  const search = query.search ?? '';
  const pattern = containsPattern(search);
  const digits = /^[\d +-]+$/.test(search) ? search.replace(/\D/g, '') : '';
  const rows = await queryRows<{ name: string; phone: string; last_used: Date | string }>(
    db,
    sql`
      SELECT e.name, e.phone, max(r.created_at) AS last_used
      FROM game_rounds r
      CROSS JOIN LATERAL (
        SELECT x->>'name' AS name, x->>'phoneNumber' AS phone FROM jsonb_array_elements(r.entries) x
      ) e
      WHERE r.user_id = ${caller.id}
        AND (${search} = ''
          OR e.name ILIKE ${pattern}
          OR e.phone ILIKE ${pattern}
          OR (${digits} <> '' AND regexp_replace(e.phone, '[^0-9]', '', 'g') LIKE ${`%${digits}%`}))
      GROUP BY e.name, e.phone
      ORDER BY max(r.created_at) DESC, e.name, e.phone
      LIMIT ${query.limit}`,
  );
  return rows.map((row) => ({
    name: row.name,
    phoneNumber: row.phone,
    lastUsedAt: new Date(row.last_used).toISOString(),
  }));
}
