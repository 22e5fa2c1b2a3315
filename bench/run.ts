/**
 * `npm run bench`: every scenario of the performance suite beside its anchor, measured in the same
 * run so the ratios hold on a noisy machine. Writes bench/results.md (the table, committed) and
 * bench/results.json (raw numbers and the machine; generated, not committed). `npm run bench --
 * lists web` runs only those groups (and leaves bench/results.md alone unless BENCH_WRITE=1).
 *
 * PostgreSQL: BENCH_DATABASE_URL (or TEST_DATABASE_URL) if set, else a kept cluster in
 * BENCH_PG_DIR (default $TMPDIR/lot-bench-pg) started for the run and stopped after it. The
 * 1,000,000-game data set is seeded there once (several minutes) into the database
 * lot_bench_scale and reused; drop that database (or remove BENCH_PG_DIR) to reseed.
 *
 * The `cluster` group (bench/cluster.ts) also rewrites bench/capacity.json and the generated part
 * of docs/capacity.md (bench/capacity-model.ts) whenever it runs. It reads PostgreSQL's CPU from /proc, so give
 * it a server of its own (the kept cluster, not a shared one): other clients' work would count.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { healthScenario, staticScenario } from './http.ts';
import { claimScenarios } from './claims.ts';
import { writeCapacityDoc, type CapacityReport } from './capacity-model.ts';
import { clusterScenarios } from './cluster.ts';
import { exportScenarios } from './exports.ts';
import { gameLogScenarios } from './game-log.ts';
import { beaconScenarios, gameScenarios } from './games.ts';
import { listScenarios, reportScenarios } from './history.ts';
import { benchPostgres, postgresVersion, ROUNDS, root, TIMING, type Row } from './lib.ts';
import { pgliteTransferScenario, postgresMoneyScenarios } from './transfer.ts';
import { verifyScenarios } from './verify.ts';
import { witnessScenarios } from './witness.ts';
import { buildWeb, bundleRows, pageScenarios, WEB_ROOT } from './web.ts';

/** The hand-written notes (what bounds a target, what changed) are kept below the table. */
const NOTES_FILE = join(root, 'bench/notes.md');
const NOTES = existsSync(NOTES_FILE) ? `\n${readFileSync(NOTES_FILE, 'utf8')}` : '';

type Results = {
  date: string;
  seconds: number;
  machine: {
    cores: number;
    cpu: string;
    memoryGb: number;
    platform: string;
    loadAverage: (number | undefined)[];
    node: string;
    postgres: string | null;
    pgbench: string | null;
  };
  timing: typeof TIMING;
  rows: Row[];
};

/** bench/results.md from the raw results, with the notes below the table. */
function render({ date, seconds, machine, timing, rows }: Results): string {
  const table = [
    '| scenario | ours | anchor | ratio | target | met? |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.scenario} | ${r.ours} | ${r.anchor} | ${r.ratio} | ${r.target} | ${r.met ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
  const missed = rows.filter((r) => !r.met).length;
  return `# Benchmark results

\`npm run bench\` on ${date.slice(0, 16).replace('T', ' ')} UTC, ${seconds.toFixed(0)} s in all.
Machine: ${machine.cores} × ${machine.cpu}, ${machine.memoryGb} GB, ${machine.platform}; Node ${machine.node},
${machine.postgres ?? 'PostgreSQL not used'}, ${machine.pgbench ?? ''}; load average ${machine.loadAverage.map((l) => l?.toFixed(1)).join(' → ')} (1 min, start → end).
HTTP runs: autocannon, ${timing.connections} connections, no pipelining, ${timing.warmup} s warm-up then ${timing.seconds} s measured,
ours and the anchor turn about, best of ${ROUNDS} each; our server runs as deployed (its own process, default log level, output
to a file). Raw numbers: bench/results.json, written by the run (not committed).

${table}

${missed === 0 ? 'Every target met.' : `${missed} of ${rows.length} targets not met in this run; see the notes below.`}
${NOTES}`;
}

// `npm run bench -- --render`: rewrite bench/results.md from results.json (after editing notes.md,
// when a run left one here) and docs/capacity.md's generated part from capacity.json.
if (process.argv.includes('--render')) {
  const file = join(root, 'bench/results.json');
  if (existsSync(file))
    writeFileSync(join(root, 'bench/results.md'), render(JSON.parse(readFileSync(file, 'utf8')) as Results));
  writeCapacityDoc(root, JSON.parse(readFileSync(join(root, 'bench/capacity.json'), 'utf8')) as CapacityReport);
  process.exit(0);
}

const started = new Date();
const only = process.argv.slice(2);
const groups: { name: string; run: (pgUrl: () => string) => Promise<Row[]> }[] = [
  { name: 'web', run: async () => (buildWeb(), [...bundleRows(), ...(await pageScenarios())]) },
  { name: 'health', run: () => healthScenario() },
  { name: 'static', run: () => staticScenario(WEB_ROOT) },
  { name: 'money', run: (pgUrl) => postgresMoneyScenarios(pgUrl()) },
  { name: 'pglite', run: () => pgliteTransferScenario() },
  { name: 'claims', run: (pgUrl) => claimScenarios(pgUrl()) },
  { name: 'games', run: (pgUrl) => gameScenarios(pgUrl()) },
  { name: 'beacon', run: (pgUrl) => beaconScenarios(pgUrl()) },
  { name: 'verify', run: () => verifyScenarios() },
  { name: 'log', run: (pgUrl) => gameLogScenarios(pgUrl()) },
  { name: 'witness', run: (pgUrl) => witnessScenarios(pgUrl()) },
  { name: 'lists', run: (pgUrl) => listScenarios(pgUrl()) },
  { name: 'reports', run: (pgUrl) => reportScenarios(pgUrl()) },
  { name: 'exports', run: (pgUrl) => exportScenarios(pgUrl()) },
  { name: 'cluster', run: (pgUrl) => clusterScenarios(pgUrl()) },
];
const unknown = only.filter((name) => !groups.some((group) => group.name === name));
if (unknown.length > 0) {
  console.error(`unknown scenario group ${unknown.join(', ')}; groups: ${groups.map((g) => g.name).join(', ')}`);
  process.exit(2);
}

let postgres: ReturnType<typeof benchPostgres> | undefined;
const pgUrl = () => (postgres ??= benchPostgres()).url;
const loadAverage = [os.loadavg()[0]];
const rows: Row[] = [];
try {
  for (const group of groups) {
    if (only.length > 0 && !only.includes(group.name)) continue;
    const groupStart = performance.now();
    console.log(`== ${group.name}`);
    for (const row of await group.run(pgUrl)) {
      rows.push(row);
      console.log(`   ${row.met ? 'met    ' : 'NOT MET'} ${row.scenario}: ${row.ours} | ${row.anchor} | ${row.ratio}`);
    }
    console.log(`   (${((performance.now() - groupStart) / 1000).toFixed(0)} s)`);
  }
  loadAverage.push(os.loadavg()[0]);

  const versions = {
    node: process.version,
    postgres: postgres ? `PostgreSQL ${await postgresVersion(postgres.url)}` : null,
    pgbench: spawnSync('pgbench', ['--version'], { encoding: 'utf8' }).stdout.trim() || null,
  };
  const machine = {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage,
    ...versions,
  };
  const seconds = (Date.now() - started.getTime()) / 1000;
  const partial = only.length > 0 && process.env.BENCH_WRITE !== '1';
  const out = partial ? join(os.tmpdir(), 'lot-bench-partial') : join(root, 'bench');
  if (partial) spawnSync('mkdir', ['-p', out]);
  const results: Results = { date: started.toISOString(), seconds, machine, timing: TIMING, rows };
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(out, 'results.md'), render(results));
  console.log(`\nWrote ${join(out, 'results.md')} and results.json (${seconds.toFixed(0)} s).`);
} finally {
  postgres?.stop();
}
