import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No web component file over 250 lines (issue 33): a screen that grows past it is split into
 * parts by what each part does (its columns, its form's schema, its sheet), not left to grow.
 * Tests (*.test.tsx) are not components and may be longer.
 */
const MAX_LINES = 250;
const src = join(import.meta.dirname, '..', 'packages', 'web', 'src');

function componentFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
    .map((file) => file.replaceAll('\\', '/'))
    .sort();
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('web components', () => {
  it('finds the component files', () => {
    expect(componentFiles().length).toBeGreaterThan(50);
  });

  it(`are each at most ${MAX_LINES} lines`, () => {
    const tooLong = componentFiles()
      .map((file) => ({ file, lines: lineCount(readFileSync(join(src, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});
