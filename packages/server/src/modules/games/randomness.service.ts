import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { SERVER_RANDOMNESS_DAYS, type DrawRandomness, type SetServerRandomness } from '@lot/domain/schemas/randomness';
import type { AppContext, Context } from '../../lib/context.ts';
import {
  anyLotDraw2Game,
  latestServerRandomnessChange,
  recordServerRandomness,
  serverRandomnessGamesByShop,
} from './randomness.repository.ts';

/**
 * DRAW_BEACON=auto's sticky rule (decision 061): while the beacon cannot be reached, a new game may
 * fall back to LOT-DRAW-1 only on a database that has never opened a LOT-DRAW-2 game, or after an
 * admin has turned LOT-DRAW-1 on. Otherwise whoever can block the host's network could choose the
 * protocol whose outcome the server alone knows. Asked only when the fallback is in question.
 */
export async function serverRandomnessAllowed(ctx: Pick<AppContext, 'db'>): Promise<boolean> {
  const [played, change] = await Promise.all([anyLotDraw2Game(ctx.db), latestServerRandomnessChange(ctx.db)]);
  return !played || change?.allowed === true;
}

const DAY_MS = 86_400_000;

function adminOnly(ctx: Context): void {
  if (ctx.caller.role !== 'admin') throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
}

/** What the admin's card shows: the beacon, the rule, the permission and LOT-DRAW-1 games per shop. */
export async function readDrawRandomness(ctx: Context): Promise<DrawRandomness> {
  adminOnly(ctx);
  const status = ctx.beacon.status();
  const off = status.mode === 'off';
  const [played, change, byShop] = await Promise.all([
    anyLotDraw2Game(ctx.db),
    latestServerRandomnessChange(ctx.db),
    serverRandomnessGamesByShop(ctx.db, new Date(ctx.clock() - SERVER_RANDOMNESS_DAYS * DAY_MS)),
  ]);
  const allowed = change?.allowed === true;
  const fallback = status.mode === 'auto' && (!played || allowed);
  return {
    mode: status.mode,
    chain: off ? null : status.chainHash,
    quicknet: !off && status.quicknet,
    beaconUp: status.up,
    lotDraw2Played: played,
    serverRandomnessAllowed: allowed,
    changed: change && { at: change.at.toISOString(), by: change.by },
    newGames: off ? 'LOT-DRAW-1' : status.up ? 'LOT-DRAW-2' : fallback ? 'LOT-DRAW-1' : 'refused',
    days: SERVER_RANDOMNESS_DAYS,
    serverRandomnessByShop: byShop,
  };
}

/**
 * The admin turns LOT-DRAW-1 on or off: one audit row, which is the setting (and which the other
 * admins' bells show). Setting what is already set writes nothing.
 */
export async function setServerRandomness(ctx: Context, input: SetServerRandomness): Promise<DrawRandomness> {
  adminOnly(ctx);
  const before = (await latestServerRandomnessChange(ctx.db))?.allowed === true;
  if (before !== input.allowed) {
    await recordServerRandomness(ctx.db, {
      actorId: ctx.caller.id,
      address: ctx.caller.address ?? null,
      allowed: input.allowed,
      before,
    });
  }
  return readDrawRandomness(ctx);
}
