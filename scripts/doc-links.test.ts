import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments and docs point to the rules in docs/ (docs/product/…, docs/decisions/…), often to a
 * section (`docs/product/money.md#take-back`). A clone must be able to follow every such pointer:
 * the file exists, and the section is a heading of it (GitHub's anchor of the heading's text) or
 * an explicit `<a id="…">`.
 */

const root = join(import.meta.dirname, '..');
const POINTER = /docs\/[A-Za-z0-9_./-]+\.md(?:#[A-Za-z0-9_-]+)?/g;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(root, file), 'utf8');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(heading.replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id = ''] of text.matchAll(/<a id="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter(
    (file) => /\.(ts|tsx|mjs|js|css|md|sh)$/.test(file) && !file.startsWith('packages/server/src/db/migrations/'),
  );

const pointers = tracked.flatMap((file) =>
  [...readFileSync(join(root, file), 'utf8').matchAll(POINTER)].map(([pointer]) => ({ file, pointer })),
);

describe('pointers to docs/', () => {
  it('there are pointers to check', () => {
    expect(pointers.length).toBeGreaterThan(50);
  });

  it('every pointer names a file and a section that exist', () => {
    const broken = pointers.filter(({ pointer }) => {
      const [path = '', anchor] = pointer.split('#');
      if (!existsSync(join(root, path))) return true;
      return anchor !== undefined && !anchorsOf(path).has(anchor);
    });
    expect(broken.map(({ file, pointer }) => `${file}: ${pointer}`)).toEqual([]);
  });
});
