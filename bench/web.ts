/**
 * The web app's first screen: the JavaScript a browser fetches before it can draw each route
 * (gzip), from the Vite manifest of the built app, and Largest Contentful Paint and Total
 * Blocking Time in headless Chromium through the Performance API.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { api, median, root, scratchDir, startServer, type Row } from './lib.ts';

export const WEB_ROOT = join(root, 'packages/web/dist');
export const FIRST_SCREEN_BUDGET_KB = 150;

/**
 * Each first screen: the lazy modules the router loads for it (packages/web/src/app/router.tsx):
 * the shell, the screen, and the route loaders (docs/ARCHITECTURE.md#data-loading).
 */
const SIGNED_IN = ['src/app/shell/app-shell.tsx', 'src/app/route-loaders.ts'];
export const FIRST_SCREENS: Record<string, string[]> = {
  '/login': ['src/app/routes/login.tsx'],
  '/admin/dashboard': [...SIGNED_IN, 'src/app/routes/admin-dashboard.tsx'],
  '/superagent/dashboard': [...SIGNED_IN, 'src/app/routes/superagent-dashboard.tsx'],
  '/agent/dashboard': [...SIGNED_IN, 'src/app/routes/agent-dashboard.tsx'],
  '/user/dashboard': [...SIGNED_IN, 'src/app/routes/user-dashboard.tsx'],
};

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean; src?: string };

/** `npm run build` of the web app, writing dist/.vite/manifest.json. */
export function buildWeb(): void {
  const build = spawnSync('npm', ['run', 'build', '-w', '@lot/web'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error(`web build failed:\n${build.stdout}\n${build.stderr}`);
}

/**
 * The gzip size of every script a route needs before its first screen: the entry, the route's
 * lazy chunks, and everything those import statically (which the browser must fetch before
 * running them). Dynamic imports inside them are not counted: they load later.
 */
export function firstScreenJs(webRoot = WEB_ROOT): { route: string; files: string[]; gzipBytes: number }[] {
  const manifestFile = join(webRoot, '.vite/manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`no ${manifestFile}: build the web app first`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  return Object.entries(FIRST_SCREENS).map(([route, modules]) => {
    const keys = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk) throw new Error(`${key} is not in the Vite manifest (renamed? update FIRST_SCREENS)`);
      if (keys.has(key)) return;
      keys.add(key);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const key of [...entries, ...modules]) visit(key);
    const files = [...keys].map((key) => manifest[key]?.file ?? '').filter((file) => file.endsWith('.js'));
    const gzipBytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(webRoot, file))).length, 0);
    return { route, files, gzipBytes };
  });
}

export function bundleRows(webRoot = WEB_ROOT): Row[] {
  return firstScreenJs(webRoot).map(({ route, files, gzipBytes }) => ({
    scenario: `web: first-screen JavaScript of \`${route}\` (gzip, ${files.length} files)`,
    ours: `${(gzipBytes / 1024).toFixed(1)} kB`,
    anchor: '—',
    ratio: '—',
    target: `≤ ${FIRST_SCREEN_BUDGET_KB} kB`,
    met: gzipBytes <= FIRST_SCREEN_BUDGET_KB * 1024,
    raw: { route, files, gzipBytes },
  }));
}

/** Installed before any page script: collects LCP and long tasks as they happen. */
const OBSERVE = `
  window.__perf = { lcp: 0, tbt: 0, longTasks: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__perf.lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__perf.tbt += Math.max(0, entry.duration - 50);
      window.__perf.longTasks++;
    }
  }).observe({ type: 'longtask', buffered: true });
`;

const RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 5);

/**
 * LCP and TBT of `/login` and the admin dashboard on a cold first visit (fresh browser context,
 * empty cache), median of RUNS, against the demo data on PGlite. TBT here is the sum of every long
 * task's time over 50 ms from navigation until the page has been quiet (network idle + 0.5 s),
 * which is at least the TBT of the FCP–TTI window.
 */
export async function pageScenarios(): Promise<Row[]> {
  const dataDir = scratchDir('lot-bench-web');
  const seed = spawnSync(process.execPath, ['--import', 'tsx', 'packages/server/src/cli/seed-demo-cli.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  if (seed.status !== 0) throw new Error(`demo seed failed:\n${seed.stderr}`);
  const server = await startServer({ DATA_DIR: dataDir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run', '--disable-quic'],
  });
  try {
    const admin = await api<Record<string, unknown> & { accessToken: string }>(server.url, '/api/auth/signin', null, {
      username: 'admin',
      password: 'admin123',
    });
    const { accessToken, message: _message, ...user } = admin;
    const session = `localStorage.setItem('token', ${JSON.stringify(accessToken)});
      localStorage.setItem('user', ${JSON.stringify(JSON.stringify(user))});`;
    const rows: Row[] = [];
    for (const [path, signedIn, ready] of [
      ['/login', false, 'button[type=submit]'],
      ['/admin/dashboard', true, 'text=Welcome back'],
    ] as const) {
      const samples: { lcp: number; tbt: number }[] = [];
      for (let run = 0; run < RUNS + 1; run++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
        await context.addInitScript(signedIn ? `${session}\n${OBSERVE}` : OBSERVE);
        const page = await context.newPage();
        await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
        await page.waitForSelector(ready, { timeout: 15_000 });
        await page.waitForTimeout(500);
        const perf = (await page.evaluate('window.__perf')) as { lcp: number; tbt: number };
        if (run > 0) samples.push(perf); // the first run warms the server and the disk cache
        await context.close();
      }
      const lcp = median(samples.map((s) => s.lcp));
      const tbt = median(samples.map((s) => s.tbt));
      rows.push({
        scenario: `web: \`${path}\` cold first visit, headless Chromium (median of ${RUNS})`,
        ours: `LCP ${lcp.toFixed(0)} ms, TBT ${tbt.toFixed(0)} ms`,
        anchor: '—',
        ratio: '—',
        target: 'LCP < 1000 ms, TBT < 100 ms',
        met: lcp > 0 && lcp < 1000 && tbt < 100,
        raw: { path, samples, lcp, tbt, chromium: browser.version() },
      });
    }
    return rows;
  } finally {
    await browser.close();
    await server.stop();
  }
}
