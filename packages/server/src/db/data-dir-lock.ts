import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * One writer on the embedded database (decision 043). PGlite lets one process open its data
 * directory and keeps no lock of its own: a second process on it corrupts it or aborts. So every
 * process that opens `DATA_DIR/db` (the server, `ledger:check`, `audit:verify`, `db:migrate`,
 * `seed:demo`, a backup or restore without a server) first holds `DATA_DIR/db.lock`, which names
 * it: its process id, when that process started (so a reused id is not mistaken for it) and what
 * it is. A lock whose process is gone (killed, crashed) is taken over.
 */
export type LockHolder = {
  pid: number;
  /** The process's start time (Linux: field 22 of /proc/<pid>/stat); absent where unknown. */
  started?: string;
  /** `server`, the npm script that holds it (`ledger:check`, …), or `process` (any other opener). */
  command: string;
};

export const lockFile = (pgliteDir: string) => `${pgliteDir}.lock`;

/** The command that opened DATA_DIR/db could not: another process has it. */
export class DataDirBusy extends Error {
  constructor(
    readonly holder: LockHolder,
    dataDir: string,
    command: string,
  ) {
    super(busyMessage(holder, dataDir, command));
  }
}

/** One plain line: who has the directory and what to do. */
function busyMessage(holder: LockHolder, dataDir: string, command: string): string {
  const who =
    holder.command === 'server'
      ? `A LOT server (pid ${holder.pid})`
      : holder.command === 'process'
        ? `A LOT process (pid ${holder.pid})`
        : `npm run ${holder.command} (pid ${holder.pid})`;
  const what = holder.command === 'server' ? 'stop it first' : 'wait for it to finish';
  const copy = ['ledger:check', 'audit:verify'].includes(command) && holder.command === 'server';
  return (
    `${who} has DATA_DIR ${dataDir} open: ${what}` +
    (copy ? ', or check a copy (npm run backup, then npm run restore into another DATA_DIR)' : '') +
    '.'
  );
}

/** A process's state and start time, as the kernel counts it; undefined off Linux or once it is gone. */
function processStat(pid: number): { state: string; started: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; field 3 follows its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', started: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/** When a process started (field 22 of /proc/<pid>/stat); undefined off Linux or once it is gone. */
export function processStart(pid: number): string | undefined {
  return processStat(pid)?.started;
}

/**
 * Whether the process a lock names still runs: the same id, not a zombie (killed, not yet reaped),
 * and where the kernel says so the same start time.
 */
function alive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, under another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const stat = processStat(holder.pid);
  if (!stat) return true;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return !(holder.started && stat.started !== holder.started);
}

function readLock(file: string): { text: string; holder: LockHolder | undefined } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0)
      return { text, holder: { pid: parsed.pid, started: parsed.started, command: String(parsed.command) } };
  } catch {
    // Not a lock this code wrote whole: nobody holds it.
  }
  return { text, holder: undefined };
}

/** Who holds DATA_DIR/db now, if anyone (a lock left by a process that is gone counts as nobody). */
export function lockHolder(pgliteDir: string): LockHolder | undefined {
  const holder = readLock(lockFile(pgliteDir))?.holder;
  return holder && alive(holder) ? holder : undefined;
}

/**
 * Takes DATA_DIR/db for this process, or throws `DataDirBusy` naming the process that has it.
 * The lock appears whole or not at all (written beside it, then hard-linked into place, which fails
 * when it exists), so a reader never sees half of one. Returns the release, which also runs when
 * the process exits.
 */
export function lockDataDir(pgliteDir: string, command: string): () => void {
  const file = lockFile(pgliteDir);
  const dataDir = dirname(pgliteDir);
  mkdirSync(dataDir, { recursive: true });
  const text = `${JSON.stringify({ pid: process.pid, started: processStart(process.pid), command })}\n`;
  const draft = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, text, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, file);
        const release = () => {
          process.off('exit', release);
          if (readLock(file)?.text === text) rmSync(file, { force: true });
        };
        process.on('exit', release);
        return release;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const found = readLock(file);
      if (!found) continue;
      if (found.holder && alive(found.holder)) throw new DataDirBusy(found.holder, dataDir, command);
      // Left by a process that is gone: removed only if it is still that one (another process
      // taking it over at the same moment has replaced it, and then holds it).
      if (readLock(file)?.text === found.text) rmSync(file, { force: true });
    }
    throw new Error(`could not take ${file}: other processes keep taking it`);
  } finally {
    rmSync(draft, { force: true });
  }
}
