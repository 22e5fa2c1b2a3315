import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layers of docs/ARCHITECTURE.md#layers are enforced by `npm run lint`: each deliberate
 * violation below, linted as if it were a file of the repository, must fail with its rule.
 */
const eslint = new ESLint();

async function rulesBroken(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('npm run lint refuses', () => {
  it.each([
    [
      'a feature importing another feature',
      'packages/web/src/features/users/components/x.ts',
      "import { getBalance } from '../../transactions/api/get-balance.ts';",
    ],
    [
      'a feature importing app/',
      'packages/web/src/features/users/components/x.ts',
      "import { routes } from '../../../app/router.tsx';",
    ],
    [
      'lib/ importing a feature',
      'packages/web/src/lib/x.ts',
      "import { topup } from '../features/users/api/topup.ts';",
    ],
    [
      'components/ importing app/',
      'packages/web/src/components/ui/x.tsx',
      "import { routes } from '../../app/router.tsx';",
    ],
    [
      'a plugin importing a module',
      'packages/server/src/plugins/x.ts',
      "import { findInScope } from '../modules/users/users.repository.ts';",
    ],
    [
      'db/ importing a module',
      'packages/server/src/db/x.ts',
      "import { findInScope } from '../modules/users/users.repository.ts';",
    ],
    ['lib/ importing a plugin', 'packages/server/src/lib/x.ts', "import { authPlugin } from '../plugins/auth.ts';"],
    [
      "a module importing another module's service",
      'packages/server/src/modules/games/x.ts',
      "import { transfer } from '../balance/balance.service.ts';",
    ],
  ])('%s', async (_name, filePath, code) => {
    expect(
      await rulesBroken(filePath, `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`),
    ).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['drizzle-orm', "import { sql } from 'drizzle-orm';"],
    ['the database client', "import { queryRows } from '../../db/client.ts';"],
  ])('a service importing %s, which its repository may', async (_name, code) => {
    const used = `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)?.[1]}];\n`;
    expect(await rulesBroken('packages/server/src/modules/games/x.service.ts', used)).toContain(
      'no-restricted-imports',
    );
    expect(await rulesBroken('packages/server/src/modules/games/x.repository.ts', used)).toEqual([]);
  });

  it("a text only the server answers, in the web's code or the shared domain (a test may fake an answer)", async () => {
    const web =
      "import { SERVER_MESSAGES } from '@lot/domain/server-messages';\nexport const used = [SERVER_MESSAGES];\n";
    expect(await rulesBroken('packages/web/src/features/users/components/x.tsx', web)).toContain(
      'no-restricted-imports',
    );
    expect(await rulesBroken('packages/web/src/features/users/components/x.test.tsx', web)).toEqual([]);
    const domain = "import { SERVER_MESSAGES } from '../server-messages.ts';\nexport const used = [SERVER_MESSAGES];\n";
    expect(await rulesBroken('packages/domain/src/schemas/x.ts', domain)).toContain('no-restricted-imports');
    const server =
      "import { SERVER_MESSAGES } from '@lot/domain/server-messages';\nexport const used = [SERVER_MESSAGES];\n";
    expect(await rulesBroken('packages/server/src/modules/users/x.service.ts', server)).toEqual([]);
  });

  it('an import cycle', async () => {
    // api-client.ts imports storage.ts; storage.ts importing api-client.ts back closes a cycle.
    const code = "import { api } from './api-client.ts';\nexport const used = [api];\n";
    expect(await rulesBroken('packages/web/src/lib/storage.ts', code)).toContain('import-x/no-cycle');
  });

  it.each([
    [
      'the server',
      'packages/server/src/modules/games/x.ts',
      'export const pick = (n: number) => Math.floor(Math.random() * n);',
    ],
    [
      'the domain',
      'packages/domain/src/x.ts',
      'const { random } = Math;\nexport const pick = (n: number) => Math.floor(random() * n);',
    ],
  ])('Math.random in %s', async (_name, filePath, code) => {
    expect(await rulesBroken(filePath, code)).toContain('no-restricted-properties');
  });

  it.each([
    [
      'Date.now() in a module',
      'packages/server/src/modules/shifts/x.service.ts',
      'export const at = () => Date.now();',
    ],
    ['new Date() in lib/', 'packages/server/src/lib/x.ts', 'export const at = () => new Date().toISOString();'],
    ['Date() in a command', 'packages/server/src/cli/x.ts', 'export const at = () => Date();'],
    ['Date.now handed on in lib/', 'packages/server/src/lib/x.ts', 'export const clock = Date.now;'],
  ])('the machine’s clock read directly: %s', async (_name, filePath, code) => {
    expect(await rulesBroken(filePath, `${code}\n`)).toContain('no-restricted-syntax');
  });

  it.each([
    [
      'the context’s clock',
      'packages/server/src/modules/shifts/x.service.ts',
      'export const at = (ctx: { clock: () => number }) => new Date(ctx.clock());',
    ],
    ['a given time', 'packages/server/src/lib/x.ts', "export const at = new Date('2026-01-01T00:00:00Z');"],
    [
      'the machine’s clock in a test file',
      'packages/server/src/modules/shifts/x.test.ts',
      'export const at = Date.now();',
    ],
  ])('and allows %s', async (_name, filePath, code) => {
    expect(await rulesBroken(filePath, `${code}\n`)).toEqual([]);
  });

  it("a Node API in the domain's code, though its test files may use one", async () => {
    const code = "import { createHash } from 'node:crypto';\nexport const used = [createHash];\n";
    expect(await rulesBroken('packages/domain/src/x.ts', code)).toContain('no-restricted-imports');
    expect(await rulesBroken('packages/domain/src/x.test.ts', code)).toEqual([]);
    const ours = "import { MESSAGES } from '@lot/domain/messages';\nexport const used = [MESSAGES];\n";
    expect(await rulesBroken('packages/domain/src/x.test.ts', ours)).toContain('no-restricted-imports');
  });

  it('and allows a cryptographic generator, and Math.random in a test file (to pick a seed it prints)', async () => {
    const allowed = [
      [
        'packages/server/src/lib/x.ts',
        "import { randomInt } from 'node:crypto';\nexport const pick = () => randomInt(10);",
      ],
      ['packages/domain/src/x.ts', 'export const pick = () => crypto.getRandomValues(new Uint32Array(1))[0];'],
      ['packages/server/src/suites/x.test.ts', 'export const seed = Math.floor(Math.random() * 2 ** 31);'],
    ] as const;
    for (const [filePath, code] of allowed) expect(await rulesBroken(filePath, `${code}\n`), filePath).toEqual([]);
  });

  it('and allows what the layers allow', async () => {
    const allowed = [
      ['packages/web/src/app/routes/x.tsx', "import { topup } from '../../features/users/api/topup.ts';"],
      ['packages/web/src/features/users/components/x.ts', "import { api } from '../../../lib/api-client.ts';"],
      ['packages/server/src/modules/games/x.ts', "import { findInScope } from '../users/users.repository.ts';"],
      ['packages/server/src/plugins/x.ts', "import { hashPassword } from '../lib/passwords.ts';"],
    ] as const;
    for (const [filePath, code] of allowed) {
      const used = code.match(/\{ (\w+) \}/)?.[1];
      expect(await rulesBroken(filePath, `${code}\nexport const used = [${used}];\n`), filePath).toEqual([]);
    }
  });
});
