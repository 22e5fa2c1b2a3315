#!/usr/bin/env node
// The web app, built once per release (docs/decisions/057-build-once-per-release.md).
//   node scripts/build-web.mjs             `npm run build`: builds packages/web/dist
//   node scripts/build-web.mjs --if-stale  `npm start`: builds only when dist was not built from
//                                          these sources (its stamp does not match), else writes nothing
// Vite builds into packages/web/dist.next-PID; the stamp (a hash of the web app's and the domain's
// sources, the lockfile, the build configuration and the VITE_ variables) goes into it last, and
// the folder is renamed into place (scripts/build-lib.mjs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildOnce, root, sourcesStamp } from './build-lib.mjs';

const web = join(root, 'packages/web');
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
  'scripts/build-lib.mjs',
];

// Vite builds React's development build when NODE_ENV says so, and bakes VITE_ variables in.
const environment = Object.entries(process.env)
  .filter(([name]) => name.startsWith('VITE_'))
  .sort(([a], [b]) => (a < b ? -1 : 1));

process.exit(
  await buildOnce({
    name: 'web app',
    out: join(web, 'dist'),
    sources: sourcesStamp(INPUTS, { NODE_ENV: process.env.NODE_ENV || 'production', environment }),
    ifStale: process.argv.includes('--if-stale'),
    build: (next) =>
      spawnSync('npx', ['vite', 'build', '--outDir', next, '--emptyOutDir'], { cwd: web, stdio: 'inherit' }).status ===
      0,
  }),
);
