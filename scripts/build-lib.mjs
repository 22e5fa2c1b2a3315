// What the two builds of a release share (scripts/build-web.mjs, scripts/build-server.mjs;
// decisions 057 and 085): a stamp of the sources an output was built from, one build at a time per
// output (a lock folder), and the output renamed into place whole, so a running server reads the
// old files or the new ones, never a half-written folder.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = '.lot-build.json';
/** A lock older than this is a build that was killed, even if its pid is now another process's. */
const LOCK_STALE_MS = 10 * 60_000;

/**
 * The sources' hash: every input file's path and content (paths relative to the repository; a
 * folder is walked, without node_modules, skipping what `skip` says), and `settings`.
 */
export function sourcesStamp(inputs, settings, skip = () => false) {
  const hash = createHash('sha256');
  const files = [];
  const walk = (path) => {
    if (!existsSync(path) || skip(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules') walk(join(path, name));
    } else files.push(path);
  };
  for (const input of inputs) walk(join(root, input));
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash.update(`${file}\0`);
    hash.update(
      createHash('sha256')
        .update(readFileSync(join(root, file)))
        .digest('hex'),
    );
  }
  hash.update(JSON.stringify(settings));
  return hash.digest('hex');
}

function builtStamp(out) {
  try {
    return JSON.parse(readFileSync(join(out, STAMP), 'utf8')).sources;
  } catch {
    return null;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function takeLock(lock, name) {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let holder = 0;
    let since = Date.now();
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      since = statSync(lock).mtimeMs;
    } catch {
      // Just taken (no pid yet) or just released: look again.
    }
    if ((holder && !alive(holder)) || Date.now() - since > LOCK_STALE_MS) {
      console.log(`${name}: removing the lock of a build that did not finish (pid ${holder || '?'})`);
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Builds `out` (a folder) from `sources` (a stamp) with `build(next)`, which writes into the folder
 * `next` and answers whether it succeeded; with `ifStale`, only when `out` was not built from these
 * sources. Answers the process's exit status.
 */
export async function buildOnce({ name, out, sources, ifStale, build }) {
  const shown = relative(root, out);
  if (ifStale && builtStamp(out) === sources) {
    console.log(`${name}: ${shown} is built from these sources, not building it again`);
    return 0;
  }
  const parent = dirname(out);
  const lock = `${out}.lock`;
  await takeLock(lock, name);
  try {
    if (ifStale && builtStamp(out) === sources) {
      console.log(`${name}: built by another start meanwhile, not building it again`);
      return 0;
    }
    // Leftovers of a build that was killed (this one holds the lock, so no other is running).
    const leftover = new RegExp(`^${basename(out)}\\.(next|old)-\\d+$`);
    for (const entry of readdirSync(parent))
      if (leftover.test(entry)) rmSync(join(parent, entry), { recursive: true, force: true });
    const next = `${out}.next-${process.pid}`;
    if (!(await build(next))) {
      rmSync(next, { recursive: true, force: true });
      return 1;
    }
    writeFileSync(join(next, STAMP), `${JSON.stringify({ sources, builtAt: new Date().toISOString() })}\n`);
    const old = `${out}.old-${process.pid}`;
    if (existsSync(out)) renameSync(out, old);
    renameSync(next, out);
    rmSync(old, { recursive: true, force: true });
    return 0;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
