import { DEFAULT_PINS, type LogPins, type PinnedChain } from '@lot/domain/verify';

/**
 * The beacon chains the verify page trusts: drand quicknet always, and one more when the page's
 * address pins it, with all four figures verifyProof pins (`?chain=HASH&publicKey=HEX&genesisTime=
 * SECONDS&period=SECONDS`, as scripts/verify-game.mjs takes them): a test chain, or a chain LOT moves
 * to later. The page says which pin a proof was checked against, so a link that pins a chain of its
 * own is seen for what it is.
 */
export type VerifyPins = {
  pins: readonly PinnedChain[];
  /** The chain the address pins, when it names a well-formed one. */
  linked: PinnedChain | null;
  /** The address tried to pin a chain but left a figure out or got one wrong: nothing was pinned. */
  refused: string | null;
  /**
   * The game log's key (`?log=<vkey>`) and the witnesses' keys (`?witness=<vkey>`, repeated; all of
   * them must have cosigned unless `?quorum=N` says how many): the "In the game log" and "Freeze
   * witnessed before round R" checks run against these, never against keys the proof names.
   */
  log: LogPins;
};

export const LINKED_CHAIN_NAME = 'the chain pinned by this link';

const CHAIN_HASH = /^[0-9a-f]{64}$/;
const PUBLIC_KEY = /^[0-9a-f]{192}$/;
const WHOLE = /^\d{1,12}$/;

/** `?log=`, `?witness=` (repeated) and `?quorum=`: as given (verifyGameLog says what is wrong with a key). */
export function logPinsFrom(params: URLSearchParams): LogPins {
  const log = params.get('log')?.trim() || null;
  const witnesses = params
    .getAll('witness')
    .map((w) => w.trim())
    .filter(Boolean);
  const quorum = params.get('quorum')?.trim();
  return {
    log,
    witnesses,
    ...(quorum && /^\d{1,3}$/.test(quorum) && witnesses.length > 0 && { quorum: Number(quorum) }),
  };
}

export function pinsFrom(params: URLSearchParams): VerifyPins {
  return { ...chainPinsFrom(params), log: logPinsFrom(params) };
}

function chainPinsFrom(params: URLSearchParams): Omit<VerifyPins, 'log'> {
  const [chain, publicKey, genesis, period] = ['chain', 'publicKey', 'genesisTime', 'period'].map((name) =>
    params.get(name)?.trim().toLowerCase(),
  );
  if ([chain, publicKey, genesis, period].every((value) => value === undefined)) {
    return { pins: DEFAULT_PINS, linked: null, refused: null };
  }
  const refuse = (refused: string): Omit<VerifyPins, 'log'> => ({ pins: DEFAULT_PINS, linked: null, refused });
  if (!chain || !CHAIN_HASH.test(chain) || !publicKey || !PUBLIC_KEY.test(publicKey)) {
    return refuse(
      'This link tries to pin another beacon chain, but its chain hash (64 hex digits) or public key (192 hex digits) is missing or not well formed: it was ignored.',
    );
  }
  if (!genesis || !WHOLE.test(genesis) || !period || !WHOLE.test(period) || Number(period) < 1) {
    return refuse(
      'This link names a beacon chain by its hash and public key but not its genesisTime and period (whole seconds), which decide which round is R: it was not pinned.',
    );
  }
  const linked: PinnedChain = {
    chainHash: chain,
    publicKey,
    genesisTime: Number(genesis),
    period: Number(period),
    name: LINKED_CHAIN_NAME,
  };
  return { pins: [...DEFAULT_PINS, linked], linked, refused: null };
}

/** Whether a pin is exactly the proof's beacon (all four figures, as verifyProof compares them). */
export function pins(
  pin: PinnedChain | null | undefined,
  beacon: { chainHash: string; publicKey: string; genesisTime: number; period: number } | null,
): boolean {
  return (
    !!pin &&
    !!beacon &&
    pin.chainHash === beacon.chainHash &&
    pin.publicKey === beacon.publicKey &&
    pin.genesisTime === beacon.genesisTime &&
    pin.period === beacon.period
  );
}

/** A long hex value cut to its first and last 8 characters, as the page names a chain. */
export const shortHex = (hex: string) => (hex.length > 20 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : hex);
