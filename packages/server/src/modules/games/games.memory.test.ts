import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrawResult, Game } from '@lot/domain/schemas/games';
import { buildApp } from '../../app.ts';
import { configureWinners, drawCall, openGame } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * Decision 052: a process remembers a drawing game, so its next draw is one statement; the
 * statement's conditions decide, so a memory gone stale (another process drew or voided) is
 * forgotten and the game read again.
 */

let t: TestApp;
let h: Hierarchy;
/** A second process on the same database. */
let other: FastifyInstance;
beforeAll(async () => {
  t = await createMoneyTestApp({ beacon: 'off' });
  h = await buildHierarchy(t);
  for (const member of [h.U1, h.U2]) {
    await configureWinners(t, member.id, [
      { percent: '50', position: 1, name: 'First' },
      { percent: '30', position: 2, name: 'Second' },
      { percent: '10', position: 3, name: 'Third' },
    ]);
  }
  for (const member of [h.U1, h.U2]) await fund(t, member.id, '1000.00');
  other = await buildApp({
    database: t.database,
    totpKey: t.totpKey,
    seedKey: t.seedKey,
    logKey: t.logKey,
    jwtSecret: t.jwtSecret,
    logLevel: 'silent',
    serveWeb: false,
    beacon: { mode: 'off', urls: [], chainHash: '' },
  });
  await other.ready();
});
afterAll(async () => {
  await other?.close();
  await t.close();
});

/**
 * The statements the app sends to the database while `run` runs, but for the change's announcement
 * to other processes (PostgreSQL's NOTIFY, sent without waiting for it: lib/game-events.ts).
 */
async function statementsDuring(run: () => Promise<unknown>): Promise<string[]> {
  // The session's class: a transaction runs on a session of its own, of the same class.
  const session = Object.getPrototypeOf(
    (t.app.context.db as unknown as { _: { session: object } })._.session,
  ) as Record<string, unknown>;
  const original = session.prepareQuery as (...args: unknown[]) => unknown;
  const seen: string[] = [];
  session.prepareQuery = function (this: unknown, ...args: unknown[]) {
    seen.push((args[0] as { sql: string }).sql);
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    session.prepareQuery = original;
  }
  // node-postgres sends a transaction's begin and commit as statements too; PGlite does not.
  return seen.filter((text) => !text.includes('pg_notify') && text !== 'begin' && text !== 'commit');
}

const drawOn = (app: FastifyInstance, token: string, id: number, position: number) =>
  app.inject({
    method: 'POST',
    url: `/api/games/${id}/draws`,
    headers: { authorization: `Bearer ${token}` },
    payload: { position },
  });

describe('the draw remembered by its process (decision 052)', () => {
  it('the second and later draws are one statement each, the settling draw one and its game log leaf, its claims answered by its statement', async () => {
    // Every number of the range sold: every prize has a winner, so the settling draw writes claims.
    const game = await openGame(t, h.U1, { numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], end: 10 });
    const first = await statementsDuring(async () => expectStatus(await drawCall(t, h.U1.token, game.id, 1), 200));
    expect(first.length).toBeGreaterThanOrEqual(2);
    let second: DrawResult | undefined;
    const middle = await statementsDuring(async () => {
      const response = await drawCall(t, h.U1.token, game.id, 2);
      expectStatus(response, 200);
      second = response.json<DrawResult>();
    });
    expect(middle).toHaveLength(1);
    expect(middle[0]).toContain('WITH r AS MATERIALIZED');
    expect(second?.game.draws).toHaveLength(2);
    expect(second?.game.user?.username).toBe(h.U1.username);
    let settling: DrawResult | undefined;
    const last = await statementsDuring(async () => {
      const response = await drawCall(t, h.U1.token, game.id, 3);
      expectStatus(response, 200);
      settling = response.json<DrawResult>();
    });
    // The settling draw's statement, then its leaf in the game log in the same transaction
    // (decision 081): the log's head locked, the leaf and its hashes written.
    expect(last).toHaveLength(3);
    expect(last[0]).toContain('WITH r AS MATERIALIZED');
    expect(last[1]).toContain('FROM game_log WHERE id = 1 FOR UPDATE');
    expect(last[2]).toContain('INSERT INTO game_log_entries');
    // The answers are those a read gives, the settling draw's claims included.
    const read = await t.request(h.U1.token, { method: 'GET', url: `/api/games/${game.id}` });
    expectStatus(read, 200);
    expect(read.json<Game>().draws.filter((d) => d.claim !== null).length).toBeGreaterThan(0);
    expect(settling?.game).toEqual(read.json<Game>());
    const replay = await drawCall(t, h.U1.token, game.id, 2);
    expectStatus(replay, 200);
    expect(replay.json<DrawResult>().game).toEqual(read.json<Game>());
    expect(replay.json<DrawResult>().number).toBe(second?.number);
  });

  it('another process drew in between: the memory is forgotten and the next position drawn, none twice', async () => {
    const game = await openGame(t, h.U1, { numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
    expectStatus(await drawCall(t, h.U1.token, game.id, 1), 200);
    const there = await drawOn(other, h.U1.token, game.id, 2);
    expectStatus(there, 200);
    const here = await drawCall(t, h.U1.token, game.id, 2);
    expectStatus(here, 200);
    expect(here.json<DrawResult>().number).toBe(there.json<DrawResult>().number);
    const third = await drawCall(t, h.U1.token, game.id, 3);
    expectStatus(third, 200);
    const settled = third.json<DrawResult>().game;
    expect(settled.status).toBe('settled');
    expect(new Set(settled.draws.map((d) => d.number)).size).toBe(3);
    expect(settled.draws[1]?.number).toBe(there.json<DrawResult>().number);
    const read = await t.request(h.U1.token, { method: 'GET', url: `/api/games/${game.id}` });
    expect(settled).toEqual(read.json<Game>());
  });

  it('another process drew the next position: this one draws the one after, as a read would', async () => {
    const game = await openGame(t, h.U2, { numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
    expectStatus(await drawCall(t, h.U2.token, game.id, 1), 200);
    expectStatus(await drawOn(other, h.U2.token, game.id, 2), 200);
    const third = await drawCall(t, h.U2.token, game.id, 3);
    expectStatus(third, 200);
    const settled = third.json<DrawResult>().game;
    expect(settled.draws).toHaveLength(3);
    expect(new Set(settled.draws.map((d) => d.number)).size).toBe(3);
  });

  it('another process voided in between: the draw answers the void', async () => {
    const game = await openGame(t, h.U1, { numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
    expectStatus(await drawCall(t, h.U1.token, game.id, 1), 200);
    const voided = await other.inject({
      method: 'POST',
      url: `/api/games/${game.id}/void`,
      headers: { authorization: `Bearer ${h.A1.token}` },
      payload: { reason: 'test', afterWinner: true },
    });
    expectStatus(voided, 200);
    const refused = await drawCall(t, h.U1.token, game.id, 2);
    expectStatus(refused, 409);
    const read = await t.request(h.U1.token, { method: 'GET', url: `/api/games/${game.id}` });
    expect(read.json<Game>()).toMatchObject({ status: 'voided', draws: [expect.anything()] });
  });
});
