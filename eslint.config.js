import js from '@eslint/js';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The layers (docs/ARCHITECTURE.md#layers), as zones: `target` may not import from `from`. */
const dirs = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const web = './packages/web/src';
const server = './packages/server/src';
const layers = [
  ...dirs(`${web}/features`).map((feature) => ({
    target: `${web}/features/${feature}`,
    from: `${web}/features`,
    except: [`./${feature}`],
    message: 'a feature never imports another feature: compose them in app/',
  })),
  { target: `${web}/features`, from: `${web}/app`, message: 'features never import app/' },
  {
    target: [`${web}/components`, `${web}/lib`],
    from: [`${web}/features`, `${web}/app`],
    message: 'components/ and lib/ never import features/ or app/',
  },
];
/** The server's layers bind its product code; a test stands above them (it may start the whole app). */
const serverLayers = [
  {
    target: `${server}/plugins`,
    from: [`${server}/modules`, `${server}/cli`],
    message: 'plugins never import modules: move the shared piece to lib/',
  },
  {
    target: [`${server}/db`, `${server}/lib`],
    from: [`${server}/modules`, `${server}/plugins`, `${server}/cli`, `${server}/app.ts`],
    message: 'db/ and lib/ sit below every module and plugin: they import none',
  },
  ...dirs(`${server}/modules`).map((module, _, modules) => ({
    target: `${server}/modules/${module}`,
    from: modules.filter((other) => other !== module).map((other) => `${server}/modules/${other}/*.service.ts`),
    message: "a module never imports another module's service: move the shared piece to lib/ or a repository",
  })),
];

const domainImportsNothing = {
  group: ['@lot/*', 'node:*'],
  message: 'domain imports nothing of ours and no Node APIs',
};
const webNeverImportsServer = {
  group: ['@lot/server', '@lot/server/*', '**/server/src/**'],
  message: 'the web app never imports the server',
};
/** Decision 071: a text the web writes or checks itself lives in `@lot/domain/messages`. */
const serverMessagesOnlyInServer = {
  group: ['@lot/domain/server-messages', '**/server-messages.ts'],
  message:
    'texts only the server answers stay out of the web and the shared domain: move one the web shows itself to @lot/domain/messages',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'packages/web/dist.*/**',
      '**/node_modules/**',
      'test-results/**',
      'packages/server/src/db/migrations/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['packages/*/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layers }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/server/src/test/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: serverLayers }] },
  },
  {
    // Only a module's data access (its repository and access map) speaks SQL (docs/ARCHITECTURE.md#layers).
    files: ['packages/server/src/modules/**/*.ts'],
    ignores: ['**/*.repository.ts', '**/*.access.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*', '**/db/*'],
              message: "services and routes reach the database through their module's repository",
            },
          ],
        },
      ],
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [webNeverImportsServer] }],
    },
  },
  {
    // The texts only the server's answers carry stay off the web's first screens (decision 071);
    // a web test may import one to fake an answer.
    files: ['packages/web/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [webNeverImportsServer, serverMessagesOnlyInServer] }],
    },
  },
  {
    // Seeds, nonces and codes come from a cryptographic generator, never Math.random.
    // Test files may use Math.random to pick a seed they print; their draws run on seeded generators.
    files: ['packages/server/src/**/*.ts', 'packages/domain/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message:
            "Math.random is not a cryptographic generator: use node:crypto's randomBytes or randomInt (the domain: crypto.getRandomValues)",
        },
      ],
    },
  },
  {
    // One clock (decision 069): modules, lib and commands read the time from their context's clock
    // (`ctx.clock`), which tests move and skew; lib/clock.ts reads the machine's, once.
    files: ['packages/server/src/{modules,lib,cli}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "MemberExpression[object.name='Date'][property.name='now']",
          "NewExpression[callee.name='Date'][arguments.length=0]",
          "CallExpression[callee.name='Date']",
        ].map((selector) => ({
          selector,
          message: "the time comes from the context's clock: ctx.clock(), or new Date(ctx.clock()) (decision 069)",
        })),
      ],
    },
  },
  {
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [domainImportsNothing] }],
    },
  },
  {
    // The domain's schemas and rules are the web's too: they read only `messages.ts` (decision 071).
    files: ['packages/domain/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/domain/src/server-messages.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [domainImportsNothing, serverMessagesOnlyInServer],
        },
      ],
    },
  },
  {
    // Its tests run in Node only: they may use Node's crypto (draw-randomness.test.ts draws millions).
    files: ['packages/domain/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@lot/*'], message: 'domain imports nothing of ours (its tests may use Node APIs)' }] },
      ],
    },
  },
);
