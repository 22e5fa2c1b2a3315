import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freePort } from '../packages/server/src/test/server-process.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  export interface ProvidedContext {
    baseUrl: string;
    /**
     * The server's PUBLIC_URL: `http://lot.test:<port>`, a name Chromium maps to the server
     * (support.ts), so QR codes and shared links differ from the address the tests open.
     */
    publicUrl: string;
    /** The local test beacon the server's LOT-DRAW-2 games wait for (1 s rounds on the real clock). */
    beacon: { url: string; chainHash: string; publicKey: string };
  }
}

/** Starts the local test beacon (drand's API, its own key) as a process; resolves with its JSON line. */
function startBeacon(): Promise<{ child: ChildProcess; info: { url: string; chainHash: string; publicKey: string } }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/server/src/test/test-beacon-cli.ts', '--period', '1'],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line && output.includes('\n')) resolve({ child, info: JSON.parse(line) });
    });
    child.on('exit', (code) => reject(new Error(`test beacon exited (${code}):\n${output}`)));
  });
}

/** Waits for a child process to end: its exit code and what it wrote to stderr (when piped). */
function finished(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/**
 * Builds the web app (unless it is built from these sources), seeds a fresh embedded database
 * with the demo hierarchy and starts the real server on a free port, as `npm start` would, its
 * LOT-DRAW-2 games drawn against a local test beacon with 1 s rounds, its public links under
 * PUBLIC_URL. Every browser test file talks to this server.
 */
export default async function setup(project: TestProject) {
  const beacon = await startBeacon();
  project.provide('beacon', beacon.info);
  const dataDir = mkdtempSync(join(tmpdir(), 'lot-e2e-'));
  // A known port, so PUBLIC_URL can name it before the server starts.
  const port = await freePort();
  const publicUrl = `http://lot.test:${port}`;
  project.provide('publicUrl', publicUrl);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: publicUrl,
    DRAW_BEACON: 'required',
    DRAW_BEACON_URL: beacon.info.url,
    DRAW_BEACON_CHAIN: beacon.info.chainHash,
    // The least room a freeze leaves before its round (decision 076): with 1 s rounds R is then
    // two rounds after the latest public one, not three, and a game waits about 2 s, not 3.
    DRAW_FREEZE_MARGIN_MS: '1000',
  };
  // The builds and the seed need nothing from each other: they run at the same time (the server,
  // started next, needs all three).
  const [build, built, seed] = await Promise.all([
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build: test (and
    // measure, e2e/bench-budget.test.ts) what ships. Built as `npm start` builds it, only when the
    // sources changed since the last build (decision 057): a server test that runs `npm start` then
    // finds it built and writes nothing while these tests are served from it.
    finished(
      spawn(process.execPath, ['scripts/build-web.mjs', '--if-stale'], {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, NODE_ENV: 'production' },
      }),
    ),
    // The server as it ships, built into one file (decision 085).
    finished(spawn(process.execPath, ['scripts/build-server.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' })),
    finished(
      spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/cli/seed-demo-cli.ts'], {
        cwd: root,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    ),
  ]);
  if (build.code !== 0 || built.code !== 0 || seed.code !== 0) {
    beacon.child.kill('SIGTERM');
    throw new Error(
      build.code !== 0 ? 'web build failed' : built.code !== 0 ? 'server build failed' : `seed failed:\n${seed.stderr}`,
    );
  }

  const server: ChildProcess = spawn(process.execPath, ['packages/server/dist/main.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /LOT is running on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    server.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
  project.provide('baseUrl', baseUrl);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    beacon.child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
}
