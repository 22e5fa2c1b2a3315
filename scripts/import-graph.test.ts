import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The server's layers (docs/ARCHITECTURE.md#layers), checked on the real import graph: every
 * import of a server file (tests aside) goes to its own layer or one below, never up. Lint zones
 * name the particular rules (a service imports no SQL, db/ and lib/ import no module…); this test
 * catches any upward import the zones do not name.
 */
const root = fileURLToPath(new URL('../packages/server/src/', import.meta.url));

/** Higher imports lower. Within modules/: routes over services over data access (repositories and access maps). */
function layerOf(file: string): { rank: number; name: string } {
  if (file === 'main.ts' || file.startsWith('cli/') || file.startsWith('witness/'))
    return { rank: 7, name: 'commands (main.ts, cli/, witness/)' };
  if (file === 'app.ts' || file === 'secrets.ts') return { rank: 6, name: 'start-up (app.ts, secrets.ts)' };
  if (file.startsWith('modules/') && file.endsWith('.routes.ts')) return { rank: 5, name: 'routes' };
  if (file.startsWith('plugins/')) return { rank: 4, name: 'plugins' };
  if (file.startsWith('modules/') && /\.(repository|access)\.ts$/.test(file))
    return { rank: 2, name: 'data access (repositories, access maps)' };
  if (file.startsWith('modules/')) return { rank: 3, name: 'services' };
  if (file.startsWith('lib/')) return { rank: 1, name: 'lib' };
  return { rank: 0, name: 'db and configuration' };
}

function serverFiles(dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'suites', 'migrations'].includes(path) ? [] : serverFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => normalize(join(dirname(file), name)));
}

type Edge = { from: string; to: string };
const edges: Edge[] = serverFiles().flatMap((from) => importsOf(from).map((to) => ({ from, to })));

const upward = (list: Edge[]) =>
  list
    .filter(({ from, to }) => layerOf(to).rank > layerOf(from).rank)
    .map(({ from, to }) => `${from} (${layerOf(from).name}) imports ${to} (${layerOf(to).name})`);

describe('the server import graph', () => {
  it('is read: a few hundred imports between server files', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ from: 'app.ts', to: 'lib/context.ts' });
  });

  it('has no import that runs up a layer', () => {
    expect(upward(edges)).toEqual([]);
  });

  it('names an upward import when there is one', () => {
    const wrong = [
      { from: 'modules/games/games.repository.ts', to: 'modules/games/games.service.ts' },
      { from: 'lib/audit.ts', to: 'plugins/auth.ts' },
      { from: 'modules/games/games.service.ts', to: 'modules/games/games.routes.ts' },
      { from: 'modules/games/games.service.ts', to: 'modules/games/games.repository.ts' },
    ];
    expect(upward(wrong)).toHaveLength(3);
  });
});
