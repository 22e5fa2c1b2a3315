import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { base64Decode, base64Encode } from '@lot/domain/tlog/encoding';
import { ed25519NoteVerifier, isKeyName, type NoteVerifier, parseVerifierKey } from '@lot/domain/tlog/note';
import { type Cosigner, ed25519Cosigner, ED25519_SEED_SIZE, newEd25519Seed, nodeEd25519 } from '../lib/note-signer.ts';

/**
 * The files a witness keeps in its data directory (docs/deploy.md#9-run-a-witness, decision 078):
 *
 * - `witness-key`: its Ed25519 seed, base64, the owner's only (0600), created on first start;
 * - `witness.json`: its name and the logs it trusts, `{ "name", "logs": [{ "origin", "vkeys" }] }`;
 * - `state.json`: per origin, the latest checkpoint it cosigned (size, root hash, the note with the
 *   log's signatures and its cosignature), rewritten atomically before every answer;
 * - `evidence/`: the first requests (up to 100) whose checkpoint a trusted log signed but that were
 *   not consistent with what the witness cosigned (422): signed proof that the log forked.
 */

export type TrustedLog = { origin: string; vkeys: string[] };
export type WitnessConfig = { name: string; logs: TrustedLog[] };
export type CosignedCheckpoint = {
  size: number;
  /** Base64 root hash. */
  rootHash: string;
  /** The cosigned checkpoint note: the log's verified signatures, then this witness's. */
  checkpoint: string;
  /** The POSIX time of the cosignature (the next one is never earlier). */
  timestamp: number;
};
export type WitnessState = Record<string, CosignedCheckpoint>;

export const KEY_FILE = 'witness-key';
export const CONFIG_FILE = 'witness.json';
export const STATE_FILE = 'state.json';
export const EVIDENCE_DIR = 'evidence';
export const MAX_EVIDENCE_FILES = 100;

/** A data directory's content refused at start: the message names the file and the fault. */
export class WitnessSetupError extends Error {
  override name = 'WitnessSetupError';
}

/**
 * Writes `content` to `file` so that a crash leaves either the old file or the new one: a
 * temporary file beside it, flushed to disk, renamed over it, and the directory flushed.
 */
export function writeFileAtomically(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new WitnessSetupError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The key file's seed, created (0600) when the directory has none; `created` says so. */
function loadSeed(dir: string): { seed: Uint8Array; created: boolean } {
  const file = join(dir, KEY_FILE);
  if (!existsSync(file)) {
    const seed = newEd25519Seed();
    writeFileAtomically(file, `${base64Encode(seed)}\n`);
    return { seed, created: true };
  }
  let seed: Uint8Array;
  try {
    seed = base64Decode(readFileSync(file, 'utf8').trim(), file);
  } catch (error) {
    throw new WitnessSetupError(`${file} does not hold a base64 key: ${(error as Error).message}`);
  }
  if (seed.length !== ED25519_SEED_SIZE) throw new WitnessSetupError(`${file} does not hold a 32-byte Ed25519 seed`);
  return { seed, created: false };
}

/** The log's verifiers for one trusted origin: Ed25519 (type 0x01) vkeys only. */
export function logVerifiers(log: TrustedLog): NoteVerifier[] {
  return log.vkeys.map((vkey) => ed25519NoteVerifier(vkey, nodeEd25519));
}

function checkConfig(config: unknown, file: string): WitnessConfig {
  const fault = (what: string) => new WitnessSetupError(`${file}: ${what}`);
  if (typeof config !== 'object' || config === null) throw fault('not an object');
  const { name, logs } = config as Record<string, unknown>;
  if (typeof name !== 'string' || !isKeyName(name)) throw fault('"name" is a key name without spaces or "+"');
  if (!Array.isArray(logs)) throw fault('"logs" is a list of { "origin", "vkeys" }');
  const origins = new Set<string>();
  for (const log of logs as unknown[]) {
    const { origin, vkeys } = (log ?? {}) as Record<string, unknown>;
    if (typeof origin !== 'string' || origin.length === 0 || origin.includes('\n')) {
      throw fault('each log has a one-line "origin"');
    }
    if (origins.has(origin)) throw fault(`the origin ${origin} is listed twice`);
    origins.add(origin);
    if (!Array.isArray(vkeys) || vkeys.length === 0 || vkeys.some((vkey) => typeof vkey !== 'string')) {
      throw fault(`the log ${origin} has a non-empty list of "vkeys"`);
    }
    try {
      logVerifiers({ origin, vkeys: vkeys as string[] });
    } catch (error) {
      throw fault(`a key of the log ${origin} is not an Ed25519 verifier key: ${(error as Error).message}`);
    }
  }
  return { name, logs: logs as TrustedLog[] };
}

function checkState(state: unknown, file: string): WitnessState {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    throw new WitnessSetupError(`${file}: not an object of origins`);
  }
  for (const [origin, entry] of Object.entries(state)) {
    const { size, rootHash, checkpoint, timestamp } = (entry ?? {}) as Record<string, unknown>;
    const ok =
      Number.isSafeInteger(size) &&
      (size as number) >= 0 &&
      typeof rootHash === 'string' &&
      typeof checkpoint === 'string' &&
      Number.isSafeInteger(timestamp);
    if (!ok)
      throw new WitnessSetupError(`${file}: the entry of ${origin} is not { size, rootHash, checkpoint, timestamp }`);
  }
  return state as WitnessState;
}

export type WitnessFiles = {
  dir: string;
  cosigner: Cosigner;
  config: WitnessConfig;
  state: WitnessState;
  /** What the first start created, for the start to say so. */
  created: string[];
};

/**
 * Opens (and on first start creates) a witness's data directory. `name` is the witness's key
 * name, needed when the directory is new; an existing one keeps its own, and a different `name`
 * is refused (the key ID, which clients pin, depends on it).
 */
export function openWitnessFiles(dir: string, name?: string): WitnessFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const created: string[] = [];
  const { seed, created: newKey } = loadSeed(dir);
  if (newKey) created.push(join(dir, KEY_FILE));
  const configFile = join(dir, CONFIG_FILE);
  let config: WitnessConfig;
  if (existsSync(configFile)) {
    config = checkConfig(readJson(configFile), configFile);
    if (name !== undefined && name !== config.name) {
      throw new WitnessSetupError(
        `${configFile} names this witness ${config.name}, not ${name}: its vkey depends on its name; edit the file to rename it`,
      );
    }
  } else {
    config = checkConfig({ name: name ?? `${hostname()}/witness`, logs: [] }, configFile);
    writeFileAtomically(configFile, `${JSON.stringify(config, null, 2)}\n`);
    created.push(configFile);
  }
  const stateFile = join(dir, STATE_FILE);
  const state = existsSync(stateFile) ? checkState(readJson(stateFile), stateFile) : {};
  return { dir, cosigner: ed25519Cosigner(config.name, seed), config, state, created };
}

/** Adds a log vkey to the trusted logs (its origin: `origin`, by default the key's name) and saves. */
export function trustLog(files: WitnessFiles, vkey: string, origin?: string): TrustedLog {
  let keyName: string;
  try {
    keyName = parseVerifierKey(vkey).name;
  } catch (error) {
    throw new WitnessSetupError(`not a log verifier key: ${(error as Error).message}`);
  }
  const logOrigin = origin ?? keyName;
  const config = structuredClone(files.config);
  let log = config.logs.find((l) => l.origin === logOrigin);
  if (!log) {
    log = { origin: logOrigin, vkeys: [] };
    config.logs.push(log);
  }
  if (!log.vkeys.includes(vkey)) log.vkeys.push(vkey);
  const file = join(files.dir, CONFIG_FILE);
  files.config = checkConfig(config, file);
  writeFileAtomically(file, `${JSON.stringify(files.config, null, 2)}\n`);
  return log;
}

/** Saves the state (atomically) with `origin`'s entry replaced; the caller answers only after. */
export function saveCosigned(files: WitnessFiles, origin: string, entry: CosignedCheckpoint): void {
  const state = { ...files.state, [origin]: entry };
  writeFileAtomically(join(files.dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
  files.state = state;
}

/**
 * Keeps a refused request signed by a trusted log (a 422) in `evidence/`, up to
 * MAX_EVIDENCE_FILES of them (the first ones are the proof; only the log's key can make more).
 * Returns the file, or null when the directory is full.
 */
export function keepEvidence(files: WitnessFiles, name: string, body: string): string | null {
  const dir = join(files.dir, EVIDENCE_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const count = readdirSync(dir).length;
  if (count >= MAX_EVIDENCE_FILES) return null;
  const file = join(dir, `${String(count + 1).padStart(3, '0')}-${name}`);
  writeFileAtomically(file, body);
  return file;
}
