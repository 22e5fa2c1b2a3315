import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The API projects' global setup: the tests that start the server in a child process start it as
 * it ships, built into one file (decision 085), so it is built first when the sources changed
 * since the last build (well under a second otherwise). Two projects may do this at once: the
 * build takes a lock, and the second finds it built.
 */
export default function setup() {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('the server build failed (scripts/build-server.mjs)');
}
