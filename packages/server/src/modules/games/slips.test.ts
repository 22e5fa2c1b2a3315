import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Game, SlipPrint } from '@lot/domain/schemas/games';
import { configureWinners, drawAll, expectNoEffect, openGame, voidCall } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';

/** Slip print counts (decision 014): the first print is the original, every later one a COPY. */

let t: TestApp;
let h: Hierarchy;
let settled: Game;
beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '60', position: 1 },
    { percent: '40', position: 2 },
  ]);
  for (const member of [h.U1, h.U2]) await fund(t, member.id, '1000.00');
  settled = await drawAll(t, h.U1, await openGame(t, h.U1, { numbers: [1, 2, 3, 4] }));
});
afterAll(async () => {
  await t.close();
});

const print = (token: string, gameId: number, body: unknown) =>
  t.request(token, { method: 'POST', url: `/api/games/${gameId}/slips/prints`, payload: body as object });

describe('slip prints', () => {
  it('the first print is not a copy; the second is a COPY with count 2; each slip counts apart', async () => {
    const first = await print(h.U1.token, settled.id, { kind: 'entry', number: 2 });
    expectStatus(first, 200);
    expect(first.json<SlipPrint>()).toMatchObject({ kind: 'entry', number: 2, printCount: 1, copy: false });
    const second = await print(h.U1.token, settled.id, { kind: 'entry', number: 2 });
    expect(second.json<SlipPrint>()).toMatchObject({ kind: 'entry', number: 2, printCount: 2, copy: true });
    const other = await print(h.U1.token, settled.id, { kind: 'entry', number: 3 });
    expect(other.json<SlipPrint>()).toMatchObject({ number: 3, printCount: 1, copy: false });
    const result = await print(h.U1.token, settled.id, { kind: 'result' });
    expect(result.json<SlipPrint>()).toMatchObject({ kind: 'result', number: null, printCount: 1, copy: false });
    const listed = await t.request(h.U1.token, { method: 'GET', url: `/api/games/${settled.id}/slips` });
    expectStatus(listed, 200);
    expect(listed.json<SlipPrint[]>().map((s) => [s.kind, s.number, s.printCount, s.copy])).toEqual([
      ['entry', 2, 2, true],
      ['entry', 3, 1, false],
      ['result', null, 1, false],
    ]);
  });

  it('concurrent prints of one slip are each counted exactly once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => print(h.U1.token, settled.id, { kind: 'entry', number: 4 })),
    );
    for (const answer of answers) expectStatus(answer, 200);
    const counts = answers.map((a) => a.json<SlipPrint>().printCount).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(answers.filter((a) => !a.json<SlipPrint>().copy)).toHaveLength(1);
  });

  it("only the game's player prints; the upline reads the counts; others get 404", async () => {
    await expectNoEffect(t, () => print(h.U2.token, settled.id, { kind: 'result' }), 404);
    for (const member of [h.A1, h.S1, h.admin]) {
      await expectNoEffect(t, () => print(member.token, settled.id, { kind: 'result' }), 403);
    }
    for (const member of [h.A1, h.S1, h.admin]) {
      const listed = await t.request(member.token, { method: 'GET', url: `/api/games/${settled.id}/slips` });
      expectStatus(listed, 200);
    }
    for (const member of [h.U2, h.A2, h.S2]) {
      const listed = await t.request(member.token, { method: 'GET', url: `/api/games/${settled.id}/slips` });
      expectStatus(listed, 404);
    }
    expectStatus(await print(h.U1.token, settled.id, { kind: 'result' }), 200);
  });

  it('a slip that does not exist is refused and counts nothing', async () => {
    await expectNoEffect(t, () => print(h.U1.token, settled.id, { kind: 'entry', number: 9 }), 400);
    await expectNoEffect(t, () => print(h.U1.token, settled.id, { kind: 'entry' }), 400);
    await expectNoEffect(t, () => print(h.U1.token, settled.id, { kind: 'result', number: 1 }), 400);
    await expectNoEffect(t, () => print(h.U1.token, settled.id, { kind: 'receipt' }), 400);
    const open = await openGame(t, h.U2, { numbers: [5, 6] });
    await expectNoEffect(t, () => print(h.U2.token, open.id, { kind: 'result' }), 409);
    const entry = await print(h.U2.token, open.id, { kind: 'entry', number: 5 });
    expect(entry.json<SlipPrint>()).toMatchObject({ printCount: 1, copy: false });
    expectStatus(await voidCall(t, h.U2.token, open.id, 'test'), 200);
    await expectNoEffect(t, () => print(h.U2.token, open.id, { kind: 'entry', number: 5 }), 409);
  });
});
