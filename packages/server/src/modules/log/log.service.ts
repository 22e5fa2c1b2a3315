import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { parseVerifierKey } from '@lot/domain/tlog/note';
import { formatEntryBundle, TILE_WIDTH } from '@lot/domain/tlog/tiles';
import { recordAudit } from '../../lib/audit.ts';
import type { AppContext } from '../../lib/context.ts';
import type { GameLogSigner } from '../../lib/game-log-signer.ts';
import { rootOf } from '../../lib/game-log.ts';
import { KeyMismatch } from '../../lib/key-canaries.ts';
import { nameLog, readLogEntries, readLogHashes, readLogHead, type Db } from './log.repository.ts';

/**
 * The game log, as anyone reads it (docs/lot-draw-2.md#the-game-log, decision 081): its checkpoint
 * signed with the log's key, its tiles and entry bundles (C2SP tlog-tiles). Appends are
 * lib/game-log.ts's, in each event's own transaction.
 */

/** The public key of a verifier key (`<name>+<key ID>+<base64 key>`; the base64 may hold a '+'): its name follows the origin. */
const publicKeyOf = (vkey: string) => Buffer.from(parseVerifierKey(vkey).publicKey).toString('hex');

/**
 * Names the log at start-up (decision 081): the first start keeps its origin and verifier key; a
 * log signed with another key is refused (the server never continues a log it cannot sign as
 * before); a new origin, set on purpose, is recorded in the audit trail with the size the log had.
 */
export async function openGameLog(db: Db, signer: Pick<GameLogSigner, 'origin' | 'vkey'>): Promise<void> {
  const head = await readLogHead(db);
  if (head.vkey !== null && publicKeyOf(head.vkey) !== publicKeyOf(signer.vkey)) throw new KeyMismatch('log-key');
  if (head.vkey === signer.vkey && head.origin === signer.origin) return;
  await db.transaction(async (tx) => {
    const renamed = head.origin !== null && head.origin !== signer.origin;
    await nameLog(tx, signer.origin, signer.vkey, renamed);
    if (renamed)
      await recordAudit(tx, {
        actorId: null,
        address: null,
        action: 'log.origin_changed',
        details: { from: head.origin, to: signer.origin, size: head.size },
      });
  });
}

/** The log's current checkpoint (C2SP tlog-checkpoint), signed as a C2SP signed note. */
export async function currentCheckpoint(ctx: Pick<AppContext, 'db' | 'gameLog'>): Promise<string> {
  const head = await readLogHead(ctx.db);
  return ctx.gameLog.signCheckpoint(head.size, rootOf(head));
}

/** Where a tile is: `level` (null for an entry bundle), its index, and — partial — its width. */
export type TilePath = { level: number | null; index: number; width: number };

/**
 * A tile's bytes (C2SP tlog-tiles): the hashes at height 8·level, or the leaves' data each prefixed
 * with its length as a big-endian uint16. 404 unless the log holds every hash or entry it names:
 * nothing is served that the log has not reached.
 */
export async function readTile(ctx: Pick<AppContext, 'db'>, tile: TilePath): Promise<Uint8Array> {
  const from = tile.index * TILE_WIDTH;
  if (tile.level === null) {
    const entries = await readLogEntries(ctx.db, from, tile.width);
    if (entries.length !== tile.width) throw new AppError('NOT_FOUND', SERVER_MESSAGES.noEntryBundleYet);
    return formatEntryBundle(entries);
  }
  const hashes = await readLogHashes(ctx.db, tile.level * 8, from, tile.width);
  if (hashes.length !== tile.width) throw new AppError('NOT_FOUND', SERVER_MESSAGES.noTileYet);
  return Buffer.concat(hashes);
}
