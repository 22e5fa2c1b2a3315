import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { roundTimeMs } from '@lot/domain/beacon';
import { FREEZE_MARGIN_MS } from '@lot/domain/freeze-round';
import { formatCents } from '@lot/domain/money';
import type { GameProof } from '@lot/domain/schemas/games';
import { parseCheckpoint } from '@lot/domain/tlog/checkpoint';
import { base64Encode } from '@lot/domain/tlog/encoding';
import { leafHash, rootFromLeafHashes } from '@lot/domain/tlog/merkle';
import { parseNote } from '@lot/domain/tlog/note';
import { verifyProof } from '@lot/domain/verify';
import { verifyGameLog, type LogPins } from '@lot/domain/verify-log';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { systemClock } from '../lib/clock.ts';
import {
  compareGamesWithAuditAndLog,
  describeGamesAudit,
  describeLogRoot,
  verifyLogRoot,
} from '../modules/audit/games-audit.ts';
import {
  Chaos,
  chaosClient,
  chaosWorld,
  chooseOperation,
  describeOperation,
  killLoop,
  lostToKill,
  sleep,
  type ChaosPlayer,
  type Operation,
  type Rng,
} from '../test/chaos.ts';
import { participants } from '../test/game-fixtures.ts';
import { exitOf, freePort, startServer, type Started } from '../test/server-process.ts';
import { startTestBeacon, type TestBeacon } from '../test/test-beacon.ts';
import { freshPostgres, TEST_DB } from '../test/test-app.ts';
import { openWitnessFiles, trustLog } from '../witness/witness-files.ts';
import { startWitnessServer } from '../witness/witness-server.ts';

/**
 * Issue 10, suite 3: real server processes, many concurrent clients doing keyed
 * transfers and playing games through the game API (docs/decisions/013-the-server-runs-every-game.md)
 * as LOT-DRAW-2 (decision 033), against a test beacon of real 1 s rounds run by the test: open,
 * entries, the freeze (the shop's first draw request, answered 202 until round R exists), the waits,
 * then the draws — by the shop or, once frozen, by its agent — some sent twice at once, some asked
 * again once answered; some games voided by the agent once frozen, or discarded by the shop when it
 * cannot afford the pool; every call that got no answer retried (transfers with the same key; a draw
 * by its position, which the server answers again once drawn). Meanwhile the server is killed with
 * SIGKILL at random moments and started again. Afterwards `npm run ledger:check` must pass, every
 * acknowledged transfer must be in the ledger exactly once (its key names its one ledger row) and no
 * refused one, every acknowledged draw must be in its game exactly once with the number the client
 * was told, every game must stand as its last answer said, every frozen game must have waited for the
 * one round R all its answers named — the first after its freeze — and any draw must come from R's
 * signature as the beacon signed it (no game drew from another round), every ended game's public
 * proof must verify against the test beacon's chain, a settled game must have exactly one sales
 * record, a game in progress must hold its pool as a pending row (or nothing before its freeze),
 * and every balance must be what the acknowledged operations make it, never negative. No answer may
 * be a 5xx, and every call without an answer was sent while the server was down.
 *
 * The freezes are witnessed (decision 092): the repository's witness runs in this process and
 * outlives every server; the first process runs without it, every process after a kill names it
 * (DRAW_WITNESSES). Afterwards every frozen game's freeze is in the game log by its proof, witnessed
 * before R when a witnessed process froze it; the log's leaves hash to its final checkpoint and, at
 * the witness's size, to what the witness cosigned; no fork is recorded; and what `npm run
 * audit:verify -- --log` checks holds (game rows, their audit rows and the log's leaves agree).
 *
 * On both databases: on PGlite the killed process takes the embedded database with it, and the
 * next process opens the same data directory (README: what a killed process can lose).
 * CRASH_RESTARTS and CRASH_CLIENTS bound the run (SOAK=1 for the long one). Every choice comes from
 * the seed it prints: CHAOS_SEED replays them (test/chaos.ts).
 */

const SOAK = process.env.SOAK === '1';
/** Per-test time limit: the soak runs for many minutes. */
const LIMIT = SOAK ? 3_600_000 : 600_000;
const RESTARTS = Number(process.env.CRASH_RESTARTS ?? (SOAK ? 30 : 3));
const CLIENTS = Number(process.env.CRASH_CLIENTS ?? (SOAK ? 12 : 5));
const ADMIN_PASSWORD = 'crash-admin-password';
const USER_PASSWORD = 'crash-user-password';
/**
 * Each player starts with 100.00 (200.00 in the soak, whose storm is longer), so that some calls
 * are refused for want of money: a settled game's pool leaves the balances (prizes are paid in
 * cash), and the storm plays until the balances run low (a soak with 1,000.00 refused none).
 */
const START = SOAK ? 20_000 : 10_000;

const ledgerCli = fileURLToPath(new URL('../cli/ledger-check-cli.ts', import.meta.url));

type Transfer = { key: string; from: number; to: number; cents: number; status: number; transactionId?: number };
type GameStatus = 'open' | 'drawing' | 'settled' | 'voided' | 'discarded';
/** A game as its client knows it from the answers it got. */
type Played = {
  id: number;
  code: string;
  from: number;
  pool: number;
  /** Acknowledged draws: position → number. */
  draws: Map<number, number>;
  status: GameStatus;
  /** The beacon round every 202 answer named. */
  round?: number;
};
type GameBody = { id: number; code: string; status: GameStatus; pool: string; betAmount: string; entries: unknown[] };
type Player = ChaosPlayer;

/**
 * Where the crashed server keeps its data: a fresh PostgreSQL database, or a fresh data directory
 * for the embedded PGlite (the server opens it again after each SIGKILL). `open` opens it as a
 * command does (db/client.ts), after the server stopped.
 */
async function crashDatabase(): Promise<{
  env: Record<string, string>;
  drop: () => Promise<void>;
  open: () => Promise<Database>;
}> {
  if (TEST_DB === 'postgres') {
    const database = await freshPostgres();
    return {
      env: { DATABASE_URL: database.url },
      drop: database.drop,
      open: () => openDatabase({ kind: 'postgres', url: database.url, poolSize: 1 }),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lot-crash-'));
  return {
    env: { DATA_DIR: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
    open: () => openDatabase({ kind: 'pglite', dataDir: join(dir, 'db'), command: 'race-crash' }),
  };
}

/** A command an operator runs after the crash (ledger:check): its exit code and output. */
async function runCommand(cli: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { code: await exitOf(child), output };
}

describe(`race and crash (${TEST_DB})`, () => {
  let server: Started | undefined;
  let beacon: TestBeacon | undefined;
  let drop = async () => {};
  let stopWitness = async () => {};
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    if (server) await exitOf(server.child);
    await beacon?.close();
    await stopWitness();
    await drop();
  });

  it(
    `${CLIENTS} clients, SIGKILL and restart ${RESTARTS} times: nothing lost, nothing twice, books exact`,
    async () => {
      const database = await crashDatabase();
      drop = database.drop;
      // The beacon outlives every server: a round a game waits for comes whether or not a server runs.
      const testBeacon = await startTestBeacon({ period: 1 });
      beacon = testBeacon;
      const chain = testBeacon.chain;
      const port = await freePort();
      const env = {
        ...database.env,
        DRAW_BEACON: 'required',
        DRAW_BEACON_URL: beacon.url,
        DRAW_BEACON_CHAIN: chain.chainHash,
        JWT_SECRET: 'a-crash-test-secret-that-is-long-enough',
        TOTP_KEY: 'a-crash-test-totp-key-that-is-long-enough',
        SEED_KEY: 'a-crash-test-seed-key-that-is-long-enough',
        LOG_KEY: 'a-crash-test-log-key-that-is-long-enough--',
        ADMIN_PASSWORD,
        PORT: String(port),
        LOG_LEVEL: 'error',
      };
      const base = `http://127.0.0.1:${port}`;
      // The repository's witness (decision 080), in this process as test/witnessed-app.ts starts it,
      // dating its cosignatures by the machine's clock; like the beacon, it outlives every server.
      // The first process runs without it, as a deployment before it names witnesses; every process
      // started after a kill names it, and learns the size it cosigned from its first 409.
      const witnessDir = mkdtempSync(join(tmpdir(), 'lot-crash-witness-'));
      const witnessFiles = openWitnessFiles(witnessDir, 'crash-witness');
      const witness = await startWitnessServer({ files: witnessFiles, clock: systemClock, host: '127.0.0.1', port: 0 });
      stopWitness = async () => {
        witness.server.closeAllConnections();
        await new Promise((resolve) => witness.server.close(resolve));
        rmSync(witnessDir, { recursive: true, force: true });
      };
      const witnessedEnv = { ...env, DRAW_WITNESSES: `${witnessFiles.cosigner.vkey}@${witness.url}` };
      /** When the first witnessed process started: every freeze from then on is witnessed, none before. */
      let witnessedFrom = Infinity;
      server = await startServer(env);

      const chaos = Chaos.inTest(`race and crash (${TEST_DB})`);
      const client = chaosClient(base, chaos.stream('retries'));
      const { untilAnswered, fiveHundreds, lost } = client;
      const logInfo = (await untilAnswered('GET', '/api/log', '')).body as { origin: string; vkey: string };
      trustLog(witnessFiles, logInfo.vkey);
      const { agent, players } = await chaosWorld(client, {
        prefix: 'crash',
        adminPassword: ADMIN_PASSWORD,
        userPassword: USER_PASSWORD,
        players: CLIENTS,
        start: START,
      });

      // The storm: every client loops over transfers and games until told to stop.
      const transfers: Transfer[] = [];
      const played: Played[] = [];
      const figures = {
        draws: 0,
        doubled: 0,
        askedAgain: 0,
        refusedFirstDraws: 0,
        waits: 0,
        byAgent: 0,
        attempts: 0,
        cosignedSize: 0,
      };
      const unexpected: string[] = [];
      let stop = false;

      /** A transfer as chosen; its key is named by the seed and the operation, as a replay sends it. */
      const transfer = async (me: Player, op: Extract<Operation, { kind: 'transfer' }>, rng: Rng) => {
        const key = `chaos-${chaos.seed}-${rng.name}`;
        const to = players[op.to] as Player;
        const { cents } = op;
        const answer = await untilAnswered(
          'POST',
          '/api/balance/transfer',
          me.token,
          { receiverId: to.id, amount: formatCents(cents) },
          key,
        );
        const ok = answer.status === 200;
        if (!ok && answer.status !== 422) unexpected.push(`transfer ${answer.status} ${JSON.stringify(answer.body)}`);
        const transactionId = ok ? (answer.body.transaction as { id: number }).id : undefined;
        transfers.push({ key, from: me.id, to: to.id, cents, status: answer.status, transactionId });
      };

      /**
       * Ends a game in progress — the shop discards its open game, the agent voids a frozen one: a
       * void whose answer was lost is found ended by the retry (409) and a read.
       */
      const end = async (by: Player, game: Played) => {
        // A frozen game's draws may have named a winner: the void says it knows (decision 094).
        const answer = await untilAnswered('POST', `/api/games/${game.id}/void`, by.token, {
          reason: 'Crash test',
          afterWinner: true,
        });
        let status: unknown = (answer.body as GameBody).status;
        if (answer.status === 409) {
          const read = await untilAnswered('GET', `/api/games/${game.id}`, by.token);
          status = (read.body as GameBody).status;
        } else if (answer.status !== 200) unexpected.push(`void ${answer.status} ${JSON.stringify(answer.body)}`);
        const want = game.status === 'drawing' ? 'voided' : 'discarded';
        if (status !== want) unexpected.push(`void of a game that was ${game.status}: ${String(status)}`);
        game.status = want;
      };

      /**
       * Asks for a position until it is drawn (some requests sent twice at once): 202 while the game
       * waits for R — the first one from the shop freezes it — asked again after the time it says.
       * `askers` gives who asks each time (the shop first; once frozen, maybe its agent). Answers
       * 'drawn', 'refused' (a first draw the balance does not cover: 422), 'stopped' (the storm ended
       * while the game waited) or, asked to leave it waiting, 'waiting'.
       */
      const draw = async (
        askers: (attempt: number) => Player,
        game: Played,
        position: number,
        rng: Rng,
        leaveWaiting = false,
      ) => {
        for (let attempt = 0; ; attempt += 1) {
          const asker = askers(attempt);
          const choice = rng.fork(`draw ${position} try ${attempt}`);
          const doubled = choice.chance(0.3);
          if (doubled) figures.doubled += 1;
          const answers = await Promise.all(
            Array.from({ length: doubled ? 2 : 1 }, () =>
              untilAnswered('POST', `/api/games/${game.id}/draws`, asker.token, { position }),
            ),
          );
          let retryAfter = 0;
          for (const a of answers) {
            if (a.status === 202) {
              const round = Number(a.body.waitingForRound);
              if (game.round === undefined) game.round = round;
              else if (round !== game.round) unexpected.push(`game ${game.id} waits for ${round}, then ${game.round}`);
              game.status = 'drawing';
              figures.waits += 1;
              retryAfter = Math.max(retryAfter, Number(a.body.retryAfterMs));
            } else if (a.status !== 200 && !(a.status === 422 && position === 1 && game.status === 'open'))
              unexpected.push(`draw ${position} ${a.status} ${JSON.stringify(a.body)}`);
          }
          const drawn = answers.filter((a) => a.status === 200);
          if (drawn.length === 0) {
            if (answers.every((a) => a.status === 422)) return 'refused';
            if (stop) return 'stopped';
            if (leaveWaiting && game.status === 'drawing') return 'waiting';
            await sleep(Math.min(retryAfter, 1_500) + choice.int(0, 100));
            continue;
          }
          const numbers = new Set(drawn.map((a) => a.body.number));
          if (numbers.size !== 1)
            unexpected.push(`draw ${position} of game ${game.id} answered ${[...numbers].join(', ')}`);
          const number = Number(drawn[0]?.body.number);
          game.draws.set(position, number);
          game.status = (drawn[0]?.body.game as GameBody).status;
          figures.draws += 1;
          if (asker !== players.find((p) => p.id === game.from)) figures.byAgent += 1;
          // Asked again once answered: the same number, marked as a replay, nothing drawn.
          if (choice.chance(0.2)) {
            figures.askedAgain += 1;
            const again = await untilAnswered('POST', `/api/games/${game.id}/draws`, asker.token, { position });
            if (again.status !== 200 || !again.replayed || again.body.number !== number)
              unexpected.push(`draw ${position} asked again: ${again.status} ${JSON.stringify(again.body)}`);
          }
          return 'drawn';
        }
      };

      const play = async (me: Player, op: Extract<Operation, { kind: 'game' }>, rng: Rng) => {
        const bet = op.betCents;
        const count = op.entries.length;
        const opened = await untilAnswered('POST', '/api/games', me.token, {
          startRange: 1,
          endRange: 20,
          betAmount: formatCents(bet),
        });
        let body = opened.body as GameBody;
        if (opened.status === 409) {
          // The answer to an earlier attempt was lost: that game is ours, open and empty.
          const current = await untilAnswered('GET', '/api/games/current', me.token);
          // null (200) when the player has no game in progress: unexpected here.
          const held = current.body as GameBody | null;
          if (current.status !== 200 || held?.status !== 'open' || held.betAmount !== formatCents(bet)) {
            unexpected.push(`open 409, then current ${current.status} ${JSON.stringify(current.body)}`);
            return;
          }
          body = held;
        } else if (opened.status !== 201) {
          unexpected.push(`open ${opened.status} ${JSON.stringify(opened.body)}`);
          return;
        }
        const game: Played = {
          id: body.id,
          code: body.code,
          from: me.id,
          pool: count * bet,
          draws: new Map(),
          status: 'open',
        };
        played.push(game);
        const entered = await untilAnswered('PUT', `/api/games/${game.id}/entries`, me.token, {
          entries: participants(op.entries),
        });
        if (entered.status !== 200) unexpected.push(`entries ${entered.status} ${JSON.stringify(entered.body)}`);
        // Once frozen, one game in four is finished by the agent; one in ten is voided by it before R.
        const finisher = op.byAgent ? agent : me;
        const askers = (attempt: number) => (game.status === 'open' && attempt === 0 ? me : finisher);
        for (let position = 1; position <= 2; position += 1) {
          // Stopped mid-game: the game stays in progress, as a shop closing for the night leaves it.
          if (stop) return;
          const outcome = await draw(askers, game, position, rng, op.voidWhileWaiting);
          if (outcome === 'stopped') return;
          if (outcome === 'waiting') {
            await end(agent, game);
            return;
          }
          if (outcome === 'refused') {
            figures.refusedFirstDraws += 1;
            await end(me, game);
            return;
          }
          if (position === 1 && op.endAfterFirst) {
            await end(agent, game);
            return;
          }
        }
        if (game.status !== 'settled') unexpected.push(`game ${game.id} drawn to the end but ${game.status}`);
      };

      /** Player `i` until told to stop: each operation chosen by its own generator, and traced. */
      const storm = async (i: number) => {
        const me = players[i] as Player;
        const actor = `player-${i}`;
        while (!stop) {
          const rng = chaos.next(actor);
          const op = chooseOperation(rng, i, {
            players: players.length,
            maxCents: 3_000,
            entries: [1, 5],
            agent: true,
          });
          chaos.chose(actor, describeOperation(op));
          if (op.kind === 'transfer') await transfer(me, op, rng);
          else await play(me, op, rng);
        }
      };
      const clients = players.map((_, i) => storm(i));

      // SIGKILL at moments the seed chose, then the server started again on its data.
      const servers = [server];
      const kills = await killLoop({
        servers,
        count: RESTARTS,
        signal: 'SIGKILL',
        pause: (i) => {
          const ms = i < RESTARTS ? chaos.next('kills').int(400, 2_000) : 500;
          if (i < RESTARTS) chaos.chose('kills', `${ms} ms, then SIGKILL`);
          return ms;
        },
        start: async () => {
          witnessedFrom = Math.min(witnessedFrom, Date.now());
          return (server = await startServer(witnessedEnv));
        },
      });
      const restarts = kills.length;
      stop = true;
      await Promise.all(clients);
      // A call without an answer is one the server could not answer: sent before it listened again.
      for (const call of lost.filter((c) => !lostToKill(c, kills, 'up')))
        unexpected.push(`no answer while the server ran: ${JSON.stringify(call)}`);

      // Every ended game's public proof verifies against the test beacon's chain, pinned as a
      // verifier pins it: a voided frozen game's too, once its round is known.
      const pins = [
        {
          chainHash: chain.chainHash,
          publicKey: chain.publicKey,
          genesisTime: chain.genesisTime,
          period: chain.period,
          name: 'test beacon',
        },
      ];
      // Every frozen game's freeze is in the game log, pinned by its key; witnessed before R by the
      // pinned witness when a witnessed process froze it (pinned for a freeze by the first process,
      // it fails, as it must: a verifier who pins a witness accepts no freeze it did not cosign).
      const logOnly: LogPins = { log: logInfo.vkey, witnesses: [] };
      const withWitness: LogPins = { ...logOnly, witnesses: [witnessFiles.cosigner.vkey] };
      const proofsChecked = { verified: 0, witnessed: 0, unwitnessed: 0 };
      for (const game of played) {
        if (game.status === 'open' || game.status === 'discarded') continue;
        const proof = (await untilAnswered('GET', `/api/verify/${game.code}`, '')).body as unknown as GameProof;
        const witnessed = Date.parse(proof.frozenAt ?? '') >= witnessedFrom;
        const logPins = witnessed ? withWitness : logOnly;
        const log = verifyGameLog(proof, logPins);
        const want = { inLog: 'pass', witnessed: witnessed ? 'pass' : 'na', pinned: witnessed ? 'pass' : 'fail' };
        const got = {
          inLog: log.inLog.status,
          witnessed: log.witnessed.status,
          pinned: verifyGameLog(proof, withWitness).witnessed.status,
        };
        if (JSON.stringify(got) !== JSON.stringify(want))
          unexpected.push(
            `game log of game ${game.id} (${game.status}): ${JSON.stringify([log.inLog, log.witnessed])}`,
          );
        proofsChecked[witnessed ? 'witnessed' : 'unwitnessed'] += 1;
        if (game.status === 'drawing') continue;
        let report = await verifyProof(proof, pins, logPins);
        // A game voided before its round R was public waits for R (`pending`): asked again once R is out.
        for (let wait = 0; report.verdict === 'pending' && report.waitingFor === 'beacon' && wait < 20; wait++) {
          await sleep(500);
          const again = (await untilAnswered('GET', `/api/verify/${game.code}`, '')).body as unknown as GameProof;
          report = await verifyProof(again, pins, logPins);
        }
        if (report.verdict !== 'verified')
          unexpected.push(
            `proof of game ${game.id} (${game.status}): ${report.verdict} ${JSON.stringify(report.checks.filter((c) => !c.ok))}`,
          );
        else proofsChecked.verified += 1;
      }
      // The log's checkpoint once the storm is over, for its leaves to hash to (below).
      const checkpoint = parseCheckpoint(parseNote(await (await fetch(`${base}/log/checkpoint`)).text()).text);
      server.child.kill('SIGTERM');
      await exitOf(server.child);
      server = undefined;

      // npm run ledger:check, as an operator would run it after the crash.
      const ledgerCheck = await runCommand(ledgerCli, {
        ...database.env,
        JWT_SECRET: env.JWT_SECRET,
        TOTP_KEY: env.TOTP_KEY,
        SEED_KEY: env.SEED_KEY,
        LOG_KEY: env.LOG_KEY,
      });
      expect(ledgerCheck.code, ledgerCheck.output).toBe(0);
      expect(ledgerCheck.output).toContain('OK: every cent is accounted for.');

      const opened = await database.open();
      const db = {
        query: async <T extends object>(text: string) => ({ rows: await queryRows<T>(opened.db, sql.raw(text)) }),
      };
      const acknowledged = transfers.filter((op) => op.transactionId !== undefined);
      try {
        // What npm run audit:verify -- --log checks (decision 083): every game row agrees with its
        // game.* audit rows and the log's leaves (no event without its leaf, no leaf without its
        // event), and the leaves hash to the log's head and to the latest witnessed checkpoint stored.
        const gamesAudit = await compareGamesWithAuditAndLog(opened.db);
        expect(gamesAudit.ok, describeGamesAudit(gamesAudit).join('\n')).toBe(true);
        const logRoot = await verifyLogRoot(opened.db);
        expect(logRoot.ok, describeLogRoot(logRoot).join('\n')).toBe(true);
        const { rows: ledger } = await db.query<{
          id: number;
          type: string;
          user_id: number;
          receiver_id: number | null;
          amount: string;
          status: string;
        }>(
          `SELECT id, type, user_id, receiver_id, amount::text, status FROM transactions WHERE type IN ('transfer', 'game')`,
        );
        const { rows: keys } = await db.query<{ user_id: number; key: string; response: Record<string, unknown> }>(
          `SELECT user_id, key, response FROM idempotency_keys`,
        );
        const { rows: balances } = await db.query<{ user_id: number; amount: string }>(
          `SELECT user_id, amount::text FROM balances`,
        );
        const { rows: rounds } = await db.query<{
          id: number;
          user_id: number;
          status: string;
          draws: { number: number }[];
          transaction_id: number | null;
          sale_id: number | null;
          pool: string;
          protocol: string;
          frozen_at: string | Date | null;
          beacon_round: string | null;
          beacon_latest_round: string | null;
          beacon_signature: string | null;
          log_index: string | null;
        }>(
          `SELECT id, user_id, status, draws, transaction_id, sale_id, (bet_amount * jsonb_array_length(entries))::text AS pool,
             protocol, frozen_at, beacon_round::text, beacon_latest_round::text, beacon_signature, log_index::text FROM game_rounds`,
        );
        const { rows: leaves } = await db.query<{
          idx: string;
          game_id: number;
          kind: string;
          data: string;
          attempt: boolean;
        }>(
          `SELECT idx::text, game_id, kind, encode(data, 'hex') AS data, attempt FROM game_log_entries ORDER BY game_log_entries.idx`,
        );
        const { rows: logRows } = await db.query<{ forked_reason: string | null }>(
          `SELECT forked_reason FROM game_log`,
        );
        const { rows: sales } = await db.query<{ id: number; transaction_id: number; user_id: number; pool: string }>(
          `SELECT id, transaction_id, user_id, pool::text FROM games`,
        );
        const keyRow = new Map(keys.map((row) => [`${row.user_id}/${row.key}`, row.response]));
        const rowById = new Map(ledger.map((row) => [Number(row.id), row]));
        const refused = transfers.filter((op) => op.transactionId === undefined);

        // No acknowledged transfer is lost: its key holds the answer the client got, naming a ledger row that matches it.
        for (const op of acknowledged) {
          const stored = keyRow.get(`${op.from}/${op.key}`);
          expect(stored, `key of ${JSON.stringify(op)}`).toBeDefined();
          expect(Number((stored?.transaction as { id: number }).id)).toBe(op.transactionId);
          const row = rowById.get(op.transactionId ?? 0);
          expect(row, `ledger row of ${JSON.stringify(op)}`).toBeDefined();
          expect({
            type: row?.type,
            from: Number(row?.user_id),
            to: Number(row?.receiver_id),
            amount: Number(row?.amount),
          }).toEqual({ type: 'transfer', from: op.from, to: op.to, amount: op.cents });
        }
        // None is applied twice: every transfer row of the storm is exactly one acknowledged transfer.
        expect(ledger.filter((row) => row.type === 'transfer').length).toBe(acknowledged.length);
        expect(new Set(acknowledged.map((op) => op.transactionId)).size).toBe(acknowledged.length);
        // A refused transfer left neither a key nor a row.
        for (const op of refused) expect(keyRow.has(`${op.from}/${op.key}`), JSON.stringify(op)).toBe(false);

        // Every game stands as its client was last told, with every acknowledged draw exactly once.
        const roundById = new Map(rounds.map((row) => [Number(row.id), row]));
        expect(rounds.map((row) => Number(row.id)).sort((a, b) => a - b)).toEqual(
          played.map((game) => game.id).sort((a, b) => a - b),
        );
        const heldStatus: Partial<Record<string, string>> = {
          drawing: 'pending',
          settled: 'completed',
          voided: 'voided',
        };
        for (const game of played) {
          const round = roundById.get(game.id);
          const where = `game ${game.id} ${JSON.stringify({ ...game, draws: [...game.draws] })}`;
          expect({ user: Number(round?.user_id), status: round?.status, pool: Number(round?.pool) }, where).toEqual({
            user: game.from,
            status: game.status,
            pool: game.pool,
          });
          const numbers = (round?.draws ?? []).map((d) => d.number);
          expect(numbers.length, where).toBe(game.draws.size);
          // LOT-DRAW-2: frozen once, waiting for the one round all its answers named — the first
          // after the freeze — and any draw made from that round as the beacon signed it.
          expect(round?.protocol, where).toBe('LOT-DRAW-2');
          if (game.status === 'open' || game.status === 'discarded') {
            expect({ frozen: round?.frozen_at, round: round?.beacon_round }, where).toEqual({
              frozen: null,
              round: null,
            });
          } else {
            // R after L, the latest public round at the freeze, and published after the freeze
            // (decision 076): at least the margin after L + 1, more when the relays were slow.
            const frozenAt = new Date(round?.frozen_at ?? NaN).getTime();
            const named = Number(round?.beacon_round);
            const latest = Number(round?.beacon_latest_round);
            expect(latest, where).toBeLessThan(named);
            expect(roundTimeMs(chain, named), where).toBeGreaterThan(frozenAt);
            expect(roundTimeMs(chain, named), where).toBeGreaterThanOrEqual(
              roundTimeMs(chain, latest + 1) + FREEZE_MARGIN_MS,
            );
            if (game.round !== undefined) expect(named, where).toBe(game.round);
            if (numbers.length > 0 || round?.beacon_signature !== null)
              expect(round?.beacon_signature, where).toBe(testBeacon.sign(named).signature);
          }
          for (const [position, number] of game.draws) expect(numbers[position - 1], where).toBe(number);
          expect(new Set(numbers).size, where).toBe(numbers.length);
          // The pool is held from the first draw on, by one ledger row of the game's status; nothing before.
          const held = round?.transaction_id === null ? undefined : rowById.get(Number(round?.transaction_id));
          const want = heldStatus[game.status];
          if (want === undefined) expect(round?.transaction_id, where).toBeNull();
          else
            expect(
              { type: held?.type, user: Number(held?.user_id), amount: Number(held?.amount), status: held?.status },
              where,
            ).toEqual({
              type: 'game',
              user: game.from,
              amount: game.pool,
              status: want,
            });
          // A settled game has exactly one sales record, the one it names; no other game has any.
          const records = sales.filter((sale) => Number(sale.transaction_id) === Number(round?.transaction_id));
          if (game.status === 'settled') {
            expect(
              records.map((sale) => Number(sale.id)),
              where,
            ).toEqual([Number(round?.sale_id)]);
            expect(Number(records[0]?.pool), where).toBe(game.pool);
          } else {
            expect(records, where).toEqual([]);
            expect(round?.sale_id, where).toBeNull();
          }
        }
        const holds = played.filter((game) => heldStatus[game.status] !== undefined);
        expect(ledger.filter((row) => row.type === 'game').length).toBe(holds.length);
        expect(sales.length).toBe(played.filter((game) => game.status === 'settled').length);

        // The game log: never forked; a witnessed freeze names its frozen leaf, one that stood; the
        // leaves, hashed again, give the root the witness cosigned at its size and the final
        // checkpoint's at its size, so that checkpoint extends what the witness cosigned.
        expect(logRows.map((row) => row.forked_reason)).toEqual([null]);
        expect(leaves.map((leaf) => Number(leaf.idx))).toEqual(leaves.map((_, i) => i));
        for (const row of rounds) {
          if (row.frozen_at === null || new Date(row.frozen_at).getTime() < witnessedFrom) continue;
          const leaf = row.log_index === null ? undefined : leaves[Number(row.log_index)];
          expect({ game: leaf?.game_id, kind: leaf?.kind, attempt: leaf?.attempt }, `game ${row.id}`).toEqual({
            game: Number(row.id),
            kind: 'frozen',
            attempt: false,
          });
        }
        const hashes = leaves.map((leaf) => leafHash(Buffer.from(leaf.data, 'hex')));
        const rootOf = (size: number) => base64Encode(rootFromLeafHashes(hashes.slice(0, size)));
        expect({ size: hashes.length, root: rootOf(hashes.length) }).toEqual({
          size: checkpoint.size,
          root: base64Encode(checkpoint.rootHash),
        });
        const cosigned = witnessFiles.state[logInfo.origin];
        if (proofsChecked.witnessed > 0) expect(cosigned, 'what the witness cosigned').toBeDefined();
        if (cosigned) expect(rootOf(cosigned.size), `the witness's size ${cosigned.size}`).toBe(cosigned.rootHash);
        figures.attempts = leaves.filter((leaf) => leaf.attempt).length;
        figures.cosignedSize = cosigned?.size ?? 0;

        // Every balance is what the acknowledged operations make it, and none is negative.
        const expected = new Map(players.map((p) => [p.id, START]));
        for (const op of acknowledged) {
          expected.set(op.from, (expected.get(op.from) ?? 0) - op.cents);
          expected.set(op.to, (expected.get(op.to) ?? 0) + op.cents);
        }
        for (const game of played)
          if (game.status === 'drawing' || game.status === 'settled')
            expected.set(game.from, (expected.get(game.from) ?? 0) - game.pool);
        const actual = new Map(balances.map((row) => [Number(row.user_id), Number(row.amount)]));
        for (const player of players)
          expect(actual.get(player.id), `player ${player.id}`).toBe(expected.get(player.id));
        expect(balances.filter((row) => Number(row.amount) < 0)).toEqual([]);
      } finally {
        await opened.close();
      }

      const ended = (status: GameStatus) => played.filter((game) => game.status === status).length;
      console.log(
        `race and crash (${TEST_DB}): ${restarts} restarts after SIGKILL survived; ${CLIENTS} clients; ` +
          `transfers ${acknowledged.length} acknowledged, ${transfers.length - acknowledged.length} refused (422); ` +
          `games ${played.length}: ${ended('settled')} settled, ${ended('voided')} voided, ${ended('discarded')} discarded ` +
          `(${figures.refusedFirstDraws} for want of money), ${ended('drawing') + ended('open')} left in progress; ` +
          `${figures.waits} answers waiting for a round; ${figures.draws} draws acknowledged (${figures.byAgent} by the agent), ` +
          `${figures.doubled} requests sent twice at once, ${figures.askedAgain} asked again; ` +
          `${proofsChecked.verified} proofs verified; freezes in the game log: ${proofsChecked.witnessed} witnessed, ` +
          `${proofsChecked.unwitnessed} before the witness, ${figures.attempts} attempts that did not stand; ` +
          `the witness cosigned ${figures.cosignedSize} leaves`,
      );
      expect(unexpected).toEqual([]);
      expect(fiveHundreds, 'answers with a 5xx status').toEqual([]);
      // Enough happened around the restarts: acknowledged transfers, games opened and draws.
      expect(acknowledged.length + played.length + figures.draws).toBeGreaterThan(RESTARTS * 5);
    },
    LIMIT,
  );
});
