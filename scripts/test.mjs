#!/usr/bin/env node
// `npm test`: every check and every test, ending with the line `N passed, N failed`.
// Typecheck and lint count as one check each; vitest, started beside them, runs the unit, web, API
// (PGlite, and PostgreSQL when TEST_DATABASE_URL is set) and browser projects.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

/** Runs a command with its output passed through, answering whether it succeeded. */
const runInherited = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', shell: false });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });

/** Runs a command with its output held, answering whether it succeeded and what it printed. */
const runHeld = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ ok: false, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ ok: code === 0, output }));
  });

let passed = 0;
let failed = 0;
const began = Date.now();
/** One progress line, with the time since `npm test` began: nothing stays silent for minutes. */
const progress = (text) => console.log(`[${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${text}`);

// Typecheck and lint each keep one core busy for about a minute, and Vitest's first files wait on
// child processes and the database as often as on a core: all three start at once (each check's
// output is printed whole as soon as it is done; decision 082). Before, Vitest waited for both checks.
progress('typecheck, lint and vitest: started, side by side (vitest: unit, web, API and browser projects)');
const checks = Promise.all(
  [
    ['typecheck', ['run', 'typecheck']],
    ['lint', ['run', 'lint']],
  ].map(async ([name, args]) => {
    const { ok, output } = await runHeld('npm', args);
    process.stdout.write(output);
    progress(`${ok ? '✓' : '✗'} ${name} ${ok ? 'passed' : 'failed'}`);
    if (ok) passed++;
    else failed++;
  }),
);

const report = 'test-results/vitest.json';
mkdirSync('test-results', { recursive: true });
rmSync(report, { force: true });
const vitestOk = await runInherited('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);
let files = [];
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  // A suite that fails to load has no failed test in it, but it failed all the same.
  if (!vitestOk && results.numFailedTests === 0) failed++;
  files = results.testResults ?? [];
} catch {
  failed++; // vitest did not even write its report
}

progress(`vitest: finished${vitestOk ? '' : ' with failures'}`);
await checks;
printSlowest(files);

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

/**
 * The 10 test files that took longest in this run, from Vitest's JSON report: a file's time is
 * from its start to its end (its hooks and tests; two files run at once, so they overlap). A
 * server file runs once per API project (PGlite, PostgreSQL) and may appear once for each.
 */
function printSlowest(files) {
  const timed = files
    .map((file) => ({
      name: relative(process.cwd(), file.name),
      ms:
        file.endTime > file.startTime
          ? file.endTime - file.startTime
          : (file.assertionResults ?? []).reduce((sum, test) => sum + (test.duration ?? 0), 0),
    }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10);
  if (timed.length === 0) return;
  console.log('\nSlowest test files:');
  for (const { name, ms } of timed) console.log(`${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`);
}
