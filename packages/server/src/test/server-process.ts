import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * The real entry point as `npm start` and the systemd unit start it: the server built into one file
 * (scripts/build-server.mjs, decision 085), which the API projects' global setup builds when stale
 * (`build-server-setup.ts`).
 */
export const MAIN_FILE = fileURLToPath(new URL('../../dist/main.mjs', import.meta.url));

/** Node's arguments to run a file: TypeScript (a command, an older release's sources) through tsx. */
export function nodeArgs(file: string): string[] {
  return file.endsWith('.ts') ? ['--import', 'tsx', file] : [file];
}

export type Started = { child: ChildProcess; url: string; output: () => string };

/** Starts the server (or an older release's main.ts) in a child process with this environment and resolves once it listens. */
export function startServer(env: Record<string, string>, mainFile = MAIN_FILE): Promise<Started> {
  const child = spawn(process.execPath, nodeArgs(mainFile), {
    // LOT-DRAW-1 unless the test names a beacon (DRAW_BEACON, DRAW_BEACON_URL, DRAW_BEACON_CHAIN).
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', DRAW_BEACON: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /LOT is running on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1], output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

/** A port nobody listens on right now, so that restarts of a server can keep one address. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** One JSON call to a started server: its status and its answer. */
export async function callServer(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}
