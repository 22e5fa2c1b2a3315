// `npm run lint:openapi`: writes the OpenAPI document to a temporary file and lints it with
// Spectral, the OWASP ruleset and .spectral.yaml; fails on any error-level finding. Spectral is
// not a dependency of LOT (docs/api.md#lint says why): install it once as printed below.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const spectral = join(root, 'node_modules', '.bin', 'spectral');
if (!existsSync(spectral) || !existsSync(join(root, 'node_modules', '@stoplight', 'spectral-owasp-ruleset'))) {
  console.error(
    'Spectral is not installed. Install it once, without its install scripts (docs/api.md#lint):\n' +
      '  npm install --no-save --ignore-scripts @stoplight/spectral-cli@6 @stoplight/spectral-owasp-ruleset@2',
  );
  process.exit(1);
}

/** Runs a command with the terminal's output; its failure ends this script with its code. */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
  return result.status === 0;
}

const dir = mkdtempSync(join(tmpdir(), 'lot-openapi-'));
try {
  const file = join(dir, 'openapi.json');
  if (run(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/cli/openapi-cli.ts'), file])) {
    run(spectral, [
      'lint',
      '--ruleset',
      join(root, '.spectral.yaml'),
      '--fail-severity',
      'error',
      '--display-only-failures',
      file,
    ]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
