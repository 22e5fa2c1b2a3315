import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every user-facing message lives in `@lot/domain/messages` (decision 071): the server throws an
 * `AppError` with a message named there, never with a text written at the throw. A string literal
 * (quoted or a template) as the message of `new AppError(code, …)` or `AppError.field(field, …)`
 * in the server's code fails here. Tests may write texts inline.
 */
const src = join(import.meta.dirname, '..', 'packages', 'server', 'src');

/** `new AppError('CODE', 'text'` and `AppError.field('field', \`text\``, across line breaks. */
const LITERAL_MESSAGE = /(?:new AppError|AppError\.field)\(\s*'[^']*'\s*,\s*['"`]/g;

function serverFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((file) => file.replaceAll('\\', '/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('suites/'))
    .sort();
}

export function literalMessages(file: string, text: string): string[] {
  return [...text.matchAll(LITERAL_MESSAGE)].map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    return `${file}:${line}`;
  });
}

describe('AppError messages', () => {
  it('spots a literal message, quoted or template, on one line or several', () => {
    const text = [
      "throw new AppError('NOT_FOUND', 'User not found');",
      'throw AppError.field(',
      "  'number',",
      '  `No participant has number ${n}`,',
      ');',
      "throw new AppError('NOT_FOUND', MESSAGES.userNotFound);",
      "throw AppError.field('userId', noParticipantNumber(n));",
    ].join('\n');
    expect(literalMessages('x.ts', text)).toEqual(['x.ts:1', 'x.ts:2']);
  });

  it('are never written inline in the server: they are named in @lot/domain/messages', () => {
    const files = serverFiles();
    expect(files.length).toBeGreaterThan(50);
    const inline = files.flatMap((file) => literalMessages(file, readFileSync(join(src, file), 'utf8')));
    expect(inline).toEqual([]);
  });
});
