#!/usr/bin/env node
// The server, built once per release into one file (docs/decisions/085-the-server-runs-built.md).
//   node scripts/build-server.mjs             `npm run build`: builds packages/server/dist/main.mjs
//   node scripts/build-server.mjs --if-stale  `npm start`, the test runs: only when dist was not
//                                             built from these sources, else writes nothing
// esbuild bundles the server's and the domain's TypeScript into one ES module; every other package
// stays an import node resolves from node_modules. A module that finds files beside itself
// (`import.meta.url`: the migrations, the built web app) is given its own source file's address,
// relative to the bundle, so the release can be moved as a whole.
import { dirname, join, relative } from 'node:path';
import { readFile } from 'node:fs/promises';

import { build } from 'esbuild';
import { buildOnce, root, sourcesStamp } from './build-lib.mjs';

const server = join(root, 'packages/server');
const INPUTS = [
  'packages/server/src',
  'packages/server/package.json',
  'packages/server/tsconfig.json',
  'packages/domain/src',
  'packages/domain/package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'scripts/build-server.mjs',
  'scripts/build-lib.mjs',
];
/** Tests and their helpers are not part of the server. */
const isTest = (path) => /\.test\.tsx?$/.test(path) || /\/src\/(test|suites)$/.test(path) || path.endsWith('.snap');

/** Bare imports other than the workspace's own packages (`@lot/…`) stay imports of node_modules. */
const packagesOutside = {
  name: 'packages-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@lot/') ? undefined : { external: true }));
  },
};

/** Each module's `import.meta.url` stays its source file's address, however the bundle is placed. */
const ownAddress = (outDir) => ({
  name: 'own-address',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = relative(outDir, args.path).split('\\').join('/');
      return {
        contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        loader: 'ts',
        resolveDir: dirname(args.path),
      };
    });
  },
});

process.exit(
  await buildOnce({
    name: 'server',
    out: join(server, 'dist'),
    sources: sourcesStamp(INPUTS, { esbuild: 1 }, isTest),
    ifStale: process.argv.includes('--if-stale'),
    build: async (next) => {
      try {
        // Addresses are made relative to where the bundle will be (dist), not to dist.next-PID.
        await build({
          entryPoints: [join(server, 'src/main.ts')],
          outfile: join(next, 'main.mjs'),
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          sourcemap: 'linked',
          logLevel: 'warning',
          plugins: [packagesOutside, ownAddress(join(server, 'dist'))],
        });
        return true;
      } catch {
        return false; // esbuild has printed why
      }
    },
  }),
);
