import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

/**
 * Issue 43: `npm test` printed nothing for its first two minutes (typecheck and lint, then Vitest).
 * scripts/test.mjs runs here with stand-ins for `npm` (typecheck takes 1 s, lint 3 s) and `npx vitest`
 * (takes 2 s, then writes a report of 7 passed tests): a line says they started before any ends,
 * Vitest does not wait for the checks (decision 082), a check's result is printed as soon as it is
 * done, and `N passed, N failed` is still the last line, after all three.
 */
const TEST_SCRIPT = fileURLToPath(new URL('./test.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lot-test-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stub(name: string, body: string) {
  const file = join(dir, 'bin', name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

it('says when typecheck, lint and vitest start and end, as they do, and ends with N passed, N failed', async () => {
  mkdirSync(join(dir, 'bin'));
  stub('npm', 'case "$2" in typecheck) sleep 1; echo typecheck-output;; lint) sleep 3; echo lint-output;; esac');
  stub(
    'npx',
    'sleep 2; for a in "$@"; do case "$a" in --outputFile.json=*) f="${a#--outputFile.json=}";; esac; done\n' +
      'echo \'{"numPassedTests":7,"numFailedTests":0,"testResults":[]}\' > "$f"',
  );
  const started = Date.now();
  const child = spawn(process.execPath, [TEST_SCRIPT], {
    cwd: dir,
    env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: { at: number; text: string }[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    partial += chunk.toString();
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const text of complete) lines.push({ at: Date.now() - started, text });
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  const at = (pattern: RegExp) => {
    const line = lines.find((l) => pattern.test(l.text));
    expect(line, `a line matching ${pattern}:\n${lines.map((l) => l.text).join('\n')}`).toBeDefined();
    return line?.at ?? NaN;
  };
  // Said before either check ends (the stand-in typecheck takes 1 s).
  expect(at(/typecheck, lint and vitest: started/)).toBeLessThan(at(/typecheck-output/));
  // Typecheck's result as soon as it is done, not after lint's 3 s.
  expect(at(/✓ typecheck passed/)).toBeLessThan(at(/lint-output/) - 1000);
  const index = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l.text));
  // Vitest ran beside the checks: its 2 s ended before lint's 3 s, and the summary waited for lint.
  expect(at(/vitest: finished/)).toBeLessThan(at(/lint-output/));
  expect(index(/✓ lint passed/)).toBeLessThan(index(/9 passed, 0 failed/));
  expect(lines.at(-1)?.text).toBe('9 passed, 0 failed');
}, 30_000);
