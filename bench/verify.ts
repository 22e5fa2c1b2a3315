/**
 * `npm run bench -- verify`: what checking a game costs, measured in this process and in a fresh
 * one. These figures were logged by tests inside `npm test` (domain verify.test.ts, the server's
 * beacon-client.test.ts), which asserted only generous bounds; they are measured here instead.
 */
import { spawnSync } from 'node:child_process';
import { QUICKNET, verifyBeaconRound } from '@lot/domain/beacon';
import fixtures from '../packages/domain/src/beacon-fixtures/quicknet.json';
import { buildProof, LARGE_EXAMPLE } from '../packages/domain/src/draw-example.ts';
import { verifyProof } from '../packages/domain/src/verify.ts';
import { root, type Row } from './lib.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** A 100-entry LOT-DRAW-2 proof with 5 prizes, verified 11 times: the first, then the median of 10. */
async function proofRow(): Promise<Row> {
  const proof = await buildProof(LARGE_EXAMPLE);
  const times: number[] = [];
  for (let run = 0; run < 11; run++) {
    const start = performance.now();
    const report = await verifyProof(proof);
    times.push(performance.now() - start);
    if (report.verdict !== 'verified') throw new Error(`the bench's proof did not verify: ${report.verdict}`);
  }
  const [first = NaN, ...later] = times;
  const warm = median(later);
  return {
    scenario: 'verify: verifyProof of a 100-entry LOT-DRAW-2 proof, 5 draws (Node, this process)',
    ours: `first ${first.toFixed(1)} ms, then median ${warm.toFixed(1)} ms`,
    anchor: '—',
    ratio: '—',
    target: '≤ 200 ms (the verify page, decision 033)',
    met: first <= 200,
    raw: { times },
  };
}

/** verifyBeaconRound in a fresh Node process: the first check (the key decoded) and 30 after it. */
function beaconRow(): Row {
  const rounds = fixtures.rounds.map(({ round, signature }) => ({ round, signature }));
  const script = `
    const { QUICKNET, verifyBeaconRound } = await import('@lot/domain/beacon');
    const rounds = ${JSON.stringify(rounds)};
    let t = performance.now();
    if (!verifyBeaconRound(QUICKNET, rounds[0].round, rounds[0].signature)) throw new Error('no');
    const firstMs = performance.now() - t;
    const n = 30;
    t = performance.now();
    for (let i = 0; i < n; i++) verifyBeaconRound(QUICKNET, rounds[i % rounds.length].round, rounds[i % rounds.length].signature);
    console.log(JSON.stringify({ firstMs, warmMs: (performance.now() - t) / n }));
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`verifyBeaconRound bench failed: ${run.stderr}`);
  const { firstMs, warmMs } = JSON.parse(run.stdout) as { firstMs: number; warmMs: number };
  // A round from this process too, so a broken import fails here and not only in the child.
  const [round] = rounds;
  if (!round || !verifyBeaconRound(QUICKNET, round.round, round.signature)) throw new Error('fixture round refused');
  return {
    scenario: `verify: verifyBeaconRound of a quicknet round (Node ${process.version}, fresh process)`,
    ours: `first ${firstMs.toFixed(0)} ms, then ${warmMs.toFixed(1)} ms each`,
    anchor: '—',
    ratio: '—',
    target: 'first ≤ 200 ms (decision 033)',
    met: firstMs <= 200,
    raw: { firstMs, warmMs },
  };
}

export async function verifyScenarios(): Promise<Row[]> {
  return [await proofRow(), beaconRow()];
}
