import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { roundTimeMs } from '@lot/domain/beacon';
import type { Notifications } from '@lot/domain/schemas/notifications';
import { verifyCosignature } from '@lot/domain/tlog/cosignature';
import { rootRefs } from '@lot/domain/tlog/merkle';
import { ed25519NoteVerifier, parseNote, verifyNote } from '@lot/domain/tlog/note';
import { verifyGameLog } from '@lot/domain/verify-log';
import { queryRows } from '../../db/client.ts';
import { rootOf } from '../../lib/game-log.ts';
import { gameLogSigner } from '../../lib/game-log-signer.ts';
import { submitCheckpoint } from '../../lib/witness-client.ts';
import { consistencyProofOf } from '../log/log-proofs.ts';
import { readLogHead } from '../log/log.repository.ts';
import type { WitnessFiles } from '../../witness/witness-files.ts';
import { configureWinners, drawCall, openGame, proofOf, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { balanceOf, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';
import { witnessedApp, type WitnessedApp } from '../../test/witnessed-app.ts';
import { WITNESS_TIMEOUT_MS } from './witness-rounds.ts';

/**
 * The witnessed freeze (decision 080) against the repository's own witness (server/src/witness),
 * in this process on 127.0.0.1 with its own clock: a freeze stands only once it cosigned, in time;
 * a witness down, slow, late or refusing is a 503 with nothing held; a log restored from an older
 * backup is refused by the witness (422), and every freeze after it, with the cause named.
 */

type Mode = 'pass' | 'down' | 'slow' | 'refuse' | 'held' | 'moving';
let mode: Mode = 'pass';
/** How far the witness's clock is ahead of the app's. */
let witnessSkewMs = 0;
let witnessed: WitnessedApp;
let t: TestApp;
let h: Hierarchy;
let files: WitnessFiles;
let dir: string;
let url: string;
let logInfo: WitnessedApp['logInfo'];
/** 'held': the first request waits at the witness until the test lets it through. */
let held: { first?: () => void; came: () => void } | null = null;
/** How many add-checkpoint requests reached the witness. */
let requests = 0;
/** 'moving': the sizes the next 409s name before the witness answers itself, as freezes elsewhere move it. */
let moves: number[] = [];
let justAfterARound: WitnessedApp['justAfterARound'];

beforeAll(async () => {
  witnessed = await witnessedApp('witness.test/one', {
    skewMs: () => witnessSkewMs,
    serve: (handle) => (request, response) => {
      requests++;
      if (mode === 'down') return request.socket.destroy();
      if (mode === 'refuse') return response.writeHead(403).end('not today\n');
      // Slower than the server waits for any witness (R is at least the freeze margin away, decision 076).
      if (mode === 'slow') return void setTimeout(() => handle(request, response), WITNESS_TIMEOUT_MS + 500);
      const moved = mode === 'moving' ? moves.shift() : undefined;
      if (moved !== undefined) return response.writeHead(409, { 'content-type': 'text/x.tlog.size' }).end(`${moved}\n`);
      if (mode === 'held' && held && !held.first) {
        held.first = () => handle(request, response);
        return held.came();
      }
      handle(request, response);
    },
  });
  ({ t, files, dir, url, logInfo, justAfterARound } = witnessed);
  h = await buildHierarchy(t);
  for (const member of [h.U1, h.U2, h.U3, h.U4, h.U5]) {
    await configureWinners(t, member.id, [{ percent: '50', position: 1, name: 'First' }]);
    await fund(t, member.id, '1000.00');
  }
});
afterAll(() => witnessed?.close());

type Row = { status: string; log_index: string | null; log_checkpoint: string | null; beacon_round: string | null };
const gameRow = async (id: number) =>
  (
    await queryRows<Row>(
      t.database.db,
      sql`SELECT status, log_index, log_checkpoint, beacon_round FROM game_rounds WHERE id = ${id}`,
    )
  )[0];
const frozenLeaves = (id: number) =>
  queryRows<{ idx: string; attempt: boolean }>(
    t.database.db,
    sql`SELECT idx, attempt FROM game_log_entries WHERE game_id = ${id} AND kind = 'frozen' ORDER BY idx`,
  );
const poolsOf = async (userId: number) =>
  Number(
    (
      await queryRows<{ n: string }>(
        t.database.db,
        sql`SELECT count(*) AS n FROM transactions WHERE type = 'game' AND user_id = ${userId}`,
      )
    )[0]?.n,
  );

async function freezeWitnessed(member: Member) {
  const game = await openGame(t, member, { numbers: [1, 2, 3] });
  justAfterARound();
  return { game, response: await drawCall(t, member.token, game.id, 1) };
}

describe('a freeze with a witness configured', () => {
  it('stands once the witness cosigned it by its own clock, 1 s or more before round R', async () => {
    const { game, response } = await freezeWitnessed(h.U1);
    expectStatus(response, 202);
    const row = await gameRow(game.id);
    expect(row?.status).toBe('drawing');
    const [leaf] = await frozenLeaves(game.id);
    expect(Number(row?.log_index)).toBe(Number(leaf?.idx));
    expect(leaf?.attempt).toBe(false);
    // The cosigned checkpoint: the log's signature and the witness's cosignature, on a size that holds the leaf.
    const note = row?.log_checkpoint ?? '';
    const info = await logInfo();
    expect(verifyNote(note, [ed25519NoteVerifier(info.vkey)]).ok).toBe(true);
    const { text, signatures } = parseNote(note);
    const [origin, size] = text.split('\n');
    expect(origin).toBe(info.origin);
    expect(Number(size)).toBeGreaterThan(Number(leaf?.idx));
    const cosigned = signatures.map((s) => verifyCosignature(s, text, files.cosigner.vkey)).find((c) => c !== null);
    expect(cosigned).toBeTruthy();
    const due = roundTimeMs(t.beacon!.chain, Number(row?.beacon_round));
    expect((cosigned?.timestamp ?? Infinity) * 1000 + 1000).toBeLessThanOrEqual(due);
    // The witness keeps that size as the log's latest.
    expect(files.state[info.origin]?.size).toBe(Number(size));
    expectStatus(await voidCall(t, t.adminToken, game.id, 'Test over'), 200);
  });

  for (const [failure, setUp, says] of [
    ['down', () => (mode = 'down'), /witness\.test\/one unreachable/],
    ['slow', () => (mode = 'slow'), /witness\.test\/one no answer within \d+ ms/],
    ['refusing', () => (mode = 'refuse'), /witness\.test\/one answered 403: not today/],
    ['late (its clock after R)', () => (witnessSkewMs = 10_000), /less than 1 s before round R/],
  ] as const) {
    it(`a witness ${failure}: 503 naming it, nothing held, the game open, its leaf an attempt; then it freezes`, async () => {
      const balance = await balanceOf(t, h.U2.id);
      const pools = await poolsOf(h.U2.id);
      setUp();
      let game;
      try {
        const attempt = await freezeWitnessed(h.U2);
        game = attempt.game;
        expectStatus(attempt.response, 503);
        expect(attempt.response.json<{ message: string }>().message).toMatch(says);
        expect(attempt.response.json<{ message: string }>().message).toMatch(/Nothing was held/);
      } finally {
        mode = 'pass';
        witnessSkewMs = 0;
      }
      expect((await gameRow(game.id))?.status).toBe('open');
      expect(await balanceOf(t, h.U2.id)).toBe(balance);
      expect(await poolsOf(h.U2.id)).toBe(pools);
      expect((await frozenLeaves(game.id)).map((l) => l.attempt)).toEqual([true]);
      // The witness back (a slow one cosigned late: the 409 it answers now is followed once). A
      // witness never dates a cosignature before its last one: past the late one's time first.
      t.advanceClock(11_000);
      justAfterARound();
      expectStatus(await drawCall(t, h.U2.token, game.id, 1), 202);
      expect((await frozenLeaves(game.id)).map((l) => l.attempt)).toEqual([true, false]);
      expectStatus(await voidCall(t, t.adminToken, game.id, 'Test over'), 200);
    });
  }
});

/** Holds the witness's next request until `release`; `came` once it is there. */
function hold(): { came: Promise<void>; release: () => void } {
  const came = new Promise<void>((resolve) => (held = { came: resolve }));
  mode = 'held';
  return {
    came,
    release: () => {
      const first = held?.first;
      held = null;
      mode = 'pass';
      first?.();
    },
  };
}

const sizeOf = (note: string | null | undefined) => Number(parseNote(note ?? '').text.split('\n')[1]);

describe('freezes at once in one process (decision 093)', () => {
  it('share rounds: those after the first wait for its round, then one checkpoint holding both leaves is cosigned for both', async () => {
    const games = [
      await openGame(t, h.U1, { numbers: [1, 2, 3] }),
      await openGame(t, h.U2, { numbers: [1, 2, 3] }),
      await openGame(t, h.U3, { numbers: [1, 2, 3] }),
    ] as const;
    justAfterARound();
    const { came, release } = hold();
    const before = requests;
    let answers;
    try {
      const first = drawCall(t, h.U1.token, games[0].id, 1);
      await came;
      // Two more freezes while the first one's round is at the witness: their leaves appended, they wait.
      const others = [drawCall(t, h.U2.token, games[1].id, 1), drawCall(t, h.U3.token, games[2].id, 1)];
      await vi.waitFor(
        async () => expect((await frozenLeaves(games[1].id)).length + (await frozenLeaves(games[2].id)).length).toBe(2),
        { interval: 5 },
      );
      expect(requests - before).toBe(1);
      release();
      answers = [await first, ...(await Promise.all(others))];
    } finally {
      release();
    }
    for (const answer of answers) expectStatus(answer, 202);
    // Two requests in all: the first freeze's checkpoint, then one that holds both later leaves.
    expect(requests - before).toBe(2);
    const rows = await Promise.all(games.map((g) => gameRow(g.id)));
    const [a, b, c] = rows.map((r) => ({ index: Number(r?.log_index), checkpoint: r?.log_checkpoint ?? '' }));
    expect(sizeOf(a!.checkpoint)).toBe(a!.index + 1);
    expect(b!.checkpoint).toBe(c!.checkpoint);
    expect(sizeOf(b!.checkpoint)).toBe(Math.max(b!.index, c!.index) + 1);
    // The freeze whose leaf is not the checkpoint's last: its proof leads to that checkpoint's root,
    // and the verifier counts the witness's cosignature of it.
    const info = await logInfo();
    const earlier = b!.index < c!.index ? games[1] : games[2];
    const report = verifyGameLog(await proofOf(t, earlier.code), { log: info.vkey, witnesses: [files.cosigner.vkey] });
    expect(report.inLog.status).toBe('pass');
    expect(report.inLog.detail).toMatch(new RegExp(`in the tree of ${sizeOf(b!.checkpoint)} leaves`));
    expect(report.witnessed.status).toBe('pass');
    for (const game of games) expectStatus(await voidCall(t, t.adminToken, game.id, 'Test over'), 200);
  });
});

describe('a freeze overtaken at the witness by another process', () => {
  it("stands on the log's latest checkpoint, asked again: the later size is not taken for a fork", async () => {
    const game = await openGame(t, h.U4, { numbers: [1, 2, 3] });
    justAfterARound();
    const { came, release } = hold();
    let freeze;
    let latest: number;
    let opened;
    try {
      freeze = drawCall(t, h.U4.token, game.id, 1);
      await came;
      // Another process on the database: a game opened (a leaf), the log's checkpoint then cosigned.
      opened = await openGame(t, h.U5, { numbers: [1, 2, 3] });
      const info = await logInfo();
      const head = await readLogHead(t.database.db);
      latest = head.size;
      const oldSize = files.state[info.origin]?.size ?? 0;
      const note = gameLogSigner(t.logKey, info.origin).signCheckpoint(head.size, rootOf(head));
      const other = await submitCheckpoint(
        { vkey: files.cosigner.vkey, url, name: files.cosigner.name },
        {
          oldSize,
          proof: await consistencyProofOf(t.database.db, oldSize, head.size),
          signedCheckpoint: note,
          checkpointText: note.slice(0, note.indexOf('\n\n') + 1),
        },
        WITNESS_TIMEOUT_MS,
      );
      expect(other.kind).toBe('cosigned');
    } finally {
      release();
    }
    // The held request is answered 409 with a size above its checkpoint's: a later checkpoint of
    // this log. The freeze is asked again from the log's latest and stands on it.
    expectStatus(await freeze, 202);
    const row = await gameRow(game.id);
    expect(Number(row?.log_index)).toBeLessThan(latest);
    expect(sizeOf(row?.log_checkpoint)).toBe(latest);
    const [log] = await queryRows<{ forked_at: string | null }>(t.database.db, sql`SELECT forked_at FROM game_log`);
    expect(log?.forked_at).toBeNull();
    for (const id of [game.id, opened.id]) expectStatus(await voidCall(t, t.adminToken, id, 'Test over'), 200);
  });
});

describe('a witness whose size other freezes keep moving', () => {
  it('is sent the checkpoint again from each size its 409 names, up to 4 sends: the freeze stands', async () => {
    const game = await openGame(t, h.U4, { numbers: [1, 2, 3] });
    justAfterARound();
    // Two 409s naming sizes below the checkpoint's (another freeze moved it each time), then the
    // witness's own 409 from the last size named, then its cosignature.
    moves = [1, 2];
    mode = 'moving';
    try {
      expectStatus(await drawCall(t, h.U4.token, game.id, 1), 202);
    } finally {
      mode = 'pass';
      moves = [];
    }
    expect((await frozenLeaves(game.id)).map((l) => l.attempt)).toEqual([false]);
    expectStatus(await voidCall(t, t.adminToken, game.id, 'Test over'), 200);
  });
});

describe('a database restored from an older backup', () => {
  it('is refused by the witness (422): every freeze refused, the cause named, the admin told', async () => {
    const { game } = await freezeWitnessed(h.U3).then(async (first) => {
      expectStatus(first.response, 202);
      return first;
    });
    expectStatus(await voidCall(t, t.adminToken, game.id, 'Test over'), 200);
    const cosigned = files.state[(await logInfo()).origin]?.size ?? 0;
    // The log as an older backup had it: the last leaves gone.
    const kept = cosigned - 3;
    await t.database.db.execute(sql`DELETE FROM game_log_entries WHERE idx >= ${kept}`);
    await t.database.db.execute(sql`DELETE FROM game_log_hashes WHERE (idx + 1) * (2 ^ level)::bigint > ${kept}`);
    const edge = await queryRows<{ hash: string }>(
      t.database.db,
      sql`SELECT encode(h.hash, 'hex') AS hash FROM jsonb_to_recordset(${JSON.stringify(rootRefs(kept))}::jsonb)
        AS r(level int, index bigint) JOIN game_log_hashes h ON h.level = r.level AND h.idx = r.index ORDER BY r.level DESC`,
    );
    await t.database.db.execute(
      sql`UPDATE game_log SET size = ${kept}, edge = decode(${edge.map((e) => e.hash).join('')}, 'hex') WHERE id = 1`,
    );
    // New games after the restore: the log grows past what the witness saw, with other leaves.
    await openGame(t, h.U5, { numbers: [4] });
    await openGame(t, h.U1, { numbers: [4] });
    const refused = await freezeWitnessed(h.U4);
    // The log now holds more leaves than the witness cosigned, not the same ones: it answered 422.
    expect(
      Number((await queryRows<{ size: string }>(t.database.db, sql`SELECT size FROM game_log`))[0]?.size),
    ).toBeGreaterThan(cosigned);
    expectStatus(refused.response, 503);
    const message = refused.response.json<{ message: string }>().message;
    expect(message).toMatch(/^Freezes are refused: witness witness\.test\/one refused the game log/);
    expect(message).toMatch(/a new LOG_ORIGIN/);
    expect((await gameRow(refused.game.id))?.status).toBe('open');
    // The witness answered 422 and kept the log's signed request as evidence of the fork.
    expect(existsSync(join(dir, 'evidence')) && readdirSync(join(dir, 'evidence'))).toHaveLength(1);
    // Every freeze from then on, without asking the witness.
    justAfterARound();
    const again = await drawCall(t, h.U4.token, refused.game.id, 1);
    expectStatus(again, 503);
    expect(again.json<{ message: string }>().message).toMatch(/^Freezes are refused: witness witness\.test\/one/);
    const metrics = await t.request(null, { method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(metrics.body).toMatch(/^lot_game_log_forked 1$/m);
    const bell = await t.request(t.adminToken, { method: 'GET', url: '/api/notifications' });
    expectStatus(bell, 200);
    const [first] = bell.json<Notifications>().items;
    expect(first).toMatchObject({ kind: 'logForked' });
    expect(first?.kind === 'logForked' && first.reason).toMatch(/^witness witness\.test\/one refused the game log/);
  });
});
