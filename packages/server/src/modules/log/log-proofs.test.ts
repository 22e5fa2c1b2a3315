import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREEZE_MARGIN_MS } from '@lot/domain/freeze-round';
import { firstRoundAfter } from '@lot/domain/beacon';
import { exampleWitnessVkey } from '@lot/domain/game-log-evidence-example';
import { NOT_WITNESSED, verifyGameLog, WITNESSING_FAILED } from '@lot/domain/verify-log';
import { queryRows } from '../../db/client.ts';
import { compareGamesWithAuditAndLog, describeLogRoot, verifyLogRoot } from '../audit/games-audit.ts';
import { configureWinners, drawCall, openGame, proofOf, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';
import { witnessedApp, type WitnessedApp } from '../../test/witnessed-app.ts';
import type { WitnessFiles } from '../../witness/witness-files.ts';

/**
 * A witnessed game's public proof (issue 41 item 5): its freeze leaf (the one that stood, not an
 * attempt), the checkpoint the repository's witness cosigned at the freeze, and the inclusion proof
 * for that checkpoint's size; the domain's verifier passes it with the witness's key pinned and
 * fails it with another.
 */

let witnessed: WitnessedApp;
let t: TestApp;
let h: Hierarchy;
let files: WitnessFiles;
let logInfo: WitnessedApp['logInfo'];
let justAfterARound: WitnessedApp['justAfterARound'];
let down = false;

beforeAll(async () => {
  witnessed = await witnessedApp('auditor.test/witness', {
    serve: (handle) => (request, response) => (down ? request.socket.destroy() : handle(request, response)),
  });
  ({ t, files, logInfo, justAfterARound } = witnessed);
  h = await buildHierarchy(t);
  await configureWinners(t, h.U1.id, [{ percent: '50', position: 1, name: 'First' }]);
  await fund(t, h.U1.id, '1000.00');
});
afterAll(() => witnessed?.close());

describe("a witnessed game's proof", () => {
  it('carries the cosigned checkpoint and the leaf that stood; it verifies with the witness pinned, not another', async () => {
    const game = await openGame(t, h.U1, { numbers: [1, 2, 3] });
    // A first attempt with the witness down: its leaf stays, marked, and is not the proof's.
    down = true;
    justAfterARound();
    expectStatus(await drawCall(t, h.U1.token, game.id, 1), 503);
    down = false;
    // Past the round the attempt named (R is at least the freeze margin away, decision 076), so
    // that audit:verify has an attempt to list for review.
    const attempted = firstRoundAfter(t.beacon!.chain, t.now() + FREEZE_MARGIN_MS) + 1;
    while (firstRoundAfter(t.beacon!.chain, t.now()) <= attempted) justAfterARound();
    expectStatus(await drawCall(t, h.U1.token, game.id, 1), 202);

    const proof = await proofOf(t, game.code);
    const [row] = await queryRows<{ log_index: string; log_checkpoint: string }>(
      t.database.db,
      sql`SELECT log_index, log_checkpoint FROM game_rounds WHERE id = ${game.id}`,
    );
    expect(proof.log?.freeze.index).toBe(Number(row?.log_index));
    expect(proof.log?.freeze.checkpoint).toBe(row?.log_checkpoint);
    const info = await logInfo();
    // GET /api/log names the witnesses a verifier pins, without their submission addresses.
    expect(info.witnesses).toEqual([{ name: 'auditor.test/witness', vkey: files.cosigner.vkey }]);
    expect(info.quorum).toBe(1);
    const witnessed = verifyGameLog(proof, { log: info.vkey, witnesses: [files.cosigner.vkey] });
    expect(witnessed.inLog.status).toBe('pass');
    expect(witnessed.witnessed.status).toBe('pass');
    expect(witnessed.sentence).toMatch(/^auditor\.test\/witness saw this freeze in the game log, by its own clock/);

    const other = verifyGameLog(proof, { log: info.vkey, witnesses: [exampleWitnessVkey('auditor.test/witness')] });
    expect(other.witnessed).toMatchObject({ status: 'fail' });
    expect(other.sentence).toBe(WITNESSING_FAILED);
    // Unpinned witnesses: the page says who cosigned, and that it did not check them.
    const unpinned = verifyGameLog(proof, { log: info.vkey, witnesses: [] });
    expect(unpinned.witnessed.detail).toMatch(/^cosigned by auditor\.test\/witness, whose keys/);
    expect(unpinned.sentence).toBe(NOT_WITNESSED);
    expectStatus(await voidCall(t, t.adminToken, game.id, 'Test over'), 200);

    // audit:verify: the attempt's round was public before the freeze stood: listed for review, not a failure.
    const audit = await compareGamesWithAuditAndLog(t.database.db);
    expect(audit.problems).toEqual([]);
    const root = await verifyLogRoot(t.database.db);
    expect(root).toMatchObject({ ok: true, witnessedSize: expect.any(Number) });
    expect(describeLogRoot(root)[0]).toMatch(/to the root its latest witnessed checkpoint holds\.$/);
    expect(audit.reviews).toEqual([
      expect.stringMatching(new RegExp(`^game ${game.code} \\(id ${game.id}\\): a freeze attempt named round \\d+`)),
    ]);
  });
});
