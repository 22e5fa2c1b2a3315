#!/usr/bin/env node
// The web app, built once per release (docs/decisions/057-build-once-per-release.md).
//   node scripts/build-web.mjs             `npm run build`: builds packages/web/dist
//   node scripts/build-web.mjs --if-stale  `npm start`: builds only when dist was not built from
//                                          these sources (its stamp does not match), else writes nothing
// Vite builds into packages/web/dist.next-PID; the stamp (a hash of the web app's and the domain's
// sources, the lockfile, the build configuration and the VITE_ variables) goes into it last, and
// the folder is renamed into place: a running server serves the old files or the new ones, never a
// half-written folder. One build at a time (packages/web/dist.lock); a start that waited for
// another's build finds the stamp matching and builds nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'packages/web');
const dist = join(web, 'dist');
const lock = join(web, 'dist.lock');
const STAMP = '.lot-build.json';
/** What the built app is made from: a change to any of these makes `npm start` build again. */
const INPUTS = [
  'packages/web/index.html',
  'packages/web/package.json',
  'packages/web/public',
  'packages/web/src',
  'packages/web/tsconfig.json',
  'packages/web/vite.config.ts',
  'packages/domain/package.json',
  'packages/domain/src',
  'package-lock.json',
  'tsconfig.base.json',
  'scripts/build-web.mjs',
];
/** A lock older than this is a build that was killed, even if its pid is now another process's. */
const LOCK_STALE_MS = 10 * 60_000;

const ifStale = process.argv.includes('--if-stale');

/** The sources' hash: every input file's path and content, and the environment Vite reads. */
function sourcesStamp() {
  const hash = createHash('sha256');
  const files = [];
  const walk = (path) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules') walk(join(path, name));
    } else files.push(path);
  };
  for (const input of INPUTS) walk(join(root, input));
  for (const file of files.map((f) => relative(root, f)).sort()) {
    hash.update(`${file}\0`);
    hash.update(
      createHash('sha256')
        .update(readFileSync(join(root, file)))
        .digest('hex'),
    );
  }
  // Vite builds React's development build when NODE_ENV says so, and bakes VITE_ variables in.
  const environment = Object.entries(process.env)
    .filter(([name]) => name.startsWith('VITE_'))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  hash.update(JSON.stringify({ NODE_ENV: process.env.NODE_ENV || 'production', environment }));
  return hash.digest('hex');
}

function builtStamp() {
  try {
    return JSON.parse(readFileSync(join(dist, STAMP), 'utf8')).sources;
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

async function takeLock() {
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
      console.log(`web app: removing the lock of a build that did not finish (pid ${holder || '?'})`);
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const sources = sourcesStamp();
if (ifStale && builtStamp() === sources) {
  console.log('web app: packages/web/dist is built from these sources, not building it again');
  process.exit(0);
}

await takeLock();
let status = 1;
try {
  if (ifStale && builtStamp() === sources) {
    console.log('web app: built by another start meanwhile, not building it again');
    status = 0;
  } else {
    // Leftovers of a build that was killed (this one holds the lock, so no other is running).
    for (const name of readdirSync(web))
      if (/^dist\.(next|old)-\d+$/.test(name)) rmSync(join(web, name), { recursive: true, force: true });
    const next = join(web, `dist.next-${process.pid}`);
    const built = spawnSync('npx', ['vite', 'build', '--outDir', next, '--emptyOutDir'], {
      cwd: web,
      stdio: 'inherit',
    });
    if (built.status === 0) {
      writeFileSync(join(next, STAMP), `${JSON.stringify({ sources, builtAt: new Date().toISOString() })}\n`);
      const old = join(web, `dist.old-${process.pid}`);
      if (existsSync(dist)) renameSync(dist, old);
      renameSync(next, dist);
      rmSync(old, { recursive: true, force: true });
      status = 0;
    } else {
      rmSync(next, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(lock, { recursive: true, force: true });
}
process.exit(status);
