import { AlertTriangle, Globe2, Link2 } from 'lucide-react';
import { DEFAULT_PINS } from '@lot/domain/verify';
import type { GameProof } from '@lot/domain/schemas/games';
import { pins as pinsBeacon, shortHex, type VerifyPins } from '../../../lib/game/verify-pins.ts';

/** The label every LOT-DRAW-1 game carries, wherever it is shown (decision 033). */
import { SERVER_RANDOMNESS_ONLY } from '@lot/domain/draw';

/**
 * What the game's protocol proves, in one sentence: LOT-DRAW-2's public randomness, or LOT-DRAW-1
 * labelled as server randomness only. For LOT-DRAW-2, which chain this page checked it against.
 */
export function ProtocolStatement({ proof, pins }: { proof: GameProof; pins: VerifyPins }) {
  if (proof.algorithm !== 'LOT-DRAW-2') {
    return (
      <div
        data-testid="verify-protocol"
        data-protocol={proof.algorithm}
        className="rounded-xl bg-amber-50 p-4 ring-1 ring-amber-300"
      >
        <p className="flex items-start gap-2 font-semibold text-amber-900">
          <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <span data-testid="verify-protocol-label">{SERVER_RANDOMNESS_ONLY}</span>
        </p>
        <p className="mt-1 text-sm text-amber-900">
          {proof.algorithm}: the numbers follow from a seed the server chose when the game opened. Its SHA-256 was
          published then, so the seed could not be changed afterwards; but it was secret, and whoever held it could
          compute every draw before it was made.
        </p>
      </div>
    );
  }
  const round = proof.beacon?.round ?? null;
  return (
    <div
      data-testid="verify-protocol"
      data-protocol={proof.algorithm}
      className="rounded-xl bg-indigo-50 p-4 ring-1 ring-indigo-200"
    >
      <p className="flex items-start gap-2 text-sm text-indigo-950 sm:text-base">
        <Globe2 className="mt-0.5 h-5 w-5 shrink-0 text-indigo-600" aria-hidden="true" />
        <span data-testid="verify-protocol-label">
          <span className="font-semibold">LOT-DRAW-2:</span>{' '}
          {round === null
            ? 'the numbers will depend on public randomness (a drand round) published after the entries are frozen, so nobody — not even the shop or LOT — can know or steer them in advance.'
            : `the numbers depend on public randomness (drand round ${round}) published after the entries were frozen, so nobody — not even the shop or LOT — could know or steer them in advance.`}
        </span>
      </p>
      <PinNote proof={proof} pins={pins} />
    </div>
  );
}

/** Which chain the proof was checked against: the default pin, or one this page's link pins (said plainly). */
function PinNote({ proof, pins }: { proof: GameProof; pins: VerifyPins }) {
  const chain = proof.beacon?.chainHash;
  const linked = pinsBeacon(pins.linked, proof.beacon);
  const quicknet = DEFAULT_PINS.some((pin) => pinsBeacon(pin, proof.beacon));
  return (
    <div className="mt-2 space-y-1 pl-7 text-xs text-indigo-900 sm:text-sm">
      {linked ? (
        <p data-testid="verify-pin" className="flex items-start gap-1.5">
          <Link2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            Checked against chain <span className="font-mono">{shortHex(chain ?? '')}</span> pinned by this link, not
            drand quicknet: trust this check as far as you trust whoever gave you the link.
          </span>
        </p>
      ) : quicknet ? (
        <p data-testid="verify-pin">Checked against drand quicknet, the public chain this page trusts.</p>
      ) : (
        <p data-testid="verify-pin">
          Chain <span className="font-mono">{shortHex(chain ?? '')}</span> is not a chain this page trusts, so its
          randomness cannot be relied on (see the Beacon chain check).
        </p>
      )}
      {pins.refused && <p data-testid="verify-pin-refused">{pins.refused}</p>}
    </div>
  );
}
