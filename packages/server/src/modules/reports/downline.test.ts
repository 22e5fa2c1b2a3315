import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '@lot/domain/money';
import type { Role } from '@lot/domain/roles';
import type { Downline, DownlineFigures } from '@lot/domain/schemas/reports';
import { checkLedger } from '../balance/ledger.ts';
import { configureWinners, drawAll, drawPosition, listGames, openGame, voidCall } from '../../test/game-fixtures.ts';
import { createMember, type Member } from '../../test/hierarchy.ts';
import {
  balanceOf,
  cents,
  createMoneyTestApp,
  expectStatus,
  fund,
  money,
  seededRandom,
} from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * The downline report (docs/product/reports.md#downline-report) on a random hierarchy with random
 * activity: for every node (the admin, each super agent, each agent) its totals equal what the
 * sales history answers for the same scope and period, its rows add up to its totals, each child
 * agent's row is that agent's sales history, the money columns match the calls made, and nobody
 * sees a row outside their hierarchy.
 */

const SEED = Number(process.env.DOWNLINE_SEED ?? Date.now() % 100_000);
const random = seededRandom(SEED);
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

let t: TestApp;
let admin: Member;
type Person = Member & { parent?: Person };
const supers: Person[] = [];
const agents: Person[] = [];
const users: Person[] = [];
/** Money that crossed into and out of each super agent's subtree, as the calls made it. */
const topUpsOf = new Map<number, number>();
/** Every top-up, by the account it went into. */
const toppedUp = new Map<number, number>();
const runStarted = Date.now();
const takenFromSuper = new Map<number, number>();

let made = 0;
async function create(role: Role, parent?: Person): Promise<Person> {
  made += 1;
  const spec = { username: `dl_${made}_${SEED}`, fullName: `Down ${role} ${made}`, role, parentId: parent?.id };
  return { ...(await createMember(t, spec)), parent };
}

const superOf = (p: Person): Person | undefined =>
  p.role === 'superagent' ? p : p.parent ? superOf(p.parent) : undefined;

beforeAll(async () => {
  t = await createMoneyTestApp();
  admin = { id: 0, username: 'admin', fullName: '', role: 'admin', token: t.adminToken };
  const me = await t.request(t.adminToken, { method: 'GET', url: '/api/balance' });
  admin.id = me.json<{ userId: number }>().userId;
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '20', position: 2 },
  ]);
  for (let s = 0; s < 2; s++) {
    const boss = await create('superagent');
    supers.push(boss);
    for (let a = between(1, 2); a > 0; a--) {
      const agent = await create('agent', boss);
      agents.push(agent);
      for (let u = between(1, 2); u > 0; u--) users.push(await create('user', agent));
    }
    for (let u = between(0, 1); u > 0; u--) users.push(await create('user', boss));
  }
  users.push(await create('user'));

  // Money: the admin tops up each super agent, which passes money down; the upline takes some back.
  for (const boss of supers) {
    const amount = between(50_000, 90_000);
    await fund(t, boss.id, formatCents(amount));
    topUpsOf.set(boss.id, (topUpsOf.get(boss.id) ?? 0) + amount);
    toppedUp.set(boss.id, amount);
  }
  for (const agent of agents) {
    expectStatus(
      await money(t, agent.parent?.token ?? '', 'transfer', { receiverId: agent.id, amount: '200.00' }),
      200,
    );
  }
  for (const user of users) {
    const amount = between(20_000, 40_000);
    await fund(t, user.id, formatCents(amount));
    toppedUp.set(user.id, amount);
    const boss = superOf(user);
    if (boss) topUpsOf.set(boss.id, (topUpsOf.get(boss.id) ?? 0) + amount);
    if (user.parent?.role === 'agent') {
      expectStatus(await money(t, user.parent.token, 'transfer', { receiverId: user.id, amount: '10.00' }), 200);
      expectStatus(
        await money(t, user.parent.token, 'take-back', { userId: user.id, amount: '3.00', reason: 'test' }),
        200,
      );
    }
    // Games: settled, and sometimes one voided after its first draw.
    for (let game = between(0, 3); game > 0; game--) {
      const numbers = [...new Set(Array.from({ length: between(2, 6) }, () => between(1, 20)))];
      const opened = await openGame(t, user, { numbers, bet: formatCents(between(100, 500)) });
      if (random() < 0.25) {
        expectStatus(await drawPosition(t, user.token, opened.id, 1), 200);
        // The draw has started: the shop's upline (the admin for a shop with none) voids it.
        expectStatus(await voidCall(t, user.parent?.token ?? t.adminToken, opened.id, 'test void'), 200);
      } else {
        expect((await drawAll(t, user, opened)).status).toBe('settled');
      }
    }
  }
  // The admin takes money back from the first super agent.
  expectStatus(await money(t, t.adminToken, 'take-back', { userId: supers[0]?.id, amount: '5.00', reason: 'x' }), 200);
  takenFromSuper.set(supers[0]?.id ?? 0, 500);
  // The admin corrects a shop under an agent and the second super agent (docs/product/money.md#corrections).
  const shop = users.find((u) => u.parent?.role === 'agent') as Person;
  for (const [who, amount] of [
    [shop, '7.77'],
    [supers[1] as Person, '1.23'],
  ] as const) {
    const corrected = await money(t, t.adminToken, 'decrease', { userId: who.id, amount, description: 'Count' });
    expectStatus(corrected, 200);
  }
}, 240_000);

afterAll(async () => {
  const ledger = await checkLedger(t.database.db);
  expect(ledger.ok, JSON.stringify(ledger)).toBe(true);
  await t.close();
});

const today = new Date().toISOString().slice(0, 10);
const period = `from=${today}&to=${today}`;

async function report(by: Member, query = period): Promise<Downline> {
  const response = await t.request(by.token, { method: 'GET', url: `/api/reports/downline?${query}` });
  expectStatus(response, 200);
  return response.json<Downline>();
}

/** The sales history's totals for a list URL over the report's period. */
async function salesTotals(by: Member, path: string, downline: Downline) {
  const to = new Date(Date.parse(downline.to) - 1).toISOString();
  const separator = path.includes('?') ? '&' : '?';
  const list = await listGames(t, by.token, `${path}${separator}from=${downline.from}&to=${to}&limit=1`);
  return { settledGames: list.total, commission: list.totalCommission };
}

function sumRows(downline: Downline): Record<keyof DownlineFigures, number> {
  const sum = (pick: (row: Downline['rows'][number]) => string | number) =>
    downline.rows.reduce(
      (s, row) => s + (typeof pick(row) === 'number' ? (pick(row) as number) : cents(pick(row) as string)),
      0,
    );
  return {
    settledGames: sum((r) => r.settledGames),
    numbersSold: sum((r) => r.numbersSold),
    pool: sum((r) => r.pool),
    prizes: sum((r) => r.prizes),
    commission: sum((r) => r.commission),
    voidedGames: sum((r) => r.voidedGames),
    topUps: sum((r) => r.topUps),
    transfersReceived: sum((r) => r.transfersReceived),
    transfersSent: sum((r) => r.transfersSent),
    takenBack: sum((r) => r.takenBack),
    corrections: sum((r) => r.corrections),
  };
}

function expectRowsAddUp(downline: Downline) {
  const { totals } = downline;
  expect(sumRows(downline)).toEqual({
    settledGames: totals.settledGames,
    numbersSold: totals.numbersSold,
    pool: cents(totals.pool),
    prizes: cents(totals.prizes),
    commission: cents(totals.commission),
    voidedGames: totals.voidedGames,
    topUps: cents(totals.topUps),
    transfersReceived: cents(totals.transfersReceived),
    transfersSent: cents(totals.transfersSent),
    takenBack: cents(totals.takenBack),
    corrections: cents(totals.corrections),
  });
  expect(cents(totals.pool)).toBe(cents(totals.prizes) + cents(totals.commission));
}

describe(`downline report (${TEST_DB}, seed ${SEED})`, () => {
  it("the admin's rows are the super agents and the users without a parent; totals are the sales history's", async () => {
    const downline = await report(admin);
    expect(downline.parent.id).toBe(admin.id);
    const ids = downline.rows.map((row) => row.user.id);
    for (const boss of supers) expect(ids).toContain(boss.id);
    for (const user of users.filter((u) => !u.parent)) expect(ids).toContain(user.id);
    for (const agent of agents) expect(ids).not.toContain(agent.id);
    expectRowsAddUp(downline);
    expect(await salesTotals(admin, '/api/sales-history/filter', downline)).toEqual({
      settledGames: downline.totals.settledGames,
      commission: downline.totals.commission,
    });
    expect(downline.totals.settledGames).toBeGreaterThan(0);
    for (const boss of supers) {
      const row = downline.rows.find((r) => r.user.id === boss.id);
      // Each super agent's row is its sales history, and the money that crossed into its subtree.
      expect({ settledGames: row?.settledGames, commission: row?.commission }).toEqual(
        await salesTotals(admin, `/api/sales-history/superagent/${boss.id}`, downline),
      );
      expect(row?.topUps).toBe(formatCents(topUpsOf.get(boss.id) ?? 0));
      expect(row?.takenBack).toBe(formatCents(takenFromSuper.get(boss.id) ?? 0));
      // Transfers and take-backs between the super agent, its agents and their users stay inside.
      expect([row?.transfersReceived, row?.transfersSent]).toEqual(['0.00', '0.00']);
    }
  });

  it("every row's money columns add up to its subtree's balances, the corrections' column included", async () => {
    // Nothing is held (every game settled or voided) and nobody has moved: a subtree's balances are
    // what came in (top-ups, transfers received) less what went out (transfers sent, taken back,
    // corrections, the pools of its settled games).
    const under = (root: Person) =>
      [...new Set([root, ...agents, ...users])].filter(
        (p) => p === root || p.parent === root || p.parent?.parent === root,
      );
    let corrected = 0;
    for (const node of [admin, ...supers, ...agents]) {
      const downline = await report(node);
      for (const row of downline.rows) {
        const root = [...supers, ...agents, ...users].find((p) => p.id === row.user.id) as Person;
        let balances = 0;
        for (const p of under(root)) balances += await balanceOf(t, p.id);
        const net =
          cents(row.topUps) +
          cents(row.transfersReceived) -
          cents(row.transfersSent) -
          cents(row.takenBack) -
          cents(row.corrections) -
          cents(row.pool);
        expect(net, `${node.role} ${node.id}: row ${row.user.username}`).toBe(balances);
      }
      if (node === admin) corrected = cents(downline.totals.corrections);
    }
    expect(corrected).toBe(777 + 123);
  });

  it("each super agent's and agent's report: its direct children, totals equal to its sales history", async () => {
    for (const boss of supers) {
      for (const asked of [await report(boss), await report(admin, `${period}&parentId=${boss.id}`)]) {
        expect(asked.parent.id).toBe(boss.id);
        const children = [...agents, ...users].filter((p) => p.parent?.id === boss.id).map((p) => p.id);
        expect(asked.rows.map((r) => r.user.id).sort((a, b) => a - b)).toEqual(children.sort((a, b) => a - b));
        expectRowsAddUp(asked);
        expect(await salesTotals(boss, `/api/sales-history/superagent/${boss.id}`, asked)).toEqual({
          settledGames: asked.totals.settledGames,
          commission: asked.totals.commission,
        });
        for (const row of asked.rows.filter((r) => r.user.role === 'agent')) {
          expect({ settledGames: row.settledGames, commission: row.commission }).toEqual(
            await salesTotals(boss, `/api/sales-history/agent/${row.user.id}`, asked),
          );
          // The super agent passed 200.00 down to each agent.
          expect(row.transfersReceived).toBe('200.00');
        }
      }
    }
    for (const agent of agents) {
      const asked = await report(agent);
      const children = users.filter((u) => u.parent?.id === agent.id).map((u) => u.id);
      expect(asked.rows.map((r) => r.user.id).sort((a, b) => a - b)).toEqual(children.sort((a, b) => a - b));
      expectRowsAddUp(asked);
      expect(await salesTotals(agent, `/api/sales-history/agent/${agent.id}`, asked)).toEqual({
        settledGames: asked.totals.settledGames,
        commission: asked.totals.commission,
      });
      for (const row of asked.rows) {
        expect({ settledGames: row.settledGames, commission: row.commission }).toEqual(
          await salesTotals(agent, `/api/sales-history/user/${row.user.id}`, asked),
        );
        // Each user got 10.00 from its agent, which took 3.00 back.
        expect([row.transfersReceived, row.takenBack]).toEqual(['10.00', '3.00']);
      }
    }
  });

  it('a period without activity has the children and nothing else', async () => {
    const quiet = await report(supers[0] as Member, 'from=2020-01-01&to=2020-01-31&tz=Europe/Madrid');
    expect(quiet.rows.length).toBeGreaterThan(0);
    expect(sumRows(quiet)).toEqual({
      settledGames: 0,
      numbersSold: 0,
      pool: 0,
      prizes: 0,
      commission: 0,
      voidedGames: 0,
      topUps: 0,
      transfersReceived: 0,
      transfersSent: 0,
      takenBack: 0,
      corrections: 0,
    });
    expect([quiet.timeZone, quiet.from]).toEqual(['Europe/Madrid', '2019-12-31T23:00:00.000Z']);
  });

  it('scope: a parentId outside the scope is 404, a user as parentId 400, a user may not ask (403)', async () => {
    const [first, second] = supers as [Person, Person];
    const status = async (by: Member, query: string) =>
      (await t.request(by.token, { method: 'GET', url: `/api/reports/downline?${query}` })).statusCode;
    const otherAgent = agents.find((a) => a.parent?.id === second.id) as Person;
    const ownAgent = agents.find((a) => a.parent?.id === first.id) as Person;
    expect(await status(first, `${period}&parentId=${otherAgent.id}`)).toBe(404);
    expect(await status(first, `${period}&parentId=${second.id}`)).toBe(404);
    expect(await status(first, `${period}&parentId=${admin.id}`)).toBe(404);
    expect(await status(ownAgent, `${period}&parentId=${first.id}`)).toBe(404);
    expect(await status(first, `${period}&parentId=${ownAgent.id}`)).toBe(200);
    const user = users.find((u) => u.parent?.id === ownAgent.id) as Person;
    expect(await status(ownAgent, `${period}&parentId=${user.id}`)).toBe(400);
    expect(await status(user, period)).toBe(403);
    for (const bad of [
      'from=2026-01-02&to=2026-01-01',
      'from=2026-01-01',
      `${period}&tz=Mars/Olympus`,
      `${period}&x=1`,
    ]) {
      expect(await status(first, bad), bad).toBe(400);
    }
    // Nobody sees a row outside their hierarchy.
    const seen = (await report(first)).rows.map((r) => r.user.id);
    const mine = [...agents, ...users].filter((p) => superOf(p)?.id === first.id).map((p) => p.id);
    for (const id of seen) expect(mine).toContain(id);
  });
});

/** The report without its period: the rows and the totals. */
const figuresOf = ({ rows, totals }: Downline) => ({ rows, totals });

/**
 * A zone whose local day holds the whole run, so that `from=to=` that day is a period of partial
 * UTC days only: every figure is then read from the games and the ledger, none from a rollup.
 */
function zoneHoldingTheRun(): { tz: string; day: string } {
  for (const tz of ['Asia/Kolkata', 'America/St_Johns']) {
    const day = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(at);
    if (day(runStarted) === day(Date.now())) return { tz, day: day(Date.now()) };
  }
  throw new Error('the run spans a local midnight in every candidate zone');
}

/** Every node's report read from the rollups (today's whole UTC day) equals it read row by row. */
async function expectRollupsAgreeWithRows() {
  const { tz, day } = zoneHoldingTheRun();
  for (const node of [admin, ...supers, ...agents]) {
    const rolled = await report(node);
    expect(figuresOf(await report(node, `from=${day}&to=${day}&tz=${tz}`)), `${node.role} ${node.id}`).toEqual(
      figuresOf(rolled),
    );
  }
}

describe(`downline report from the daily rollups (${TEST_DB}, seed ${SEED})`, () => {
  it('whole days read from the rollups equal the same activity read from the games and the ledger', async () => {
    await expectRollupsAgreeWithRows();
  });

  it('money follows an account that moves to another super agent; its games stay where they were played', async () => {
    const [first, second] = supers as [Person, Person];
    const mover = users.find((u) => u.parent?.role === 'agent' && u.parent.parent?.id === first.id) as Person;
    const movingAgent = agents.find((a) => a.parent?.id === second.id) as Person;
    const before = await report(admin);
    const move = async (who: Person, to: Person) => {
      const moved = await t.request(t.adminToken, {
        method: 'PUT',
        url: `/api/users/${who.id}`,
        payload: { parentId: to.id },
      });
      expectStatus(moved, 200);
      who.parent = to;
    };
    await move(mover, second);
    await move(movingAgent, first);

    const ledger = await checkLedger(t.database.db);
    expect(ledger.rollups, JSON.stringify(ledger)).toBe(0);
    const after = await report(admin);
    expectRowsAddUp(after);
    for (const boss of supers) {
      const row = after.rows.find((r) => r.user.id === boss.id);
      const under = [boss, ...agents, ...users].filter((p) => superOf(p)?.id === boss.id);
      expect(row?.topUps).toBe(formatCents(under.reduce((sum, p) => sum + (toppedUp.get(p.id) ?? 0), 0)));
      // Games keep the hierarchy they were played under.
      const was = before.rows.find((r) => r.user.id === boss.id);
      expect([row?.settledGames, row?.commission]).toEqual([was?.settledGames, was?.commission]);
    }
    // The mover's old agent gave it 10.00 and took 3.00 back: that money now crosses between the two.
    const rowOf = (id: number) => after.rows.find((r) => r.user.id === id);
    expect(cents(rowOf(second.id)?.transfersReceived ?? '')).toBeGreaterThanOrEqual(1000);
    expect(cents(rowOf(second.id)?.takenBack ?? '')).toBeGreaterThanOrEqual(300);
    await expectRollupsAgreeWithRows();
  });
});
