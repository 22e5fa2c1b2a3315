/**
 * Exports on the 1,000,000-game data set (docs/product/reports.md#exports): the admin's whole
 * sales history as CSV through the API (rows per second, and how much the server's memory grows
 * while it streams), beside PostgreSQL's own COPY of the same rows to CSV measured in the same
 * run; and an Excel file of about 100,000 games.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ADMIN_PASSWORD, prepare } from './history.ts';
import { api, startServer, type Row } from './lib.ts';

/** The server process's resident memory now, in bytes (Linux). */
function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Line ends in a chunk, counted natively: the client shares the machine with the server. */
function newlines(chunk: Uint8Array): number {
  let count = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count++;
  return count;
}

/** Downloads an export, counting its lines and sampling the server's memory every 50 ms. */
async function download(base: string, token: string, path: string, pid: number) {
  const before = residentBytes(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 50);
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) throw new Error(`${path}: ${response.status}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    lines += newlines(chunk);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { seconds, lines, bytes, growth: peak - before };
}

/** PostgreSQL's COPY of the export's rows (same joins, order and columns) to CSV through psql. */
function copyAnchor(dbUrl: string): Promise<{ seconds: number; lines: number }> {
  const query = `COPY (SELECT g.created_at, g.id, p.username, p.full_name, pa.full_name, g.start_range || '-' || g.end_range,
      g.bet_amount / 100.0, g.selected_count, g.pool / 100.0, g.total_prize / 100.0, g.winners_count, g.commission / 100.0
    FROM games g JOIN users p ON p.id = g.user_id LEFT JOIN users pa ON pa.id = g.parent_id
    ORDER BY g.created_at DESC, g.id DESC) TO STDOUT WITH CSV HEADER`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('psql', [dbUrl, '-X', '-q', '-c', query], { stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => (lines += newlines(chunk)));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve({ seconds: (performance.now() - started) / 1000, lines })
        : reject(new Error(`psql ${code}`)),
    );
  });
}

export async function exportScenarios(pgUrl: string): Promise<Row[]> {
  const dbUrl = await prepare(pgUrl);
  const server = await startServer({ DATABASE_URL: dbUrl });
  try {
    const { accessToken } = await api<{ accessToken: string }>(server.url, '/api/auth/signin', null, {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    const anchor = await copyAnchor(dbUrl);
    const csv = await download(server.url, accessToken, '/api/sales-history/filter/export?format=csv', server.pid);
    const rows = csv.lines - 1;
    const rate = rows / csv.seconds;
    const anchorRate = (anchor.lines - 1) / anchor.seconds;

    // About 100,000 games: the last tenth of the year the data set spreads them over.
    const since = new Date(Date.now() - 36.5 * 86_400_000).toISOString();
    const listed = await fetch(`${server.url}/api/sales-history/filter?limit=1&from=${since}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const excelRows = Number(listed.headers.get('x-total-count'));
    const excel = await download(
      server.url,
      accessToken,
      `/api/sales-history/filter/export?format=xlsx&from=${since}`,
      server.pid,
    );
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    return [
      {
        scenario: `exports: CSV of every game (${rows.toLocaleString('en-US')} rows), rows/s`,
        ours: `${Math.round(rate).toLocaleString('en-US')}/s`,
        anchor: `${Math.round(anchorRate).toLocaleString('en-US')}/s (psql COPY)`,
        ratio: (rate / anchorRate).toFixed(2),
        target: '≥ 50,000/s',
        met: rate >= 50_000,
        raw: { rows, seconds: csv.seconds, bytes: csv.bytes, anchor },
      },
      {
        scenario: 'exports: server memory growth while the CSV streams',
        ours: mb(csv.growth),
        anchor: '—',
        ratio: '—',
        target: '< 100 MB',
        met: csv.growth < 100 * 2 ** 20,
        raw: { growthBytes: csv.growth },
      },
      {
        scenario: `exports: Excel of ${excelRows.toLocaleString('en-US')} games`,
        ours: `${excel.seconds.toFixed(1)} s`,
        anchor: '—',
        ratio: '—',
        target: '< 10 s',
        met: excel.seconds < 10,
        raw: { rows: excelRows, seconds: excel.seconds, bytes: excel.bytes, growthBytes: excel.growth },
      },
    ];
  } finally {
    await server.stop();
  }
}
