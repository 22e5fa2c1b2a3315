/**
 * `npm run bench -- witness`: what a witness costs a freeze (issue 41, decision 080). Two servers on
 * one PostgreSQL database name the same local test beacon (1 s rounds) and the same game log; one
 * also names one witness on loopback (DRAW_WITNESSES): the repository's witness, `npm run witness`,
 * in a process of its own as its operator runs it. The same shops play paced games on each in turn,
 * as the web client does (its headers, its calls): open, the entries, the first draw request — the
 * freeze, answered 202 with the round it waits for, the call measured — then, once the round
 * exists, the draws. On the witnessed server the freeze appends its leaf, sends the checkpoint to
 * the witness and waits for its cosignature; on the other it does neither.
 * Target: the witnessed freeze's p95 at most 20 ms above the unwitnessed one's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gameLogSigner } from '../packages/server/src/lib/game-log-signer.ts';
import { startTestBeacon } from '../packages/server/src/test/test-beacon.ts';
import { openWitnessFiles, trustLog } from '../packages/server/src/witness/witness-files.ts';
import { call, ENTRIES, playFor, PRIZES, SETUP, SHOPS, type Play } from './games.ts';
import { api, BROWSER_HEADERS, freshDatabase, startProcess, startServer, turnAbout, type Row } from './lib.ts';
import { accounts, ADMIN_PASSWORD } from './transfer.ts';

/** How long each side plays (each game waits about a second for its round). */
const SECONDS = Number(process.env.BENCH_WITNESS_SECONDS ?? 15);
const TARGET_MS = 20;
const LOG_KEY = 'bench-witness-log-key-that-is-long-enough-0123';
const LOG_ORIGIN = 'bench.lot.test/games';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A freeze refused (503: the witness did not cosign in time) and tried again, as the web client retries. */
type Refusals = { count: number; last: string };

/**
 * A game as the web client plays it, its freeze timed: the draw request that freezes it (answered
 * 202), then the draws once round R exists. A refused freeze (503: on a busy machine the witness
 * may not answer before the time R leaves it) is asked again after 500 ms, as the shop would; it is
 * counted, the target is not met while any is, and the freeze that stood is the one timed.
 */
function timedFreeze(server: { url: string }, refusals: Refusals): Play {
  return async (shop) => {
    const game = await call<{ id: number }>(server, 'POST', '/api/games', shop.token, SETUP);
    await call(server, 'PUT', `/api/games/${game.id}/entries`, shop.token, { entries: ENTRIES });
    let started: number;
    let response: Response;
    for (let attempt = 0; ; attempt++) {
      started = performance.now();
      response = await fetch(`${server.url}/api/games/${game.id}/draws`, {
        method: 'POST',
        headers: { ...BROWSER_HEADERS, 'content-type': 'application/json', authorization: `Bearer ${shop.token}` },
        body: JSON.stringify({ position: 1 }),
      });
      if (response.status !== 503 || attempt >= 20) break;
      refusals.count++;
      refusals.last = await response.text();
      await sleep(500);
    }
    const freezeMs = performance.now() - started;
    if (response.status !== 202) throw new Error(`freeze: ${response.status} ${await response.text()}`);
    const waiting = (await response.json()) as { expectedAt: string };
    await sleep(Math.max(0, Date.parse(waiting.expectedAt) - Date.now()) + 300);
    for (let position = 1; position <= PRIZES.length; position++)
      await call(server, 'POST', `/api/games/${game.id}/draws`, shop.token, { position });
    return [freezeMs];
  };
}

export async function witnessScenarios(pgUrl: string): Promise<Row[]> {
  const url = await freshDatabase(pgUrl, 'lot_bench_witness');
  const beacon = await startTestBeacon({ period: 1 });
  // The witness's data directory, made and told to trust the log before it starts (as its operator
  // does with `npm run witness -- trust <log vkey>`); its key is made here to name it in DRAW_WITNESSES.
  const dir = mkdtempSync(join(tmpdir(), 'lot-bench-witness-'));
  const files = openWitnessFiles(dir, 'bench-witness');
  trustLog(files, gameLogSigner(LOG_KEY, LOG_ORIGIN).vkey);
  const witness = await startProcess(
    ['packages/server/src/cli/witness-cli.ts', '--data-dir', dir, '--port', '0'],
    {},
    /listening on (http:\/\/\S+)/,
  );
  const env = {
    DATABASE_URL: url,
    ADMIN_PASSWORD,
    DRAW_BEACON: 'required',
    DRAW_BEACON_URL: beacon.url,
    DRAW_BEACON_CHAIN: beacon.chain.chainHash,
    LOG_KEY,
    LOG_ORIGIN,
  };
  const witnessed = await startServer({ ...env, DRAW_WITNESSES: `${files.cosigner.vkey}@${witness.url}` });
  const unwitnessed = await startServer(env);
  try {
    const admin = await api<{ accessToken: string }>(witnessed.url, '/api/auth/signin', null, {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    for (const prize of PRIZES) await api(witnessed.url, '/api/winners', admin.accessToken, prize);
    const { players: shops } = await accounts(witnessed, SHOPS);
    const refusals = { witnessed: { count: 0, last: '' }, unwitnessed: { count: 0, last: '' } };
    const result = await turnAbout(
      () => playFor(timedFreeze(witnessed, refusals.witnessed), shops, SECONDS),
      () => playFor(timedFreeze(unwitnessed, refusals.unwitnessed), shops, SECONDS),
      // The better run of each is the one with the lower p95.
      { ours: (r) => -r.drawP95, anchor: (r) => -r.drawP95 },
    );
    const { ours, anchor } = result;
    const gap = ours.drawP95 - anchor.drawP95;
    const refused = refusals.witnessed.count + refusals.unwitnessed.count;
    return [
      {
        scenario: `a witnessed freeze (one witness on loopback) vs an unwitnessed one (${SHOPS} shops, paced LOT-DRAW-2 games, same run)`,
        ours: `p95 ${ours.drawP95.toFixed(1)} ms (p50 ${ours.drawP50.toFixed(1)}, ${ours.games} games${refusals.witnessed.count > 0 ? `, ${refusals.witnessed.count} refused and retried` : ''})`,
        anchor: `p95 ${anchor.drawP95.toFixed(1)} ms (p50 ${anchor.drawP50.toFixed(1)}, ${anchor.games} games)`,
        ratio: `${gap >= 0 ? '+' : ''}${gap.toFixed(1)} ms`,
        target: `≤ unwitnessed + ${TARGET_MS} ms at p95`,
        met: gap <= TARGET_MS && refused === 0,
        raw: { ours, anchor, runs: result.runs, shops: SHOPS, refusals },
      },
    ];
  } finally {
    await witnessed.stop();
    await unwitnessed.stop();
    await witness.stop();
    await beacon.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
