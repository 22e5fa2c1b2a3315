import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endedLeafOf,
  frozenLeafOf,
  gameLogLeafText,
  openedLeafOf,
  outcomeText,
  type EndedLeaf,
  type GameLogLeaf,
} from '@lot/domain/game-log';
import { nodeDrawCrypto } from '../../lib/draw-crypto.ts';
import type { GameLogInfo } from '@lot/domain/schemas/log';
import { parseCheckpoint } from '@lot/domain/tlog/checkpoint';
import { ed25519NoteVerifier, parseNote, verifyNote } from '@lot/domain/tlog/note';
import { IN_LOG, NO_COSIGNATURE, NOT_WITNESSED, verifyGameLog, type LogPins } from '@lot/domain/verify-log';
import { rootFromLeafHashes, leafHash } from '@lot/domain/tlog/merkle';
import { buildApp } from '../../app.ts';
import { queryRows } from '../../db/client.ts';
import { appendGameLeaves, planAppend, rootOf, type LogHead } from '../../lib/game-log.ts';
import { gameLogSigner } from '../../lib/game-log-signer.ts';
import { KeyMismatch } from '../../lib/key-canaries.ts';
import { configureWinners, drawAll, drawCall, freeze, openGame, proofOf, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * The game log (docs/lot-draw-2.md#the-game-log, decision 081): every game event appends its leaf
 * in its own transaction, and anyone reads the log as C2SP tlog-tiles — checked here by a client
 * written from the specs alone (SHA-256 from node:crypto, RFC 6962's MTH by its recursion).
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  for (const member of [h.U1, h.U2, h.U3]) {
    await configureWinners(t, member.id, [
      { percent: '50', position: 1, name: 'First' },
      { percent: '20', position: 2, name: 'Second' },
    ]);
    await fund(t, member.id, '1000.00');
  }
});
afterAll(() => t.close());

type EntryRow = { idx: string | number; game_id: number; kind: string; data: Uint8Array | string };
const text = (data: Uint8Array | string) =>
  typeof data === 'string' ? Buffer.from(data.slice(2), 'hex').toString('utf8') : Buffer.from(data).toString('utf8');
const leavesOf = async (gameId: number) =>
  (
    await queryRows<EntryRow>(
      t.database.db,
      sql`SELECT idx, game_id, kind, data FROM game_log_entries WHERE game_id = ${gameId} ORDER BY idx`,
    )
  ).map((row) => ({ idx: Number(row.idx), kind: row.kind, text: text(row.data) }));
const logSize = async () =>
  Number((await queryRows<{ size: string }>(t.database.db, sql`SELECT size FROM game_log`))[0]?.size);
const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

describe('every game event appends its leaf', () => {
  it('opened, frozen and settled: the exact texts the proof implies, in order', async () => {
    const game = await openGame(t, h.U1, { numbers: [1, 2, 3, 4] });
    const waiting = await freeze(t, h.U1.token, game.id);
    expect(waiting.waitingForRound).toBeGreaterThan(0);
    const settled = await drawAll(t, h.U1, game);
    expect(settled.status).toBe('settled');
    const proof = await proofOf(t, game.code);
    const chain = proof.beacon?.chainHash ?? '';
    const expected = [openedLeafOf(proof), frozenLeafOf(proof), await endedLeafOf(proof, nodeDrawCrypto)];
    expect(expected[2]).toMatchObject({ event: 'settled', seed: proof.serverSeed });
    expect((expected[2] as EndedLeaf).outcome).toBe(
      sha256Hex(
        outcomeText(
          'settled',
          proof.draws.map((d) => d.number),
        ),
      ),
    );
    const leaves = await leavesOf(game.id);
    expect(leaves.map((leaf) => leaf.text)).toEqual(expected.map(gameLogLeafText));
    expect(leaves.map((leaf) => leaf.kind)).toEqual(['opened', 'frozen', 'settled']);
    expect(leaves[0]?.text).toBe(
      `lot-game-log/v1\nevent opened\ncode ${game.code}\nprotocol LOT-DRAW-2\ncommitment ${proof.commitment}\nchain ${chain}\n`,
    );
  });

  it('a void after the freeze and a discard before it: each ends with its outcome and the seed', async () => {
    const frozen = await openGame(t, h.U2, { numbers: [1, 2, 3] });
    await freeze(t, h.U2.token, frozen.id);
    expectStatus(await voidCall(t, h.A1.token, frozen.id, 'Power cut'), 200);
    const discarded = await openGame(t, h.U3, { numbers: [5] });
    expectStatus(await voidCall(t, h.U3.token, discarded.id, 'Wrong range'), 200);
    for (const [game, event] of [
      [frozen, 'voided'],
      [discarded, 'discarded'],
    ] as const) {
      const proof = await proofOf(t, game.code);
      const leaves = await leavesOf(game.id);
      expect(leaves.map((leaf) => leaf.kind)).toEqual(
        event === 'voided' ? ['opened', 'frozen', event] : ['opened', event],
      );
      expect(leaves.at(-1)?.text).toBe(
        gameLogLeafText({
          event,
          code: game.code,
          outcome: sha256Hex(outcomeText(event, [])),
          seed: proof.serverSeed ?? '',
        }),
      );
    }
  });

  it('an event refused writes no leaf: a second game in progress, a freeze the balance does not cover', async () => {
    const open = await openGame(t, h.U1, { numbers: [1, 2] });
    const before = await logSize();
    const second = await t.request(h.U1.token, {
      method: 'POST',
      url: '/api/games',
      payload: { startRange: 1, endRange: 20, betAmount: '10.00' },
    });
    expectStatus(second, 409);
    expect(await logSize()).toBe(before);
    // The balance no longer covers the pool: the freeze is refused, and writes nothing.
    await t.database.db.execute(sql`UPDATE balances SET amount = 0 WHERE user_id = ${h.U1.id}`);
    const refused = await drawCall(t, h.U1.token, open.id, 1);
    expectStatus(refused, 422);
    expect(await logSize()).toBe(before);
    expect((await leavesOf(open.id)).map((leaf) => leaf.kind)).toEqual(['opened']);
    await fund(t, h.U1.id, '1000.00');
    expectStatus(await voidCall(t, h.U1.token, open.id, 'Closing'), 200);
  });

  it('concurrent appends take their turns: every leaf once, in one tree whose root the head keeps', async () => {
    const before = await logSize();
    const leaf = (i: number): GameLogLeaf => ({
      event: 'discarded',
      code: `concurrent-${i}`,
      outcome: '00',
      seed: '00',
    });
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => t.database.db.transaction((tx) => appendGameLeaves(tx, -1, [leaf(i)]))),
    );
    expect(await logSize()).toBe(before + 16);
    const all = await queryRows<EntryRow>(t.database.db, sql`SELECT idx, data FROM game_log_entries ORDER BY idx`);
    expect(all.map((row) => Number(row.idx))).toEqual(Array.from({ length: before + 16 }, (_, i) => i));
    const codes = all.slice(before).map((row) => /code (\S+)/.exec(text(row.data))?.[1]);
    expect(new Set(codes).size).toBe(16);
    const info = await logInfo();
    const { rootHash } = parseCheckpoint(info.checkpoint.slice(0, info.checkpoint.indexOf('\n\n') + 1));
    expect(Buffer.from(rootHash).toString('hex')).toBe(
      Buffer.from(rootFromLeafHashes(all.map((row) => leafHash(bytes(row.data))))).toString('hex'),
    );
  });
});

const bytes = (data: Uint8Array | string) =>
  typeof data === 'string' ? new Uint8Array(Buffer.from(data.slice(2), 'hex')) : new Uint8Array(data);

async function logInfo(): Promise<GameLogInfo> {
  const response = await t.request(null, { method: 'GET', url: '/api/log' });
  expectStatus(response, 200);
  return response.json<GameLogInfo>();
}

/** The client, from C2SP tlog-tiles, tlog-checkpoint and RFC 6962 alone. */
const spec = {
  sha256: (...parts: Uint8Array[]) => new Uint8Array(createHash('sha256').update(Buffer.concat(parts)).digest()),
  mth(hashes: Uint8Array[]): Uint8Array {
    if (hashes.length === 1) return hashes[0]!;
    let k = 1;
    while (k * 2 < hashes.length) k *= 2;
    return spec.sha256(new Uint8Array([1]), spec.mth(hashes.slice(0, k)), spec.mth(hashes.slice(k)));
  },
  /** N in 3-digit groups, all but the last prefixed with x. */
  index(n: number): string {
    const groups = [];
    do {
      groups.unshift(String(n % 1000).padStart(3, '0'));
      n = Math.floor(n / 1000);
    } while (n > 0);
    return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
  },
  path: (level: string, n: number, width: number) =>
    `/log/tile/${level}/${spec.index(n)}${width < 256 ? `.p/${width}` : ''}`,
};

describe("a game's proof carries its freeze in the log", () => {
  it('the frozen leaf, its index and an inclusion proof in a checkpoint the log key signed; none while open', async () => {
    const game = await openGame(t, h.U2, { numbers: [3, 4, 5] });
    expect((await proofOf(t, game.code)).log).toBeUndefined();
    await freeze(t, h.U2.token, game.id);
    const info = await logInfo();
    const proof = await proofOf(t, game.code);
    const [frozen] = (await leavesOf(game.id)).filter((l) => l.kind === 'frozen');
    expect(proof.log).toMatchObject({
      origin: info.origin,
      freeze: { index: frozen!.idx, data: gameLogLeafText(frozenLeafOf(proof)) },
    });
    const pins: LogPins = { log: info.vkey, witnesses: [] };
    const report = verifyGameLog(proof, pins);
    expect(report.inLog).toMatchObject({ name: IN_LOG, status: 'pass' });
    // No witnesses configured: labelled as such.
    expect(report.witnessed).toMatchObject({ status: 'na', detail: NO_COSIGNATURE });
    expect(report.sentence).toBe(NOT_WITNESSED);

    // Later leaves: the proof's checkpoint grows with the log, and its inclusion proof with it.
    const other = await openGame(t, h.U3, { numbers: [1, 2] });
    await freeze(t, h.U3.token, other.id);
    const later = await proofOf(t, game.code);
    expect(later.log!.freeze.index).toBe(frozen!.idx);
    expect(parseCheckpoint(parseNote(later.log!.freeze.checkpoint).text).size).toBe(await logSize());
    expect(verifyGameLog(later, pins).inLog.status).toBe('pass');
    // The same proof against another log key fails.
    const otherKey = gameLogSigner('another log key of at least 32 characters', info.origin).vkey;
    expect(verifyGameLog(later, { log: otherKey, witnesses: [] }).inLog.status).toBe('fail');
    await drawAll(t, h.U2, game);
    await drawAll(t, h.U3, other);
  });
});

describe('the log as C2SP tlog-tiles under /log/', () => {
  it('the tiles and entry bundles served hash to the signed checkpoint root', async () => {
    // Past one full level-0 tile, so a level-1 tile exists too.
    const missing = 300 - (await logSize());
    for (let from = 0; from < missing; from += 50) {
      const leaves = Array.from({ length: Math.min(50, missing - from) }, (_, i): GameLogLeaf => ({
        event: 'discarded',
        code: `tiles-${from + i}`,
        outcome: randomBytes(32).toString('hex'),
        seed: randomBytes(32).toString('hex'),
      }));
      await t.database.db.transaction((tx) => appendGameLeaves(tx, -1, leaves));
    }
    const info = await logInfo();
    const served = await t.request(null, { method: 'GET', url: '/log/checkpoint' });
    expectStatus(served, 200);
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers['cache-control']).toBe('no-cache');
    expect(served.body).toBe(info.checkpoint);
    const verified = verifyNote(served.body, [ed25519NoteVerifier(info.vkey)]);
    expect(verified.ok).toBe(true);
    expect(info.vkey.startsWith(`${info.origin}+`)).toBe(true);
    const [origin = '', sizeLine = '', rootLine = ''] = served.body.split('\n');
    expect(origin).toBe(info.origin);
    const size = Number(sizeLine);
    expect(size).toBeGreaterThanOrEqual(300);

    const get = async (url: string) => {
      const response = await t.request(null, { method: 'GET', url });
      expectStatus(response, 200);
      expect(response.headers['content-type']).toBe('application/octet-stream');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      return new Uint8Array(response.rawPayload);
    };
    const leafHashes: Uint8Array[] = [];
    const fullTiles = Math.floor(size / 256);
    for (let n = 0; n <= fullTiles; n++) {
      const width = n < fullTiles ? 256 : size % 256;
      if (width === 0) continue;
      const tile = await get(spec.path('0', n, width));
      expect(tile.length).toBe(width * 32);
      const bundle = await get(spec.path('entries', n, width));
      // Each entry: a big-endian uint16 length, then the entry; it hashes to its tile's hash.
      for (let at = 0, i = 0; i < width; i++) {
        const length = (bundle[at]! << 8) | bundle[at + 1]!;
        const entry = bundle.subarray(at + 2, at + 2 + length);
        at += 2 + length;
        const hash = spec.sha256(new Uint8Array([0]), entry);
        expect(Buffer.from(hash).equals(Buffer.from(tile.subarray(i * 32, i * 32 + 32)))).toBe(true);
        leafHashes.push(hash);
        if (i === width - 1) expect(at).toBe(bundle.length);
      }
    }
    // Level 1: each hash is the MTH of a full level-0 tile.
    const level1 = await get(spec.path('1', 0, fullTiles));
    for (let n = 0; n < fullTiles; n++)
      expect(Buffer.from(level1.subarray(n * 32, n * 32 + 32))).toEqual(
        Buffer.from(spec.mth(leafHashes.slice(n * 256, n * 256 + 256))),
      );
    expect(Buffer.from(spec.mth(leafHashes)).toString('base64')).toBe(rootLine);
  });

  it('answers 404 for a tile the log has not reached and for any path that is not a canonical tile', async () => {
    const size = await logSize();
    const width = size % 256;
    expect(width).toBeLessThan(255);
    for (const url of [
      // The tile after the last one, and a partial tile wider than the log has reached.
      `/log/tile/0/${spec.index(Math.floor(size / 256) + 1)}`,
      spec.path('0', Math.floor(size / 256), width + 1),
      spec.path('entries', Math.floor(size / 256), width + 1),
      spec.path('1', 0, Math.floor(size / 256) + 1),
      // Not tile paths as tlog-tiles writes them.
      '/log/tile/entries/x000/001',
      '/log/tile/0/1',
      '/log/tile/0/000.p/0',
      '/log/tile/0/000.p/256',
      '/log/tile/0/000.p/007',
      '/log/tile/64/000',
      '/log/tile/01/000',
      '/log/tile/0/x001/x002/x003/x004/x005/x006/007',
      '/log/tile/-1/000',
      '/log/tile/0/000/',
    ]) {
      const response = await t.request(null, { method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
    // The partial tile the checkpoint names is there.
    expectStatus(await t.request(null, { method: 'GET', url: spec.path('0', Math.floor(size / 256), width) }), 200);
  });
});

describe("the log's key and origin", () => {
  it('a start with another LOG_KEY is refused; a new LOG_ORIGIN is served and recorded with the size it had', async () => {
    const start = (logKey: string, logOrigin?: string) =>
      buildApp({
        database: t.database,
        jwtSecret: t.jwtSecret,
        totpKey: t.totpKey,
        seedKey: t.seedKey,
        logKey,
        logOrigin,
        logLevel: 'silent',
        serveWeb: false,
      });
    await expect(start(randomBytes(32).toString('hex'))).rejects.toThrow(KeyMismatch);
    const size = await logSize();
    const renamed = await start(t.logKey, 'restored.example.com/games');
    try {
      const info = (await renamed.inject({ method: 'GET', url: '/api/log' })).json<GameLogInfo>();
      expect(info.origin).toBe('restored.example.com/games');
      expect(info.checkpoint.startsWith(`restored.example.com/games\n${size}\n`)).toBe(true);
      const [row] = await queryRows<{ details: Record<string, unknown> }>(
        t.database.db,
        sql`SELECT details FROM audit_log WHERE action = 'log.origin_changed' ORDER BY id DESC LIMIT 1`,
      );
      expect(row?.details).toEqual({ from: 'localhost/games', to: 'restored.example.com/games', size });
    } finally {
      await renamed.close();
    }
  });
});

describe('an append is planned from the head alone', () => {
  it('the edge gives the same root as the whole tree, for every size to 300', () => {
    let head: LogHead = { size: 0, edge: [] };
    const hashes: Uint8Array[] = [];
    for (let n = 0; n < 300; n++) {
      expect(Buffer.from(rootOf(head))).toEqual(Buffer.from(rootFromLeafHashes(hashes)));
      const data = new Uint8Array([n & 0xff, n >> 8]);
      const planned = planAppend(head, data);
      expect(planned.nodes[0]).toEqual({ level: 0, idx: n, hash: leafHash(data) });
      hashes.push(leafHash(data));
      head = planned.head;
      // One perfect subtree per one bit of the size.
      expect(head.edge).toHaveLength((n + 1).toString(2).replaceAll('0', '').length);
    }
  });
});
