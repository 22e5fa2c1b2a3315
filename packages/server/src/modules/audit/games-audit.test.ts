import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureWinners, drawAll, freeze, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';
import { compareGamesWithAuditAndLog, describeGamesAudit, describeLogRoot, verifyLogRoot } from './games-audit.ts';

/**
 * `npm run audit:verify` holds every game row to its game.* audit rows and to the game log, and
 * with `--log` the log's leaves to its root (decision 083): a game rewritten or deleted straight
 * in SQL, as whoever holds the database could, is named.
 */

let t: TestApp;
let h: Hierarchy;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  for (const member of [h.U1, h.U2, h.U3]) {
    await configureWinners(t, member.id, [{ percent: '50', position: 1, name: 'First' }]);
    await fund(t, member.id, '1000.00');
  }
});
afterAll(() => t.close());

const run = (query: ReturnType<typeof sql>) => t.database.db.execute(query);

describe('audit:verify and the games', () => {
  it('agrees on games played, voided and in play; names a rewritten and a deleted game', async () => {
    const settled = await openGame(t, h.U1, { numbers: [1, 2, 3] });
    await drawAll(t, h.U1, settled);
    const voided = await openGame(t, h.U2, { numbers: [4, 5] });
    await freeze(t, h.U2.token, voided.id);
    expectStatus(await voidCall(t, t.adminToken, voided.id, 'Power cut'), 200);
    const drawing = await openGame(t, h.U3, { numbers: [6, 7] });
    await freeze(t, h.U3.token, drawing.id);

    const clean = await compareGamesWithAuditAndLog(t.database.db);
    expect(clean.problems).toEqual([]);
    expect(describeGamesAudit(clean)[0]).toMatch(/^OK: \d+ games agree with their \d+ game audit rows/);
    const root = await verifyLogRoot(t.database.db);
    expect(root).toMatchObject({ ok: true, recomputed: root.head });
    expect(describeLogRoot(root)[0]).toMatch(/^OK: the game log's \d+ leaves hash to the root its head holds/);

    // A backdated freeze: the row no longer says what its audit row and its leaf say.
    await run(sql`UPDATE game_rounds SET frozen_at = frozen_at - interval '30 seconds' WHERE id = ${drawing.id}`);
    const backdated = await compareGamesWithAuditAndLog(t.database.db);
    expect(backdated.ok).toBe(false);
    expect(backdated.problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^game ${drawing.code} \\(id ${drawing.id}\\): its game.frozen audit row \\d+ says frozen at .*: the row was rewritten$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^game ${drawing.code} \\(id ${drawing.id}\\): its frozen leaf says frozen at .*: the row was rewritten$`,
        ),
      ),
    ]);
    expect(describeGamesAudit(backdated)[0]).toBe(
      'FAILED: 2 problems between the games, their audit rows and the game log.',
    );
    await run(sql`UPDATE game_rounds SET frozen_at = frozen_at + interval '30 seconds' WHERE id = ${drawing.id}`);
    expect((await compareGamesWithAuditAndLog(t.database.db)).ok).toBe(true);

    // Other numbers on a settled game.
    await run(sql`UPDATE game_rounds SET draws = jsonb_set(draws, '{0,number}', '99') WHERE id = ${settled.id}`);
    expect((await compareGamesWithAuditAndLog(t.database.db)).problems).toEqual([
      expect.stringContaining(`game ${settled.code} (id ${settled.id}): its game.settled audit row`),
    ]);
    await run(sql`UPDATE game_rounds SET draws = ${JSON.stringify(settled.draws)}::jsonb WHERE id = ${settled.id}`);

    // A leaf rewritten: --log names it.
    await run(sql`UPDATE game_log_entries SET data = data || '\\x20'::bytea
      WHERE game_id = ${drawing.id} AND kind = 'frozen'`);
    const rewritten = await verifyLogRoot(t.database.db);
    expect(rewritten.ok).toBe(false);
    expect(rewritten.problems[0]).toMatch(
      new RegExp(
        `^the game log's leaf \\d+ \\(frozen of game id ${drawing.id}\\) no longer hashes to its stored hash: rewritten$`,
      ),
    );
  });

  it('names a game deleted in SQL, with its leaves, by its audit rows; --log names the missing leaves', async () => {
    const game = await openGame(t, h.U2, { numbers: [8, 9] });
    await freeze(t, h.U2.token, game.id);
    expectStatus(await voidCall(t, t.adminToken, game.id, 'Deleted later'), 200);
    await run(sql`DELETE FROM game_log_entries WHERE game_id = ${game.id}`);
    await run(sql`DELETE FROM game_rounds WHERE id = ${game.id}`);
    const report = await compareGamesWithAuditAndLog(t.database.db);
    const named = report.problems.filter((p) => p.includes(game.code));
    expect(named).toEqual([
      expect.stringMatching(
        new RegExp(
          `^audit row \\d+ \\(game.frozen of game ${game.code}\\): no game row has id ${game.id}: the game was deleted$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^audit row \\d+ \\(game.voided of game ${game.code}\\): no game row has id ${game.id}: the game was deleted$`,
        ),
      ),
    ]);
    const root = await verifyLogRoot(t.database.db);
    expect(root.ok).toBe(false);
    expect(root.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^the game log has no leaf \d+ to \d+: deleted \(its head says \d+ leaves\)$/),
      ]),
    );
  });

  it('names a game whose row is deleted but whose leaves remain', async () => {
    const game = await openGame(t, h.U1, { numbers: [10] });
    await run(sql`DELETE FROM game_rounds WHERE id = ${game.id}`);
    const report = await compareGamesWithAuditAndLog(t.database.db);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^the game log's leaf \\d+ names game ${game.code} \\(id ${game.id}\\), which has no row: the game was deleted$`,
          ),
        ),
      ]),
    );
  });
});
