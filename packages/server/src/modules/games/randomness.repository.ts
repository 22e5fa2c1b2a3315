import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { recordAudit } from '../../lib/audit.ts';

/** The reads and the write behind DRAW_BEACON=auto's sticky rule (decision 061). */

/** The audit action that records the admin's permission for LOT-DRAW-1; its newest row is the setting. */
export const SERVER_RANDOMNESS_ACTION = 'settings.server_randomness';

/** Whether any game of this database was opened as LOT-DRAW-2 (stops at the first). */
export async function anyLotDraw2Game(db: Db | Tx): Promise<boolean> {
  const [row] = await queryRows<{ played: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM game_rounds WHERE protocol = 'LOT-DRAW-2') AS played`,
  );
  return row?.played === true;
}

export type ServerRandomnessChange = {
  allowed: boolean;
  at: Date;
  by: { id: number; username: string; fullName: string } | null;
};

/**
 * The admin's latest change of the LOT-DRAW-1 permission, or null: the setting lives in the audit
 * trail itself (append-only and chained, so it cannot be changed without a trace). Only an admin
 * writes it, so the read walks the admins' rows (audit_log_actor_idx), newest first.
 */
export async function latestServerRandomnessChange(db: Db | Tx): Promise<ServerRandomnessChange | null> {
  const [row] = await queryRows<{
    allowed: boolean;
    at: Date | string;
    id: number | null;
    username: string | null;
    full_name: string | null;
  }>(
    db,
    sql`SELECT (a.details->>'allowed')::boolean AS allowed, a.at, u.id, u.username, u.full_name
      FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
      WHERE a.actor_id IN (SELECT id FROM users WHERE role = 'admin') AND a.action = ${SERVER_RANDOMNESS_ACTION}
      ORDER BY a.id DESC LIMIT 1`,
  );
  if (!row) return null;
  return {
    allowed: row.allowed === true,
    at: new Date(row.at),
    by: row.id === null ? null : { id: row.id, username: row.username ?? '', fullName: row.full_name ?? '' },
  };
}

/** Records the admin's change: the audit row is the setting (one statement, so nothing half-written). */
export function recordServerRandomness(
  db: Db | Tx,
  change: { actorId: number; address: string | null; allowed: boolean; before: boolean },
): Promise<void> {
  return recordAudit(db, {
    actorId: change.actorId,
    address: change.address,
    action: SERVER_RANDOMNESS_ACTION,
    details: { allowed: change.allowed, before: change.before },
  });
}

/** LOT-DRAW-1 games opened since `since`, neither voided nor discarded, per shop, most first (at most 100 shops). */
export async function serverRandomnessGamesByShop(db: Db | Tx, since: Date) {
  const rows = await queryRows<{ id: number; username: string; full_name: string; games: string }>(
    db,
    sql`SELECT u.id, u.username, u.full_name, count(*)::text AS games
      FROM game_rounds g JOIN users u ON u.id = g.user_id
      WHERE g.protocol = 'LOT-DRAW-1' AND g.status NOT IN ('voided', 'discarded')
        AND g.created_at >= ${since.toISOString()}::timestamptz
      GROUP BY u.id, u.username, u.full_name
      ORDER BY count(*) DESC, u.username
      LIMIT 100`,
  );
  return rows.map((row) => ({
    shop: { id: row.id, username: row.username, fullName: row.full_name },
    games: Number(row.games),
  }));
}
