import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as shared from '../packages/domain/src/messages.ts';
import * as serverOnly from '../packages/domain/src/server-messages.ts';

/**
 * Every user-facing message lives in `@lot/domain/messages`, or, when only the server's answers
 * carry it, in `@lot/domain/server-messages` (decision 071): the server throws an `AppError` with a
 * message named there, never with a text written at the throw. A string literal (quoted or a
 * template) as the message of `new AppError(code, …)` or `AppError.field(field, …)` in the server's
 * code fails here. Tests may write texts inline. `messages.ts` is loaded by the web's first screens,
 * so it holds only texts the web or the shared domain reads itself; a lint rule keeps the web and
 * the domain from importing `server-messages.ts`.
 */
const packages = join(import.meta.dirname, '..', 'packages');

/** `new AppError('CODE', 'text'` and `AppError.field('field', \`text\``, across line breaks. */
const LITERAL_MESSAGE = /(?:new AppError|AppError\.field)\(\s*'[^']*'\s*,\s*['"`]/g;

/** The product code (not tests) under `packages/<dir>`, as paths relative to `packages/`. */
function sources(dir: string): string[] {
  return readdirSync(join(packages, dir), { recursive: true, encoding: 'utf8' })
    .map((file) => `${dir}/${file.replaceAll('\\', '/')}`)
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('server/src/suites/'))
    .sort();
}

export function literalMessages(file: string, text: string): string[] {
  return [...text.matchAll(LITERAL_MESSAGE)].map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    return `${file}:${line}`;
  });
}

/** The keys of `MESSAGES` that no text reads as `MESSAGES.key`. */
export function unread(keys: string[], texts: string[]): string[] {
  return keys.filter((key) => !texts.some((text) => new RegExp(`\\bMESSAGES\\.${key}\\b`).test(text)));
}

describe('AppError messages', () => {
  it('spots a literal message, quoted or template, on one line or several', () => {
    const text = [
      "throw new AppError('NOT_FOUND', 'User not found');",
      'throw AppError.field(',
      "  'number',",
      '  `No participant has number ${n}`,',
      ');',
      "throw new AppError('NOT_FOUND', SERVER_MESSAGES.userNotFound);",
      "throw AppError.field('userId', noParticipantNumber(n));",
    ].join('\n');
    expect(literalMessages('x.ts', text)).toEqual(['x.ts:1', 'x.ts:2']);
  });

  it('are never written inline in the server: they are named in the domain', () => {
    const files = sources('server/src');
    expect(files.length).toBeGreaterThan(50);
    const inline = files.flatMap((file) => literalMessages(file, readFileSync(join(packages, file), 'utf8')));
    expect(inline).toEqual([]);
  });
});

describe("The web's messages (its first screens load every one)", () => {
  it('spot a key nothing reads, and only as MESSAGES.key', () => {
    const texts = ['MESSAGES.loginFailed', 'SERVER_MESSAGES.userNotFound', 'MESSAGES.nameRequiredX'];
    expect(unread(['loginFailed', 'userNotFound', 'nameRequired'], texts)).toEqual(['userNotFound', 'nameRequired']);
  });

  it('are each read by the web or the shared domain: a text only the server sends is in server-messages.ts', () => {
    const readers = [...sources('web/src'), ...sources('domain/src')].filter((file) => !file.endsWith('messages.ts'));
    const texts = readers.map((file) => readFileSync(join(packages, file), 'utf8'));
    expect(unread(Object.keys(shared.MESSAGES), texts)).toEqual([]);
  });

  it('and the server-only ones never share a name with them', () => {
    const names = (module: object, object: object) => [...Object.keys(module), ...Object.keys(object)];
    const ours = new Set(names(shared, shared.MESSAGES));
    expect(names(serverOnly, serverOnly.SERVER_MESSAGES).filter((name) => ours.has(name))).toEqual([]);
  });
});
