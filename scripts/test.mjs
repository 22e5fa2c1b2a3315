#!/usr/bin/env node
// `npm test`: every check and every test, ending with the line `N passed, N failed`.
// Typecheck and lint count as one check each; vitest runs the unit, API (PGlite, and
// PostgreSQL when TEST_DATABASE_URL is set) and browser projects.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const run = (command, args) => spawnSync(command, args, { stdio: 'inherit', shell: false }).status === 0;

let passed = 0;
let failed = 0;
for (const [name, args] of [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
]) {
  const ok = run('npm', args);
  console.log(`${ok ? '✓' : '✗'} ${name}`);
  if (ok) passed++;
  else failed++;
}

const report = 'test-results/vitest.json';
mkdirSync('test-results', { recursive: true });
rmSync(report, { force: true });
const vitestOk = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  // A suite that fails to load has no failed test in it, but it failed all the same.
  if (!vitestOk && results.numFailedTests === 0) failed++;
} catch {
  failed++; // vitest did not even write its report
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
