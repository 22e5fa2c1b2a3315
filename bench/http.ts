/**
 * The HTTP stack against bare Fastify: `GET /api/health` through every plugin vs a hello-world,
 * and the built web app's files through our server vs @fastify/static alone.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { load, rateRow, scratchDir, startAnchor, startServer, turnAbout, type Load, type Row } from './lib.ts';

const byRate = { ours: (l: Load) => l.rate, anchor: (l: Load) => l.rate };

export async function healthScenario(): Promise<Row[]> {
  const ours = await startServer({ DATA_DIR: scratchDir('lot-bench-health') });
  const anchor = await startAnchor('hello');
  try {
    const result = await turnAbout(
      () => load({ url: `${ours.url}/api/health` }),
      () => load({ url: `${anchor.url}/api/health` }),
      byRate,
    );
    return [
      rateRow(
        '`GET /api/health`, full plugin stack vs bare Fastify hello-world',
        result.ours,
        result.anchor.rate,
        0.8,
        {
          runs: result.runs,
        },
      ),
    ];
  } finally {
    await ours.stop();
    await anchor.stop();
  }
}

/** The entry script (the largest file a first visit fetches) and the page itself. */
export async function staticScenario(webRoot: string): Promise<Row[]> {
  const assets = readdirSync(join(webRoot, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, size: statSync(join(webRoot, 'assets', file)).size }))
    .sort((a, b) => b.size - a.size);
  const biggest = assets[0];
  if (!biggest) throw new Error(`no scripts in ${webRoot}/assets`);
  const ours = await startServer({ DATA_DIR: scratchDir('lot-bench-static') });
  const anchor = await startAnchor('static', webRoot);
  try {
    const rows: Row[] = [];
    for (const [name, oursPath, anchorPath] of [
      [`largest script (${(biggest.size / 1024).toFixed(0)} kB)`, `/assets/${biggest.file}`, `/assets/${biggest.file}`],
      ['index.html for `/login`', '/login', '/index.html'],
    ] as const) {
      const result = await turnAbout(
        () => load({ url: `${ours.url}${oursPath}` }),
        () => load({ url: `${anchor.url}${anchorPath}` }),
        byRate,
      );
      rows.push(
        rateRow(`static: ${name} vs @fastify/static alone`, result.ours, result.anchor.rate, 0.8, {
          runs: result.runs,
        }),
      );
    }
    return rows;
  } finally {
    await ours.stop();
    await anchor.stop();
  }
}
