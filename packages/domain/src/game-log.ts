import { utf8ToBytes } from '@noble/hashes/utils.js';
import { toHex, type DrawCrypto } from './draw.ts';

/**
 * The game log's leaves (docs/lot-draw-2.md#the-game-log, decision 081): one per game event, a
 * few lines of UTF-8 text, each `name value`, in a fixed order per event, ending with a newline.
 * Every value is a single token (a game code, hex, a decimal integer, an ISO time, a protocol
 * name), so the text is canonical: whoever knows the event writes the same bytes. `-` stands for
 * a value the game does not have (the chain and round of a LOT-DRAW-1 game).
 */

export const GAME_LOG_LEAF_HEADER = 'lot-game-log/v1';

export const GAME_LOG_EVENTS = ['opened', 'frozen', 'settled', 'voided', 'discarded'] as const;
export type GameLogEvent = (typeof GAME_LOG_EVENTS)[number];

export type OpenedLeaf = {
  event: 'opened';
  code: string;
  protocol: string;
  commitment: string;
  /** The beacon's chain hash (LOT-DRAW-2); null for LOT-DRAW-1. */
  chain: string | null;
};

export type FrozenLeaf = {
  event: 'frozen';
  code: string;
  entriesDigest: string;
  /**
   * L, the latest public beacon round at the freeze (issue 41 item 1, the freeze by evidence).
   * Null until the server names it: written `-`.
   */
  latestRound: number | null;
  /** R, the round the draws wait for; null for LOT-DRAW-1. */
  round: number | null;
  chain: string | null;
  /** The freeze time, ISO 8601 with milliseconds, UTC. */
  frozenAt: string;
};

/** The end of a game: `settled`, `voided` (after its freeze) or `discarded` (before). */
export type EndedLeaf = {
  event: 'settled' | 'voided' | 'discarded';
  code: string;
  /** Hex SHA-256 of the outcome text (`outcomeText`). */
  outcome: string;
  /** The seed, revealed now (hex). */
  seed: string;
};

export type GameLogLeaf = OpenedLeaf | FrozenLeaf | EndedLeaf;

const token = (value: string | number | null): string => {
  if (value === null) return '-';
  const text = String(value);
  // A value with a blank or a line break would make the text ambiguous: never written.
  if (text === '' || /\s/.test(text)) throw new Error(`a game log value must be one token: ${JSON.stringify(text)}`);
  return text;
};

function fields(leaf: GameLogLeaf): [string, string | number | null][] {
  switch (leaf.event) {
    case 'opened':
      return [
        ['code', leaf.code],
        ['protocol', leaf.protocol],
        ['commitment', leaf.commitment],
        ['chain', leaf.chain],
      ];
    case 'frozen':
      return [
        ['code', leaf.code],
        ['entries-digest', leaf.entriesDigest],
        ['latest-round', leaf.latestRound],
        ['round', leaf.round],
        ['chain', leaf.chain],
        ['frozen-at', leaf.frozenAt],
      ];
    default:
      return [
        ['code', leaf.code],
        ['outcome', leaf.outcome],
        ['seed', leaf.seed],
      ];
  }
}

/** The leaf's text: the header, the event, then its fields, one per line. */
export function gameLogLeafText(leaf: GameLogLeaf): string {
  const lines = [GAME_LOG_LEAF_HEADER, `event ${leaf.event}`, ...fields(leaf).map(([k, v]) => `${k} ${token(v)}`)];
  return `${lines.join('\n')}\n`;
}

/** The leaf's bytes, as the log hashes them. */
export const gameLogLeafBytes = (leaf: GameLogLeaf): Uint8Array => utf8ToBytes(gameLogLeafText(leaf));

/**
 * What a game's end hashes as its outcome: the final status, then the numbers drawn in order,
 * comma-separated (none: an empty line).
 */
export const outcomeText = (status: EndedLeaf['event'], drawn: readonly number[]): string =>
  `${status}\n${drawn.join(',')}\n`;

/** Hex SHA-256 of `outcomeText`. */
export async function outcomeDigest(
  status: EndedLeaf['event'],
  drawn: readonly number[],
  crypto: DrawCrypto,
): Promise<string> {
  return toHex(await crypto.sha256(utf8ToBytes(outcomeText(status, drawn))));
}

/** What a game's proof (GET /api/verify/{code}) gives the leaves. */
type ProofFields = {
  code: string;
  algorithm: string;
  status: string;
  commitment: string;
  entriesDigest: string;
  beacon: { chainHash: string; round: number | null; latestRound?: number | null } | null;
  frozenAt: string | null;
  draws: readonly { number: number }[];
  serverSeed: string | null;
};

/** The `opened` leaf a game's proof implies: what a verifier writes to find the game in the log. */
export const openedLeafOf = (proof: ProofFields): OpenedLeaf => ({
  event: 'opened',
  code: proof.code,
  protocol: proof.algorithm,
  commitment: proof.commitment,
  chain: proof.beacon?.chainHash ?? null,
});

/** The `frozen` leaf of a frozen game's proof (L `-` on a LOT-DRAW-1 game). */
export const frozenLeafOf = (proof: ProofFields): FrozenLeaf => ({
  event: 'frozen',
  code: proof.code,
  entriesDigest: proof.entriesDigest,
  latestRound: proof.beacon?.latestRound ?? null,
  round: proof.beacon?.round ?? null,
  chain: proof.beacon?.chainHash ?? null,
  frozenAt: proof.frozenAt ?? '',
});

/** The last leaf of an ended game's proof: its status, the numbers really drawn, the seed. */
export async function endedLeafOf(proof: ProofFields, crypto: DrawCrypto): Promise<EndedLeaf> {
  const event = proof.status as EndedLeaf['event'];
  if (!['settled', 'voided', 'discarded'].includes(event)) throw new Error(`a ${proof.status} game has not ended`);
  const drawn = proof.draws.map((d) => d.number);
  return { event, code: proof.code, outcome: await outcomeDigest(event, drawn, crypto), seed: proof.serverSeed ?? '' };
}
