import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shortDigest } from '@lot/domain/digest';
import type { AppContext } from '../../lib/context.ts';
import { periodic, type Job } from '../../lib/jobs.ts';
import {
  checkpointChainStates,
  checkpointLedger,
  checkpointState,
  insertCheckpoint,
  type ChainState,
  type Db,
} from './audit.repository.ts';

export { shortDigest };

/**
 * Signed checkpoints of the audit chains, kept outside the database (decision 045): every chain's
 * head (chain, seq, hash) and row count, and the ledger's extent, signed with an Ed25519 key kept
 * in DATA_DIR. `audit:verify --checkpoint FILE` later names any chain deleted, truncated or
 * rewritten since.
 */
export const CHECKPOINT_FORMAT = 'lot-audit-checkpoint/1';

export type CheckpointChain = { chain: number; seq: number; hash: string; rows: number };

/** What is signed, in this key order (the signature covers its JSON text). */
export type CheckpointPayload = {
  format: typeof CHECKPOINT_FORMAT;
  madeAt: string;
  /**
   * The ledger at the checkpoint: rows up to `lastId` (`rows` of them), compared from `from` on,
   * game pools up to `poolsFrom` without a freeze row (decision 059; absent from older files).
   */
  ledger: { from: number; lastId: number; rows: number; poolsFrom?: number };
  auditRows: number;
  chains: CheckpointChain[];
  /** The signer's Ed25519 public key, SPKI DER in base64. */
  publicKey: string;
};

export type Checkpoint = CheckpointPayload & { digest: string; signature: string };

/** The file in DATA_DIR holding the signing key (PKCS#8 PEM, readable by the owner only). */
export const CHECKPOINT_KEY_FILE = 'checkpoint-key';

/** The signing key in DATA_DIR, created on first use. */
export function checkpointKey(dataDir: string): KeyObject {
  const file = join(dataDir, CHECKPOINT_KEY_FILE);
  if (existsSync(file)) return createPrivateKey(readFileSync(file, 'utf8'));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  return privateKey;
}

/** The signing key in DATA_DIR if there is one (a verify never creates it). */
export function existingCheckpointKey(dataDir: string): KeyObject | undefined {
  const file = join(dataDir, CHECKPOINT_KEY_FILE);
  return existsSync(file) ? createPrivateKey(readFileSync(file, 'utf8')) : undefined;
}

const publicKeyText = (key: KeyObject) =>
  createPublicKey(key).export({ format: 'der', type: 'spki' }).toString('base64');

/** The exact bytes signed and digested: the payload's fields in their fixed order, whatever the file's layout. */
function canonical(p: CheckpointPayload): Buffer {
  const ordered: CheckpointPayload = {
    format: p.format,
    madeAt: p.madeAt,
    ledger: {
      from: p.ledger.from,
      lastId: p.ledger.lastId,
      rows: p.ledger.rows,
      ...(p.ledger.poolsFrom !== undefined && { poolsFrom: p.ledger.poolsFrom }),
    },
    auditRows: p.auditRows,
    chains: p.chains.map((c) => ({ chain: c.chain, seq: c.seq, hash: c.hash, rows: c.rows })),
    publicKey: p.publicKey,
  };
  return Buffer.from(JSON.stringify(ordered), 'utf8');
}

/** Every chain's head and row count and the ledger's extent, read in one statement (one snapshot), made at `now`. */
export async function makeCheckpoint(db: Db, key: KeyObject, now: Date): Promise<Checkpoint> {
  const rows = await checkpointState(db);
  const first = rows[0];
  const chains = rows
    .filter((r) => r.chain !== null)
    .map((r) => ({ chain: Number(r.chain), seq: Number(r.seq), hash: String(r.hash), rows: Number(r.rows) }));
  const payload: CheckpointPayload = {
    format: CHECKPOINT_FORMAT,
    madeAt: now.toISOString(),
    ledger: {
      from: Number(first?.ledger_from ?? 0),
      lastId: Number(first?.last_id ?? 0),
      rows: Number(first?.ledger_rows ?? 0),
      poolsFrom: Number(first?.pools_from ?? 0),
    },
    auditRows: chains.reduce((sum, c) => sum + c.rows, 0),
    chains,
    publicKey: publicKeyText(key),
  };
  const bytes = canonical(payload);
  return {
    ...payload,
    digest: createHash('sha256').update(bytes).digest('hex'),
    signature: sign(null, bytes, key).toString('base64'),
  };
}

/** The checkpoint as its file holds it: the payload, then its digest and signature. */
export const checkpointText = (checkpoint: Checkpoint) => `${JSON.stringify(checkpoint, null, 1)}\n`;

/** The latest checkpoint's digest and time in the database, so the server can show it. */
export async function recordCheckpoint(db: Db, checkpoint: Checkpoint, target: string): Promise<void> {
  await insertCheckpoint(
    db,
    {
      madeAt: checkpoint.madeAt,
      digest: checkpoint.digest,
      chains: checkpoint.chains.length,
      auditRows: checkpoint.auditRows,
    },
    target,
  );
}

/** Where a checkpoint goes: a file (its folder created), or an http(s) URL it is POSTed to as JSON. */
export async function writeCheckpoint(checkpoint: Checkpoint, target: string): Promise<void> {
  if (/^https?:\/\//i.test(target)) {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: checkpointText(checkpoint),
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw new Error(`${target} answered ${response.status} ${response.statusText}`);
    return;
  }
  const folder = join(target, '..');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeFileSync(target, checkpointText(checkpoint), { mode: 0o600 });
}

/** A checkpoint's file name in a folder: its time and short digest. */
export const checkpointFileName = (checkpoint: Checkpoint) =>
  `checkpoint-${checkpoint.madeAt.replace(/[:.]/g, '-')}-${shortDigest(checkpoint.digest)}.json`;

/** Makes a checkpoint at `now` (the caller's clock), writes it to `target` and records it; answers it. */
export async function takeCheckpoint(
  db: Db,
  key: KeyObject,
  target: string | ((checkpoint: Checkpoint) => string),
  now: Date,
): Promise<{ checkpoint: Checkpoint; target: string }> {
  const checkpoint = await makeCheckpoint(db, key, now);
  const where = typeof target === 'string' ? target : target(checkpoint);
  await writeCheckpoint(checkpoint, where);
  await recordCheckpoint(db, checkpoint, where);
  return { checkpoint, target: where };
}

export type CheckpointProblem = { chain: number | null; problem: string };

export type CheckpointReport = {
  ok: boolean;
  /** False: the file was changed or not signed by the key it names; nothing else was compared. */
  signed: boolean;
  digest: string;
  madeAt: string;
  chains: number;
  /** The signer's key differs from DATA_DIR's checkpoint-key (when one is given). */
  otherKey: boolean;
  problems: CheckpointProblem[];
};

/** Parses a checkpoint file's text; throws with a plain message when it is not one. */
export function parseCheckpoint(text: string): Checkpoint {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the file is not a checkpoint: it is not JSON');
  }
  const c = value as Partial<Checkpoint> | null;
  if (
    !c ||
    c.format !== CHECKPOINT_FORMAT ||
    typeof c.madeAt !== 'string' ||
    typeof c.publicKey !== 'string' ||
    typeof c.signature !== 'string' ||
    typeof c.auditRows !== 'number' ||
    !c.ledger ||
    !Number.isInteger(c.ledger.from) ||
    !Number.isInteger(c.ledger.lastId) ||
    !Number.isInteger(c.ledger.rows) ||
    (c.ledger.poolsFrom !== undefined && !Number.isInteger(c.ledger.poolsFrom)) ||
    !Array.isArray(c.chains) ||
    !c.chains.every(
      (x) =>
        Number.isInteger(x?.chain) &&
        Number.isInteger(x?.seq) &&
        Number.isInteger(x?.rows) &&
        typeof x?.hash === 'string' &&
        /^[0-9a-f]{64}$/.test(x.hash),
    )
  )
    throw new Error(`the file is not a checkpoint (${CHECKPOINT_FORMAT})`);
  return c as Checkpoint;
}

function signatureHolds(checkpoint: Checkpoint): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(checkpoint.publicKey, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, canonical(checkpoint), key, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * The database against a checkpoint (decision 045), set-based: each chain of the checkpoint must
 * still have its head at or past the checkpoint's seq, the same hash at that seq and as many rows
 * up to it; the ledger as many rows up to the checkpoint's last id, compared from the same
 * baseline. A chain deleted with its head, truncated (rows and head moved back) or rewritten is
 * named; chains begun since are new, not problems.
 */
export async function verifyCheckpoint(db: Db, checkpoint: Checkpoint, ownKey?: KeyObject): Promise<CheckpointReport> {
  const signed = signatureHolds(checkpoint);
  const digest = createHash('sha256').update(canonical(checkpoint)).digest('hex');
  const base = {
    digest,
    madeAt: checkpoint.madeAt,
    chains: checkpoint.chains.length,
    otherKey: ownKey !== undefined && publicKeyText(ownKey) !== checkpoint.publicKey,
  };
  if (!signed || digest !== checkpoint.digest) {
    return {
      ...base,
      ok: false,
      signed: false,
      problems: [{ chain: null, problem: 'the signature does not match: the checkpoint file was changed' }],
    };
  }
  const states = await checkpointChainStates(db, checkpoint.chains);
  const problems: CheckpointProblem[] = states.map((s) => ({ chain: s.chain, problem: chainProblem(s) }));
  const ledger = await checkpointLedger(db, checkpoint.ledger.lastId);
  const ledgerRows = Number(ledger?.rows ?? 0);
  if (ledgerRows !== checkpoint.ledger.rows)
    problems.push({
      chain: null,
      problem: `the ledger: ${ledgerRows} of the checkpoint's ${checkpoint.ledger.rows} entries up to id ${checkpoint.ledger.lastId} remain`,
    });
  if (Number(ledger?.from ?? 0) !== checkpoint.ledger.from)
    problems.push({
      chain: null,
      problem: `the ledger's audit baseline moved from entry ${checkpoint.ledger.from} to ${ledger?.from}: entries were excused from the comparison`,
    });
  const { poolsFrom } = checkpoint.ledger;
  if (poolsFrom !== undefined && Number(ledger?.pools_from ?? 0) !== poolsFrom)
    problems.push({
      chain: null,
      problem: `the game pools' freeze baseline moved from entry ${poolsFrom} to ${ledger?.pools_from}: pools were excused from their game.frozen rows`,
    });
  return { ...base, ok: problems.length === 0, signed: true, problems };
}

function chainProblem(s: ChainState): string {
  const name = `chain ${s.chain} (${s.chain === 0 ? 'rows without an actor' : (s.username ?? `user ${s.chain}`)})`;
  const rowsNow = Number(s.rows_now);
  if (s.head_seq === null)
    return rowsNow === 0
      ? `${name}: deleted, its head and all its rows are gone (the checkpoint had seq ${s.seq}, ${s.rows} rows)`
      : `${name}: its head is gone (the checkpoint had seq ${s.seq}); ${rowsNow} of its ${s.rows} rows remain`;
  if (s.head_seq < s.seq)
    return `${name}: truncated, its head is at seq ${s.head_seq}, the checkpoint had seq ${s.seq}; ${rowsNow} of its ${s.rows} rows remain`;
  if (s.hash_now === null) return `${name}: its row at seq ${s.seq} (the checkpoint's head) is gone`;
  if (s.hash_now !== s.hash)
    return `${name}: rewritten, its row at seq ${s.seq} has another hash than at the checkpoint`;
  return `${name}: rows removed, ${rowsNow} of the checkpoint's ${s.rows} rows up to seq ${s.seq} remain`;
}

/** The report as `audit:verify --checkpoint` prints it, naming the first problem. */
export function describeCheckpoint(report: CheckpointReport): string[] {
  const head = `Checkpoint ${shortDigest(report.digest)} of ${report.madeAt} (${report.chains} chains)`;
  const key = report.otherKey ? ['  note: signed by another key than this DATA_DIR’s checkpoint-key'] : [];
  if (report.ok) return [`${head}: signature OK.`, ...key, 'OK: every chain is still there, as far as it went then.'];
  const first = report.problems[0];
  return [
    `${head}: ${report.signed ? 'signature OK.' : 'SIGNATURE FAILS.'}`,
    ...key,
    `FAILED: ${report.problems.length} problem(s) since the checkpoint.`,
    first ? `First: ${first.problem}` : '',
    ...report.problems.map((p) => `  ${p.problem}`),
  ];
}

/** The server's scheduled checkpoints: DATA_DIR (its key), the folder they go into, and how often. */
export type CheckpointSchedule = { dataDir: string; dir: string; minutes: number };

/**
 * The server's scheduled checkpoints (decision 045): one every `minutes` into `dir`, signed with
 * DATA_DIR's key, each recorded so the admin's dashboard and the next Z report show it; one of the
 * app's background jobs (lib/jobs.ts). A failure is logged and the next one tried on time.
 */
export function checkpointJob(ctx: AppContext, schedule: CheckpointSchedule): Job {
  const name = 'the scheduled audit checkpoint';
  if (schedule.minutes <= 0) return { name, start: () => {}, stop: () => {} };
  const key = checkpointKey(schedule.dataDir);
  return periodic(
    name,
    schedule.minutes * 60_000,
    async () => {
      const to = (c: Checkpoint) => join(schedule.dir, checkpointFileName(c));
      const { checkpoint, target } = await takeCheckpoint(ctx.db, key, to, new Date(ctx.clock()));
      ctx.log.info({ target }, `audit checkpoint ${shortDigest(checkpoint.digest)} written to ${target}`);
    },
    ctx.log,
  );
}
