import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/**
 * DATA_DIR holds the whole database (password hashes, names, phones), the key files and the
 * checkpoints: no other local account may read or change any of it (decision 063). PGlite writes
 * its files 0666 and leaves the rest to the umask, so the umask is what closes them.
 */

/** Group and other get nothing of any file or folder this process creates from now on. */
export const PRIVATE_UMASK = 0o077;

/**
 * Sets this process's umask to 077, and DATA_DIR back to 0700 with nothing under it open to group
 * or other (a folder made by an older release, by systemd's StateDirectory= at 0755, or copied in
 * by hand). `create`: make DATA_DIR (0700) if it is missing, as the embedded database needs it.
 * Symbolic links are left alone; a file this user cannot change is skipped (it is not ours to close).
 */
export function keepDataDirPrivate(dataDir: string, options: { create: boolean }): void {
  process.umask(PRIVATE_UMASK);
  if (!existsSync(dataDir)) {
    if (!options.create) return;
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  }
  closeTree(dataDir);
}

function closeTree(path: string): void {
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch {
    return;
  }
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) {
    try {
      chmodSync(path, stat.mode & 0o700);
    } catch {
      // Another account's file: left as it is.
    }
  }
  if (!stat.isDirectory()) return;
  let names: string[];
  try {
    names = readdirSync(path);
  } catch {
    return;
  }
  for (const name of names) closeTree(join(path, name));
}
