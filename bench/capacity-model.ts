/**
 * The capacity model (docs/capacity.md) and the doc's generated part: what one PostgreSQL node of N
 * vCPU and M API processes carry, from the CPU per operation the cluster group measured
 * (bench/cluster.ts). `npm run bench -- cluster` writes bench/capacity.json and rewrites the part
 * of docs/capacity.md between the markers below from it; `npm run bench -- --render` rewrites it
 * from the committed capacity.json (after editing this file), so the doc's figures are always one
 * run's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** CPU per operation (ms) of each party: the serving API process(es), the other API processes, HAProxy, PostgreSQL, the bench's client. */
export type PerOp = { api: number; idle: number; haproxy: number; postgres: number; client: number; ops: number };

/**
 * The assumptions docs/capacity.md states: the CPU share a node may be kept at, what one shop does
 * in a busy hour, and the histories (games on a shop's record) the table is given for: the two the
 * run seeds and measures, and a year of busy hours extrapolated from them. Each API process is
 * counted as one core (Node runs requests on one thread).
 */
export const ASSUMPTIONS = {
  utilisation: 0.7,
  /** 60 polls of the header's bell (one a minute) and 30 screens opened, half of them each list. */
  perShopHour: { games: 12, transfers: 4, reads: { bell: 60, ledger: 15, games: 15 } },
  vcpus: [2, 4, 8, 16],
  histories: [1_000, 10_000, 50_000],
};

/** A read's CPU (ms) as a line in the shop's history h (games on its record): base + perGame × h. */
export type Line = { base: number; perGame: number };
/** The reads a shop's screens send: its ledger's first page, its games' first page, the header's bell. */
export type ReadName = keyof typeof ASSUMPTIONS.perShopHour.reads;
export type ReadCost = Record<ReadName, { api: Line; postgres: Line }>;

/**
 * CPU per operation (ms): a keyed transfer, a whole game, a draw, each of a shop's reads at the two
 * seeded histories (`short`, `long` games on its record); `fanOut`: what one other API
 * process spends per game hearing its changes (NOTIFY lot_games); `haproxy`: per request.
 */
export type Figures = {
  transfer: PerOp;
  game: PerOp;
  draw: PerOp;
  open: PerOp;
  reads: Record<ReadName, { short: PerOp; long: PerOp }>;
  history: { short: number; long: number };
  fanOut: number;
  haproxy: number;
};

/**
 * Each read's two measured histories as a line per side (two points; counts and sums are linear in
 * the rows). A count over more rows never costs less: a falling line is noise, counted as flat.
 */
export function readCost({ reads, history }: Figures): ReadCost {
  const line = (read: { short: PerOp; long: PerOp }, side: 'api' | 'postgres'): Line => {
    const perGame = Math.max(0, (read.long[side] - read.short[side]) / (history.long - history.short));
    return { base: read.short[side] - perGame * history.short, perGame };
  };
  const cost = (name: ReadName) => ({ api: line(reads[name], 'api'), postgres: line(reads[name], 'postgres') });
  return { ledger: cost('ledger'), games: cost('games'), bell: cost('bell') };
}

const READ_NAMES: ReadName[] = ['ledger', 'games', 'bell'];

const at = (line: Line, games: number) => Math.max(0, line.base + line.perGame * games);

/** What one PostgreSQL node of N vCPU and one API process carry, from CPU per operation. */
export function capacity(figures: Figures) {
  const { utilisation: u, perShopHour: mix, vcpus, histories } = ASSUMPTIONS;
  const reads = readCost(figures);
  const budget = (cores: number) => cores * u * 1000; // CPU-ms per second
  const shopMs = (side: 'api' | 'postgres', games: number) =>
    mix.games * figures.game[side] +
    mix.transfers * figures.transfer[side] +
    READ_NAMES.reduce((sum, name) => sum + mix.reads[name] * at(reads[name][side], games), 0);
  // M processes (one core each) carry the shops' own work plus every game heard by the other M - 1.
  const fanShopMs = mix.games * figures.fanOut;
  const shopsOf = (m: number, games: number) => (3600 * budget(m)) / (shopMs('api', games) + (m - 1) * fanShopMs);
  const processesFor = (shops: number, games: number) => {
    for (let m = 1; m <= 1000; m++) if (shopsOf(m, games) >= shops) return m;
    return Number.POSITIVE_INFINITY;
  };
  const of = (cores: number, side: 'api' | 'postgres') => ({
    transfersPerSecond: budget(cores) / figures.transfer[side],
    gamesPerMinute: (60 * budget(cores)) / figures.game[side],
    shops: histories.map((games) => ({ games, shops: (3600 * budget(cores)) / shopMs(side, games) })),
  });
  return {
    reads,
    shopHourMs: histories.map((games) => ({ games, api: shopMs('api', games), postgres: shopMs('postgres', games) })),
    apiProcess: of(1, 'api'),
    /** However many processes: the fan-out alone would take all their CPU past this many shops. */
    fanOutCeilingShops: fanShopMs > 0 ? (3600 * budget(1)) / fanShopMs : Number.POSITIVE_INFINITY,
    haproxyRequestsPerSecondPerCore: figures.haproxy > 0 ? budget(1) / figures.haproxy : Number.NaN,
    postgres: vcpus.map((n) => {
      const node = of(n, 'postgres');
      return {
        vcpus: n,
        ...node,
        apiProcesses: node.shops.map(({ games, shops }) => ({ games, processes: processesFor(shops, games) })),
      };
    }),
  };
}

const whole = (x: number) => (Number.isFinite(x) ? Math.floor(x).toLocaleString('en-US') : '—');
const ms = (x: number) => x.toFixed(2);
const thousands = (games: number) => games.toLocaleString('en-US');

export function capacityTable(figures: Figures): string {
  const { apiProcess, postgres, fanOutCeilingShops } = capacity(figures);
  const { histories } = ASSUMPTIONS;
  const extrapolated = (games: number) => (games > figures.history.long ? ', extrapolated' : '');
  const shopColumns = histories.map((games) => `shops, ${thousands(games)} games each${extrapolated(games)}`);
  return [
    `| PostgreSQL node | transfers/s | games/min | ${shopColumns.join(' | ')} | API processes to keep up |`,
    `|---|--:|--:|${histories.map(() => '--:|').join('')}--:|`,
    ...postgres.map(
      (row) =>
        `| ${row.vcpus} vCPU | ${whole(row.transfersPerSecond)} | ${whole(row.gamesPerMinute)} | ` +
        `${row.shops.map((s) => whole(s.shops)).join(' | ')} | ${row.apiProcesses.map((p) => whole(p.processes)).join(' / ')} |`,
    ),
    `| one API process (1 core) | ${whole(apiProcess.transfersPerSecond)} | ${whole(apiProcess.gamesPerMinute)} | ` +
      `${apiProcess.shops.map((s) => whole(s.shops)).join(' | ')} | |`,
    `| API processes' ceiling (game fan-out) | | | ${histories.map(() => whole(fanOutCeilingShops)).join(' | ')} | |`,
  ].join('\n');
}

/** One call measured on both scale data sets. */
export type Growth = {
  name: string;
  path: string;
  sizes: { games: number; cpu: PerOp; rate: number; p99: number; errors: number; rows: string }[];
};

/** Everything one run of the cluster group measured, with its inputs: bench/capacity.json. */
export type CapacityReport = {
  run: {
    command: string;
    date: string;
    seconds: number;
    commit: string;
    machine: { cores: number; cpu: string; memoryGb: number; platform: string };
    loadAverage: { start: number[]; samples: number[]; end: number[] };
    node: string;
    postgres: string;
    apiProcesses: number;
    timing: { seconds: number; warmup: number; connections: number; rounds: number; drawSeconds: number };
    scaleTiming: { seconds: number; warmup: number; connections: number };
  };
  data: {
    background: { database: string; users: number; games: number };
    accounts: number;
    shops: number;
    history: { short: number; long: number; shopsEach: number };
    atStart: Record<string, number>;
    atEnd: Record<string, number>;
    scale: { database: string; users: number; games: number }[];
  };
  figures: Figures;
  reads: {
    key: ReadName;
    name: string;
    path: string;
    history: number;
    cpu: PerOp;
    rate: number;
    p99: number;
    errors: number;
  }[];
  balancer: { what: 'transfers' | 'games'; processes: number; ratio: number; runs: number[]; anchorRuns: number[] }[];
  fanOut: { quietMsPerSecond: number; games: number };
  growth: Growth[];
  assumptions: typeof ASSUMPTIONS;
  capacity: ReturnType<typeof capacity>;
  table: string;
};

const BEGIN =
  '<!-- generated: bench/capacity-model.ts from bench/capacity.json (npm run bench -- cluster); edit there -->';
const END = '<!-- end of generated part -->';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const load = (xs: number[]) => xs.map((x) => x.toFixed(1));

/** The run: when, where, on what, and how loaded the machine was. */
function runSection({ run, data }: CapacityReport): string {
  const { machine, loadAverage, timing, scaleTiming } = run;
  const samples = loadAverage.samples;
  const size = (d: Record<string, number>) =>
    `${thousands(d.users ?? 0)} users, ${thousands(d.games ?? 0)} games, ${thousands(d.transactions ?? 0)} ledger rows`;
  return `## The run

\`${run.command}\` on ${run.date.slice(0, 16).replace('T', ' ')} UTC, commit \`${run.commit}\`, ${run.seconds.toFixed(0)} s in all.

- **Machine**: ${machine.cores} × ${machine.cpu}, ${machine.memoryGb} GB, ${machine.platform}; Node ${run.node}; PostgreSQL ${run.postgres} with \`fsync=off\`, \`synchronous_commit=off\` (scripts/pg-temp.sh).
- **Load average** ${load(loadAverage.start).join(', ')} (1, 5, 15 minutes) at the start and ${load(loadAverage.end).join(', ')} at the end, on ${machine.cores} cores; the 1-minute figure, sampled every 5 s during the run, went from ${Math.min(...samples).toFixed(1)} to ${Math.max(...samples).toFixed(1)} (mean ${mean(samples).toFixed(1)}). Every figure below is bounded by that: see "Read this first".
- **Processes**: ${run.apiProcesses} API processes (the real server, default log level, logs to files) on one PostgreSQL database, HAProxy with deploy/haproxy.cfg in front of 1, 2 and 3 of them; the per-operation figures are one process without the balancer.
- **Load**: autocannon, ${timing.connections} connections, no pipelining, ${timing.warmup} s warm-up then ${timing.seconds} s measured, ${timing.rounds} ${timing.rounds === 1 ? 'round' : 'rounds'} after one thrown away (transfers, games); draws alone for ${timing.drawSeconds} s; ${data.shops} shops playing at once. The calls are sent as the web client sends them: the bearer token, content-type with a body, a fresh \`Idempotency-Key\` with each transfer, and the headers Chromium adds (bench/lib.ts \`BROWSER_HEADERS\`).
- **Data set, seeded before anything is measured** (bench/cluster-data.ts): ${thousands(data.background.users)} users of seed:scale's hierarchy (100 superagents, 1,000 agents, the rest players) with ${thousands(data.background.games)} games over the last year (kept in \`${data.background.database}\`, copied for the run); ${data.accounts} bench accounts (they send the transfers, ${data.shops} of them play the games); ${data.history.shopsEach} of them with ${thousands(data.history.short)} games on their record and ${data.history.shopsEach} with ${thousands(data.history.long)}, each game with its ledger row. In all at the start: ${size(data.atStart)}. The reads are measured on exactly that, first; the writes then add rows (at the end: ${size(data.atEnd)}).
- **Growth with history**: the same calls on the kept data sets ${data.scale.map((s) => `\`${s.database}\` (${thousands(s.users)} users, ${thousands(s.games)} games)`).join(' and ')}, one API process, ${scaleTiming.connections} connections: three calls one after another to warm it and time one call, then as many calls as fill about ${scaleTiming.seconds} s on two cores (at least 6), every one completed.`;
}

/** CPU per operation, the shop's reads at both histories, and what sits beside them. */
function figuresSection(report: CapacityReport): string {
  const { figures, reads, balancer, fanOut } = report;
  const { capacity: cap } = report;
  const row = (name: string, c: PerOp) => `| ${name} | ${ms(c.api)} | ${ms(c.postgres)} | ${c.ops} |`;
  const readRows = reads.map((r) =>
    row(`${r.name} (\`GET ${r.path}\`), ${thousands(r.history)} games on record`, r.cpu),
  );
  const ratios = (what: 'transfers' | 'games') =>
    balancer
      .filter((b) => b.what === what)
      .map((b) => `${b.ratio.toFixed(2)} (${b.processes})`)
      .join(', ');
  return `## CPU per operation

Milliseconds of CPU per operation, read from \`/proc\` over the measured batches (their warm-ups included), on one API process without the balancer and on PostgreSQL (the postmaster and every backend):

| operation | API process | PostgreSQL | operations |
|---|--:|--:|--:|
${row('a keyed transfer (`POST /api/balance/transfer`)', figures.transfer)}
${row('a whole game: open, 20 entries, 3 draws (5 calls)', figures.game)}
${row('– of which opening and the entries (2 calls)', figures.open)}
${row('– a draw', figures.draw)}
${readRows.join('\n')}

Beside them:

- **HAProxy**: ${ms(figures.haproxy)} ms per request (a keyed transfer through it to one process); one core at ${(report.assumptions.utilisation * 100).toFixed(0)} % passes about ${whole(cap.haproxyRequestsPerSecondPerCore)} requests a second. Through the balancer, rates against one process without it (1, 2, 3 processes behind it): transfers ${ratios('transfers')}; games ${ratios('games')}. On a shared 2-core machine these show that the path works and what it costs, not scaling.
- **Every other API process** spends ${ms(figures.fanOut)} ms per game hearing its changes (NOTIFY lot_games on its LISTEN connection), over ${fanOut.games} games, its idle pace (${ms(fanOut.quietMsPerSecond)} ms a second across the other processes) subtracted.
- **The bench's HTTP client** is counted in no capacity: ${ms(figures.transfer.client)} ms per transfer, ${ms(figures.game.client)} ms per game.`;
}

/** How the list and report calls grow with the history they count and sum. */
function growthSection(report: CapacityReport): string {
  const { growth, capacity: cap, figures } = report;
  const { reads } = cap;
  const sizes = growth[0]?.sizes.map((s) => thousands(s.games)) ?? [];
  const rows = growth.map((g) => {
    const [small, large] = g.sizes;
    const total = (s: Growth['sizes'][number] | undefined) => (s ? s.cpu.api + s.cpu.postgres : Number.NaN);
    const cells = g.sizes.map(
      (s) =>
        `${ms(s.cpu.api)} + ${ms(s.cpu.postgres)} (${s.rows ? `${s.rows} ${s.rows === '1' ? 'row' : 'rows'}, ` : ''}${s.cpu.ops} ${s.cpu.ops === 1 ? 'call' : 'calls'})`,
    );
    return `| ${g.name} (\`${g.path.replace(/\d{4}-\d{2}-\d{2}/g, '…')}\`) | ${cells.join(' | ')} | ${(total(large) / total(small)).toFixed(1)} × |`;
  });
  return `## How reads grow with history

A list answers its page and the totals of the whole set it pages through: the ledger's count and money in and out, a game list's count and commission. Those are counted and summed over every row of the set, so a list costs more as its owner's history grows. The superagent's and the admin's game totals and the reports read the daily rollups instead (decision 023): they grow with the days and branches that had sales, which a longer history fills more of, but far less than with the games.

A shop's reads, each measured at the two seeded histories and drawn as a line per side: CPU ms = base + per 1,000 games × thousands of games on the shop's record (a line that fell between the two was noise and is counted flat):

| read | API base | API per 1,000 games | PostgreSQL base | PostgreSQL per 1,000 games |
|---|--:|--:|--:|--:|
${READ_NAMES.map((name) => `| ${report.reads.find((r) => r.key === name)?.name ?? name} | ${ms(reads[name].api.base)} | ${ms(reads[name].api.perGame * 1000)} | ${ms(reads[name].postgres.base)} | ${ms(reads[name].postgres.perGame * 1000)} |`).join('\n')}

The same calls on the two kept data sets, every role's first page and the downline report over all time (API + PostgreSQL CPU ms per call; in brackets the rows the list counts and the calls measured, after three that warmed it):

| call | ${sizes.map((s) => `${s} games`).join(' | ')} | growth |
|---|${sizes.map(() => '--:|').join('')}--:|
${rows.join('\n')}

The model therefore counts a shop's reads at its history, not as a fixed cost: ${thousands(figures.history.short)} and ${thousands(figures.history.long)} games are measured, ${thousands(ASSUMPTIONS.histories.at(-1) ?? 0)} (about a year of 12 games an hour, 11 hours a day) is the line extended.`;
}

function modelSection(report: CapacityReport): string {
  const { assumptions: a, capacity: cap, figures, table } = report;
  const mix = a.perShopHour;
  const hours = cap.shopHourMs
    .map((h) => `${thousands(h.games)} games on record: PostgreSQL ${whole(h.postgres)} ms, API ${whole(h.api)} ms`)
    .join('; ');
  return `## The model

With the figures above, u = ${a.utilisation}, N vCPU of PostgreSQL and M API processes (one core each):

- transfers per second = u × 1000 × N ÷ PostgreSQL ms per transfer (and u × 1000 × M ÷ API ms);
- games per minute = 60 × u × 1000 × N ÷ PostgreSQL ms per game (and the same with M and API ms);
- one shop's busy hour = ${mix.games} games + ${mix.transfers} transfers + ${mix.reads.bell} bells + ${mix.reads.ledger} ledger pages + ${mix.reads.games} games pages, each read at the shop's history: ${hours}; plus ${ms(mix.games * figures.fanOut)} ms on each API process that does not serve it (the fan-out);
- shops = u × 3,600,000 × N ÷ the busy hour's PostgreSQL ms; on M processes u × 3,600,000 × M ÷ (the busy hour's API ms + (M − 1) × the fan-out).

${table}

Each row is one kind of work alone: a node carries its transfers a second _or_ its games a minute _or_ its shops at their busy hour, not all three. "API processes to keep up" is the smallest M whose processes carry as many shops as the node (fan-out included), for each history in turn.`;
}

export function renderCapacity(report: CapacityReport): string {
  return [BEGIN, runSection(report), figuresSection(report), growthSection(report), modelSection(report), END].join(
    '\n\n',
  );
}

/** Replaces the generated part of docs/capacity.md (between the markers) with `report`'s. */
export function writeCapacityDoc(root: string, report: CapacityReport): void {
  const file = join(root, 'docs/capacity.md');
  const doc = readFileSync(file, 'utf8');
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/capacity.md has lost its markers:\n${BEGIN}\n${END}`);
  writeFileSync(file, `${doc.slice(0, start)}${renderCapacity(report)}${doc.slice(end + END.length)}`);
  // The tables laid out as the repository's formatter keeps every Markdown file.
  spawnSync(join(root, 'node_modules/.bin/prettier'), ['--write', file], { stdio: 'ignore' });
}
