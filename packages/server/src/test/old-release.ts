import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { callServer, exitOf, startServer, type Started } from './server-process.ts';

/**
 * A database written by a real older release of LOT (issue 43: upgrades tested from real older
 * releases). The release's own code is taken from git history (`git archive`, so the repository's
 * worktrees are left alone), run on this checkout's node_modules (the dependencies of the releases
 * below are the ones installed now), and does what a shop did with it: the demo seed, then through
 * its own HTTP API one game played to the end and one game with its first draw only. The result is
 * kept in the temp folder per release and database kind, so a rerun copies it instead of building.
 */

/** The releases an upgrade is tested from (docs/upgrading.md names what each lacks). */
export const OLD_RELEASES = {
  /** 2026-11-24: LOT-DRAW-1 only, seeds in the clear, no `game.frozen` audit row, no prize claims. */
  beforeDraw2: 'ff83204',
  /** 2026-11-26, the last commit before prize claims: LOT-DRAW-2, sealed seeds, no prize claims. */
  beforeClaims: 'a6e1389',
} as const;

/** Bumped when what the builder does changes, so that no older cached database is reused. */
const BUILDER_VERSION = 1;

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** The keys the old release ran with (PostgreSQL needs them; the embedded database is given them too). */
export const OLD_KEYS = {
  JWT_SECRET: 'upgrade-test-jwt-secret-0123456789abcdef',
  TOTP_KEY: 'upgrade-test-totp-key-0123456789abcdef0',
  SEED_KEY: 'upgrade-test-seed-key-0123456789abcdef0',
  // The demo seed's admin password, which the old releases' seed gives the admin it creates.
  ADMIN_PASSWORD: 'admin123',
};
export const DEMO_SHOP = { username: 'user1', password: 'demo1234' };

export type OldBeacon = { url: string; chainHash: string };

export type OldDatabase = {
  commit: string;
  /** The embedded database's DATA_DIR (a copy of its own), or the PostgreSQL URL (a database of its own). */
  dataDir?: string;
  url?: string;
  /** Seconds it took to build, or 0 when the cached copy was used. */
  builtIn: number;
  drop: () => Promise<void>;
};

/** The full hash of a commit of this repository: a clone without it fails here, loudly. */
export function fullCommit(commit: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', `${commit}^{commit}`], {
      cwd: repoRoot,
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new Error(
      `Commit ${commit} is not in this clone's history: the upgrade test needs a full clone (git fetch --unshallow).`,
    );
  }
}

/** The release's packages from git history, with this checkout's node_modules under them. */
function checkOut(commit: string, into: string): void {
  mkdirSync(into, { recursive: true });
  const archive = execFileSync(
    'git',
    ['archive', '--format=tar', commit, 'package.json', 'packages/domain', 'packages/server'],
    { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 },
  );
  execFileSync('tar', ['-x', '-C', into], { input: archive });
  const modules = join(into, 'node_modules');
  mkdirSync(join(modules, '@lot'), { recursive: true });
  for (const name of readdirSync(join(repoRoot, 'node_modules'))) {
    if (name === '@lot' || name === '.bin') continue;
    symlinkSync(join(repoRoot, 'node_modules', name), join(modules, name));
  }
  // The release's own workspace packages, not this checkout's.
  symlinkSync('../../packages/domain', join(modules, '@lot', 'domain'));
  symlinkSync('../../packages/server', join(modules, '@lot', 'server'));
  const serverModules = join(repoRoot, 'packages', 'server', 'node_modules');
  if (existsSync(serverModules)) symlinkSync(serverModules, join(into, 'packages', 'server', 'node_modules'));
}

/** Runs one of the release's command-line tools to its end. */
function runOld(source: string, script: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(source, script)], {
    cwd: source,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return exitOf(child).then((code) => {
    if (code !== 0) throw new Error(`${script} of the old release exited ${code}:\n${output}`);
    return output;
  });
}

async function call(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const answer = await callServer(base, method, path, token, body);
  if (answer.status >= 300)
    throw new Error(`${method} ${path} on the old release: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer;
}

/** One draw as a shop asks for it: again after the beacon round when the release answers 202. */
async function draw(base: string, token: string, gameId: number, position: number): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const { status, json } = await call(base, 'POST', `/api/games/${gameId}/draws`, token, { position });
    if (status === 200) return;
    const wait = Date.parse(String(json.expectedAt)) - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, Math.max(200, wait + 200))));
  }
  throw new Error(`draw ${position} of game ${gameId} never came on the old release`);
}

/** What a shop did on the old release: one game played to the end, one game drawn once. */
async function playOnOldServer(server: Started): Promise<void> {
  const signIn = await call(server.url, 'POST', '/api/auth/signin', null, DEMO_SHOP);
  const token = String(signIn.json.accessToken);
  const people = (numbers: number[]) =>
    numbers.map((number) => ({ number, name: `Upgrade Player ${number}`, phoneNumber: `0911 55 ${1000 + number}` }));
  for (const [numbers, draws] of [
    [[1, 3, 5, 7, 9, 11, 13], undefined],
    [[2, 4, 6, 8, 10, 12], 1],
  ] as const) {
    const game = await call(server.url, 'POST', '/api/games', token, {
      startRange: 1,
      endRange: 20,
      betAmount: '5.00',
    });
    const id = Number(game.json.id);
    const entered = await call(server.url, 'PUT', `/api/games/${id}/entries`, token, { entries: people([...numbers]) });
    const prizes = (entered.json.prizes as unknown[]).length;
    for (let position = 1; position <= (draws ?? prizes); position++) await draw(server.url, token, id, position);
  }
}

/** Builds the old release's database into `target` (a DATA_DIR, or a PostgreSQL URL). */
async function build(commit: string, target: { dataDir?: string; url?: string }, beacon: OldBeacon | undefined) {
  const source = mkdtempSync(join(tmpdir(), `lot-release-${commit.slice(0, 7)}-`));
  try {
    checkOut(commit, source);
    const env: Record<string, string> = {
      ...OLD_KEYS,
      ...(target.dataDir ? { DATA_DIR: target.dataDir } : { DATABASE_URL: target.url ?? '' }),
      LOG_LEVEL: 'warn',
      ...(beacon
        ? { DRAW_BEACON: 'required', DRAW_BEACON_URL: beacon.url, DRAW_BEACON_CHAIN: beacon.chainHash }
        : { DRAW_BEACON: 'off' }),
    };
    await runOld(source, 'packages/server/src/db/seed-demo-cli.ts', env);
    const server = await startServer(env, join(source, 'packages/server/src/main.ts'));
    try {
      await playOnOldServer(server);
    } finally {
      server.child.kill('SIGTERM');
      await exitOf(server.child);
    }
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
}

const cacheRoot = () => join(tmpdir(), 'lot-old-releases');

/**
 * The old release's database for this test, a copy of the cached one (built first when missing).
 * `beacon`: the local test beacon the release's LOT-DRAW-2 games wait for (its chain is fixed, so
 * a cached database's rounds are still served by a new one).
 */
export async function oldReleaseDatabase(
  commit: string,
  kind: 'pglite' | 'postgres',
  beacon?: OldBeacon,
): Promise<OldDatabase> {
  const full = fullCommit(commit);
  const key = `${full.slice(0, 12)}-v${BUILDER_VERSION}`;
  const started = Date.now();
  let built = false;
  if (kind === 'pglite') {
    const cached = join(cacheRoot(), `${key}-pglite`);
    if (!existsSync(cached)) {
      mkdirSync(cacheRoot(), { recursive: true });
      const building = mkdtempSync(join(cacheRoot(), `${key}-building-`));
      await build(full, { dataDir: join(building, 'data') }, beacon);
      try {
        renameSync(join(building, 'data'), cached);
      } catch (error) {
        // Another run built it at the same time: keep theirs.
        if (!existsSync(cached)) throw error;
      }
      rmSync(building, { recursive: true, force: true });
      built = true;
    }
    const copy = mkdtempSync(join(tmpdir(), 'lot-upgrade-'));
    cpSync(cached, join(copy, 'data'), { recursive: true });
    return {
      commit: full,
      dataDir: join(copy, 'data'),
      builtIn: built ? (Date.now() - started) / 1000 : 0,
      drop: async () => rmSync(copy, { recursive: true, force: true }),
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('The PostgreSQL upgrade test needs TEST_DATABASE_URL');
  const urlOf = (name: string) => Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const cached = `lot_release_${key.replace(/-/g, '_')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [cached]);
    if (exists.rowCount === 0) {
      const building = `${cached}_building_${process.pid}`;
      await admin.query(`CREATE DATABASE ${building}`);
      await build(full, { url: urlOf(building) }, beacon);
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${cached}`);
      built = true;
    }
    const name = `lot_upgrade_${process.pid}_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${cached}`);
    return {
      commit: full,
      url: urlOf(name),
      builtIn: built ? (Date.now() - started) / 1000 : 0,
      drop: async () => {
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  } finally {
    await admin.end();
  }
}
