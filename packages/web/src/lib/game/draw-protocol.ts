import { normalizeRole, ROLE_LABELS } from '@lot/domain/roles';
import type { GameBeacon } from '@lot/domain/schemas/games';

/**
 * How a game's draws were made, as every screen and slip that shows the game says it
 * (docs/lot-draw-2.md): LOT-DRAW-2 names its public randomness, the drand round R once the draw
 * started; a LOT-DRAW-1 game (server randomness only) always carries this warning, word for word.
 */
import { SERVER_RANDOMNESS_ONLY } from '@lot/domain/draw';

export type DrawProtocol = 'LOT-DRAW-1' | 'LOT-DRAW-2';

/** The public proof names the protocol as `algorithm`: anything but LOT-DRAW-2 reads as LOT-DRAW-1. */
export const protocolOf = (algorithm: string): DrawProtocol =>
  algorithm === 'LOT-DRAW-2' ? 'LOT-DRAW-2' : 'LOT-DRAW-1';

/** "Public randomness: drand round 1234"; before the draw starts R is not named yet. */
export function publicRandomnessText(beacon: GameBeacon | null): string {
  const round = beacon?.round ?? null;
  return round === null
    ? 'Public randomness: drand, its round named when the draw starts'
    : `Public randomness: drand round ${round}`;
}

/** The one line that says how the game is drawn. */
export function protocolText(protocol: DrawProtocol, beacon: GameBeacon | null): string {
  return protocol === 'LOT-DRAW-2' ? publicRandomnessText(beacon) : SERVER_RANDOMNESS_ONLY;
}

/**
 * A draw a voided game would have made after its freeze, none paid: "Not paid — game voided by
 * Agent J*** D***: Customer dispute". `name` is already masked.
 */
export function voidedNotPaidText(voidedBy: { role: string; name: string } | null, reason: string | null): string {
  const by = voidedBy ? ` by ${ROLE_LABELS[normalizeRole(voidedBy.role)]} ${voidedBy.name}` : '';
  return `Not paid — game voided${by}${reason ? `: ${reason}` : ''}`;
}

/** An entry's nonce as printed for reading aloud or typing: in fours, `a1b2 c3d4 e5f6 0718`. */
export const groupInFours = (text: string) => text.match(/.{1,4}/g)?.join(' ') ?? '';

/** A draw's winner as the public proof names them, masked: "J*** D*** · ****4567", or "No winner". */
export const winnerText = (winner: { name: string; phoneNumber: string } | null) =>
  winner ? `${winner.name} · ${winner.phoneNumber}` : 'No winner';
