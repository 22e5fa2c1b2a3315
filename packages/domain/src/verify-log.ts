import { utf8ToBytes } from '@noble/hashes/utils.js';
import { roundTimeMs } from './beacon.ts';
import { DRAW_ALGORITHM_2 } from './draw.ts';
import { frozenLeafOf, gameLogLeafText } from './game-log.ts';
import type { GameProof } from './schemas/games.ts';
import { parseCheckpoint, type Checkpoint } from './tlog/checkpoint.ts';
import { verifyCosignature } from './tlog/cosignature.ts';
import { base64Decode } from './tlog/encoding.ts';
import { leafHash, verifyInclusion } from './tlog/merkle.ts';
import {
  ed25519NoteVerifier,
  type Ed25519Backend,
  nobleEd25519,
  parseNote,
  parseVerifierKey,
  SIG_TYPE_COSIGNATURE_V1,
  SIG_TYPE_ED25519,
  verifyNote,
  type VerifierKey,
} from './tlog/note.ts';

/**
 * Checks a game's freeze in the game log (docs/lot-draw-2.md#checking-the-game-log), against keys
 * the verifier pins, never the server's word: the log's signature on the checkpoint, the `frozen`
 * leaf recomputed from the proof's own fields, its inclusion in the checkpoint's tree, and a quorum
 * of witnesses' cosignatures (C2SP cosignature/v1), each timestamped at least 1 s before round R's
 * publication time. Pure: the /verify page runs it in the browser; scripts/verify-game.mjs is its
 * independent twin, written from the same page.
 */

export const IN_LOG = 'In the game log';
export const WITNESSED = 'Freeze witnessed before round R';
export const NOT_WITNESSED = "Freeze not witnessed: the operator's clock and database are trusted";
/** What the page says when witnesses are pinned but too few vouch for the freeze in time. */
export const WITNESSING_FAILED =
  'Too few of the witnesses pinned here vouch for this freeze before round R: its draws are not proven fair.';
/** The "not applicable" reason of a freeze no witness cosigned (the sentence is NOT_WITNESSED). */
export const NO_COSIGNATURE = 'no witness cosigned the checkpoint';

/** What the verifier pins: the log's Ed25519 vkey, the witnesses' cosignature/v1 vkeys, and how many must cosign. */
export type LogPins = {
  log: string | null;
  witnesses: readonly string[];
  /** How many of the pinned witnesses must have cosigned in time; all of them unless given. */
  quorum?: number;
};

export const NO_LOG_PINS: LogPins = { log: null, witnesses: [] };

/** pass, fail (with the reason in `detail`), or not applicable (`na`, with why). */
export type LogCheck = { name: string; status: 'pass' | 'fail' | 'na'; detail: string };

export type GameLogReport = {
  inLog: LogCheck;
  witnessed: LogCheck;
  /** The pinned witnesses whose cosignatures count: their key names and the times they signed (unix s). */
  witnesses: { name: string; timestamp: number }[];
  /** One plain sentence: who witnessed the freeze and what that proves, or the "not witnessed" label. */
  sentence: string;
};

const FROZEN = new Set(['drawing', 'settled', 'voided']);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** Names joined as people write them: "A", "A and B", "A, B and C". */
const names = (list: readonly string[]) =>
  list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;

function pinnedKey(vkey: string, type: number): VerifierKey | string {
  try {
    const key = parseVerifierKey(vkey.trim());
    if (key.type !== type)
      return `${vkey} is not ${type === SIG_TYPE_ED25519 ? 'an Ed25519 log' : 'a cosignature/v1 witness'} key`;
    return key;
  } catch (error) {
    return `${vkey}: ${(error as Error).message}`;
  }
}

/** The inclusion proof's hashes, or null when one is not canonical base64. */
function decodePath(inclusion: readonly string[]): Uint8Array[] | null {
  try {
    return inclusion.map((h) => base64Decode(h, 'an inclusion proof hash'));
  } catch {
    return null;
  }
}

/** The names on a checkpoint's cosignature lines (72 bytes: a timestamp and a signature). */
function cosignersOf(note: string): string[] {
  try {
    return parseNote(note)
      .signatures.filter((s) => s.signature.length === 72)
      .map((s) => s.name);
  } catch {
    return [];
  }
}

export function verifyGameLog(
  proof: GameProof,
  pins: LogPins = NO_LOG_PINS,
  backend: Ed25519Backend = nobleEd25519,
): GameLogReport {
  const evidence = proof.log;
  const frozen = FROZEN.has(proof.status);
  const v2 = proof.algorithm === DRAW_ALGORITHM_2;
  const na = (name: string, detail: string): LogCheck => ({ name, status: 'na', detail });
  const fail = (name: string, detail: string): LogCheck => ({ name, status: 'fail', detail });
  const unwitnessed = (detail = NO_COSIGNATURE): GameLogReport => ({
    inLog,
    witnessed: na(WITNESSED, detail),
    witnesses: [],
    sentence: NOT_WITNESSED,
  });

  // 1. In the game log: the log's signature, the leaf the proof implies, its inclusion.
  let inLog: LogCheck;
  let checkpoint: Checkpoint | null = null;
  let noteText = '';
  const logKey = pins.log === null ? null : pinnedKey(pins.log, SIG_TYPE_ED25519);
  if (!frozen) inLog = na(IN_LOG, `the game is ${proof.status}: its entries are not frozen yet`);
  else if (logKey === null)
    inLog = na(
      IN_LOG,
      evidence ? "no log key pinned: pin the log's key to check" : 'the proof carries no game-log evidence',
    );
  else if (typeof logKey === 'string') inLog = fail(IN_LOG, `the pinned log key is not usable: ${logKey}`);
  else if (!evidence) inLog = fail(IN_LOG, 'the proof carries no game-log evidence for its freeze');
  else {
    const checked = verifyNote(evidence.freeze.checkpoint, [ed25519NoteVerifier(logKey, backend)]);
    const expected = gameLogLeafText(frozenLeafOf(proof));
    let parsed: Checkpoint | string;
    try {
      parsed = checked.ok ? parseCheckpoint(checked.note.text) : checked.message;
    } catch (error) {
      parsed = (error as Error).message;
    }
    const path = decodePath(evidence.freeze.inclusion);
    if (!checked.ok)
      inLog = fail(
        IN_LOG,
        checked.reason === 'unverified'
          ? `the checkpoint is not signed by the pinned log key ${logKey.name}`
          : `the checkpoint's signature does not verify: ${checked.message}`,
      );
    else if (typeof parsed === 'string') inLog = fail(IN_LOG, `the checkpoint is malformed: ${parsed}`);
    else if (parsed.origin !== logKey.name || parsed.origin !== evidence.origin)
      inLog = fail(IN_LOG, `the checkpoint names the log ${parsed.origin}, not ${logKey.name}`);
    else if (evidence.freeze.data !== expected)
      inLog = fail(IN_LOG, "the log's leaf is not this game's freeze (code, entries digest, round, chain and time)");
    else if (
      path === null ||
      !verifyInclusion(leafHash(utf8ToBytes(expected)), evidence.freeze.index, parsed.size, path, parsed.rootHash)
    )
      inLog = fail(
        IN_LOG,
        `the inclusion proof of leaf ${evidence.freeze.index} does not lead to the checkpoint's root`,
      );
    else {
      checkpoint = parsed;
      noteText = checked.note.text;
      inLog = {
        name: IN_LOG,
        status: 'pass',
        detail: `the freeze is leaf ${evidence.freeze.index} of ${parsed.origin}, in the tree of ${parsed.size} leaves its key signed`,
      };
    }
  }

  // 2. Freeze witnessed before round R: a quorum of pinned witnesses cosigned that checkpoint in time.
  if (!frozen) return { inLog, witnessed: na(WITNESSED, 'the game is not frozen yet'), witnesses: [], sentence: '' };
  if (!v2) return { ...unwitnessed('LOT-DRAW-1 waits for no beacon round'), sentence: '' };
  if (!evidence) return unwitnessed('the proof carries no game-log evidence');
  const cosigners = cosignersOf(evidence.freeze.checkpoint);
  if (pins.witnesses.length === 0)
    return cosigners.length === 0
      ? unwitnessed()
      : unwitnessed(`cosigned by ${names(cosigners)}, whose keys this verifier does not pin: pin a witness to check`);
  if (checkpoint === null) {
    const why =
      inLog.status === 'na'
        ? "pin the log's key too: a cosignature counts on a checkpoint the log signed"
        : 'the freeze is not in a checkpoint the pinned log signed';
    return { inLog, witnessed: fail(WITNESSED, why), witnesses: [], sentence: WITNESSING_FAILED };
  }
  const beacon = proof.beacon;
  if (!beacon || beacon.round === null)
    return {
      inLog,
      witnessed: fail(WITNESSED, 'the proof names no round R'),
      witnesses: [],
      sentence: WITNESSING_FAILED,
    };
  const deadline = roundTimeMs(beacon, beacon.round) / 1000 - 1;
  const note = parseNote(evidence.freeze.checkpoint);
  const counted: GameLogReport['witnesses'] = [];
  const problems: string[] = [];
  for (const vkey of pins.witnesses) {
    const key = pinnedKey(vkey, SIG_TYPE_COSIGNATURE_V1);
    if (typeof key === 'string') {
      problems.push(`the pinned witness key is not usable: ${key}`);
      continue;
    }
    const mine = note.signatures.filter((s) => s.name === key.name && s.keyId === key.keyId);
    const good = mine.map((s) => verifyCosignature(s, noteText, key, backend)).find((r) => r !== null);
    if (mine.length === 0) problems.push(`${key.name} did not cosign`);
    else if (!good) problems.push(`the cosignature of ${key.name} does not verify`);
    else if (good.timestamp > deadline)
      problems.push(
        `${key.name} cosigned at ${iso(good.timestamp)}, less than 1 s before round ${beacon.round} (published ${iso(deadline + 1)})`,
      );
    else counted.push({ name: key.name, timestamp: good.timestamp });
  }
  const quorum = pins.quorum ?? pins.witnesses.length;
  if (counted.length < Math.max(1, quorum))
    return {
      inLog,
      witnessed: fail(
        WITNESSED,
        `${counted.length} of the ${Math.max(1, quorum)} cosignatures needed before round ${beacon.round}: ${problems.join('; ')}`,
      ),
      witnesses: counted,
      sentence: WITNESSING_FAILED,
    };
  const who = names(counted.map((w) => w.name));
  return {
    inLog,
    witnessed: {
      name: WITNESSED,
      status: 'pass',
      detail: `cosigned by ${counted.map((w) => `${w.name} at ${iso(w.timestamp)}`).join(', ')}; round ${beacon.round} was published at ${iso(deadline + 1)}`,
    },
    witnesses: counted,
    sentence: `${who} saw this freeze in the game log, by ${counted.length === 1 ? 'its' : 'their'} own clock${counted.length === 1 ? '' : 's'}, before round ${beacon.round} existed: the entries were fixed before anyone, the operator included, could know the numbers drawn.`,
  };
}
