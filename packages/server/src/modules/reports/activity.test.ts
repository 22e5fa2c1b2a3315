import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatCents } from '@lot/domain/money';
import type { Role } from '@lot/domain/roles';
import type { Activity } from '@lot/domain/schemas/reports';
import { backdate, configureWinners, listGames, playGame } from '../../test/game-fixtures.ts';
import { createMember, type Member } from '../../test/hierarchy.ts';
import { cents, createMoneyTestApp, expectStatus, fund, money, seededRandom } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';

/**
 * The activity report (docs/product/reports.md#activity) on a random hierarchy whose games are
 * spread over the last 60 days: for every caller the days add up to what the sales history answers
 * for the same scope and period (and for the period before), nobody sees another branch, top-ups
 * count money once however far it is passed down, and bad periods are refused with a clear message.
 */

const SEED = Number(process.env.ACTIVITY_SEED ?? Date.now() % 100_000);
const random = seededRandom(SEED);
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const DAY_MS = 86_400_000;

let t: TestApp;
let admin: Member;
type Person = Member & { parent?: Person };
const supers: Person[] = [];
const agents: Person[] = [];
const users: Person[] = [];
let toppedUp = 0;

let made = 0;
async function create(role: Role, parent?: Person): Promise<Person> {
  made += 1;
  const spec = { username: `act_${made}_${SEED}`, fullName: `Activity ${role} ${made}`, role, parentId: parent?.id };
  return { ...(await createMember(t, spec)), parent };
}

async function topUp(id: number, amount: number) {
  await fund(t, id, formatCents(amount));
  toppedUp += amount;
}

beforeAll(async () => {
  t = await createMoneyTestApp();
  admin = { id: 0, username: 'admin', fullName: '', role: 'admin', token: t.adminToken };
  admin.id = (await t.request(t.adminToken, { method: 'GET', url: '/api/balance' })).json<{ userId: number }>().userId;
  await configureWinners(t, null, [
    { percent: '50', position: 1 },
    { percent: '20', position: 2 },
  ]);
  for (let s = 0; s < 2; s++) {
    const boss = await create('superagent', undefined);
    supers.push(boss);
    const agent = await create('agent', boss);
    agents.push(agent);
    for (let u = between(1, 2); u > 0; u--) users.push(await create('user', agent));
    users.push(await create('user', boss));
  }
  users.push(await create('user'));

  // The chain admin → super agent → agent → user: the money enters the system once.
  const [boss] = supers;
  const [agent] = agents;
  const chained = users.find((user) => user.parent === agent);
  if (!boss || !agent || !chained) throw new Error('no chain');
  await topUp(boss.id, 100_000);
  expectStatus(await money(t, boss.token, 'transfer', { receiverId: agent.id, amount: '600.00' }), 200);
  expectStatus(await money(t, agent.token, 'transfer', { receiverId: chained.id, amount: '300.00' }), 200);

  // Games at random instants over the last 60 days (some in the period before the last 30).
  for (const user of users) {
    await topUp(user.id, 50_000);
    for (let game = between(1, 4); game > 0; game--) {
      const numbers = [...new Set(Array.from({ length: between(2, 6) }, () => between(1, 20)))];
      const sale = await playGame(t, user, { numbers, bet: formatCents(between(100, 500)) });
      const at = new Date(Date.now() - Math.floor(random() * 60 * DAY_MS));
      await backdate(t, sale.id, at.toISOString());
    }
  }
  // One account created 40 days ago: it counts in the period before the last 30 days.
  await t.database.db.execute(
    sql`UPDATE users SET created_at = now() - interval '40 days' WHERE id = ${users[0]?.id ?? 0}`,
  );
}, 240_000);

afterAll(async () => {
  await t.close();
});

async function activity(by: Member, query: string): Promise<Activity> {
  const response = await t.request(by.token, { method: 'GET', url: `/api/reports/activity?${query}` });
  expectStatus(response, 200);
  return response.json<Activity>();
}

/** The sales history's totals of one caller's own scope between two instants (to exclusive). */
async function salesTotals(by: Member, from: string, to: string) {
  const path = by.role === 'admin' ? '/api/sales-history/filter' : `/api/sales-history/${by.role}/${by.id}`;
  const last = new Date(Date.parse(to) - 1).toISOString();
  const list = await listGames(t, by.token, `${path}?from=${from}&to=${last}&limit=1`);
  return { games: list.total, commission: list.totalCommission };
}

function daySums(report: Activity) {
  const sum = (pick: (day: Activity['days'][number]) => string) =>
    formatCents(report.days.reduce((total, day) => total + cents(pick(day)), 0));
  return {
    games: report.days.reduce((total, day) => total + day.games, 0),
    pool: sum((day) => day.pool),
    prizes: sum((day) => day.prizes),
    commission: sum((day) => day.commission),
  };
}

const ZONES = ['UTC', 'Asia/Kolkata', 'America/Los_Angeles'];

describe(`activity report (${TEST_DB}, seed ${SEED})`, () => {
  it('every day of the period is there in order, and the days add up to the sales history of the same scope', async () => {
    const everyone: Member[] = [admin, ...supers, ...agents, ...users];
    for (const [index, by] of everyone.entries()) {
      const tz = ZONES[index % ZONES.length] ?? 'UTC';
      const report = await activity(by, `days=30&tz=${encodeURIComponent(tz)}`);
      expect(report.timeZone).toBe(tz);
      expect(report.days).toHaveLength(30);
      report.days.forEach((day, position) => {
        expect(day.date).toBe(new Date(Date.parse(report.firstDay) + position * DAY_MS).toISOString().slice(0, 10));
        expect(cents(day.pool)).toBe(cents(day.prizes) + cents(day.commission));
      });
      expect(report.lastDay).toBe(
        new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
          new Date(),
        ),
      );
      expect(daySums(report)).toEqual(report.totals);
      expect(await salesTotals(by, report.from, report.to)).toEqual({
        games: report.totals.games,
        commission: report.totals.commission,
      });
      expect(report.previous.to).toBe(report.from);
      expect(Date.parse(report.from) - Date.parse(report.previous.from)).toBeGreaterThan(29 * DAY_MS);
      expect(await salesTotals(by, report.previous.from, report.previous.to)).toEqual({
        games: report.previous.games,
        commission: report.previous.commission,
      });
    }
    const all = await activity(admin, 'days=60');
    expect(all.totals.games + all.previous.games).toBeGreaterThan(0);
  });

  it('a chosen period of whole local days answers the same as the sales history', async () => {
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 44 * DAY_MS).toISOString().slice(0, 10);
    for (const by of [admin, supers[1] ?? admin, agents[0] ?? admin]) {
      const report = await activity(by, `from=${from}&to=${to}&tz=Europe%2FMadrid`);
      expect(report.days).toHaveLength(45);
      expect(report.firstDay).toBe(from);
      expect(report.lastDay).toBe(to);
      expect(await salesTotals(by, report.from, report.to)).toEqual({
        games: report.totals.games,
        commission: report.totals.commission,
      });
    }
  });

  it("nobody sees another branch: the branches' activity adds up to the admin's", async () => {
    const range = 'days=60&tz=UTC';
    const total = await activity(admin, range);
    const parts = await Promise.all([
      ...supers.map((boss) => activity(boss, range)),
      ...users.filter((user) => !user.parent).map((user) => activity(user, range)),
    ]);
    total.days.forEach((day, position) => {
      expect(parts.reduce((sum, part) => sum + (part.days[position]?.games ?? 0), 0)).toBe(day.games);
      expect(formatCents(parts.reduce((sum, part) => sum + cents(part.days[position]?.pool ?? '0'), 0))).toBe(day.pool);
    });
    // Each super agent's days are its agents' and its direct users' days, nobody else's.
    for (const boss of supers) {
      const own = await activity(boss, range);
      const below = await Promise.all(
        [...agents.filter((a) => a.parent === boss), ...users.filter((u) => u.parent === boss)].map((m) =>
          activity(m, range),
        ),
      );
      expect(own.totals.games).toBe(below.reduce((sum, part) => sum + part.totals.games, 0));
    }
  });

  it('top-ups count the money that entered the system once, however far it is passed down', async () => {
    const report = await activity(admin, 'days=30');
    expect(report.topUps).toEqual({ current: formatCents(toppedUp), previous: '0.00' });
    const [boss] = supers;
    const own = await activity(boss ?? admin, 'days=30');
    const intoBranch =
      100_000 + 50_000 * users.filter((user) => user.parent?.parent === boss || user.parent === boss).length;
    expect(own.topUps.current).toBe(formatCents(intoBranch));
  });

  it('new accounts: created in scope in the period and in the one before', async () => {
    const report = await activity(admin, 'days=30');
    expect(report.newAccounts).toEqual({
      superagent: { current: supers.length, previous: 0 },
      agent: { current: agents.length, previous: 0 },
      user: { current: users.length - 1, previous: 1 },
    });
    const [boss] = supers;
    const own = await activity(boss ?? admin, 'days=30');
    const mine = users.filter((user) => user.parent === boss || user.parent?.parent === boss);
    expect(own.newAccounts.agent.current).toBe(1);
    expect(own.newAccounts.user.current + own.newAccounts.user.previous).toBe(mine.length);
    expect(own.newAccounts.superagent).toEqual({ current: 0, previous: 0 });
  });

  it.each([
    ['days=0', 'days must be at least 1'],
    ['days=400', 'days must be at most 366'],
    ['days=abc', 'days must be a whole number of days'],
    ['days=2.5', 'days must be a whole number of days'],
    ['', 'Give days, or from and to'],
    ['days=30&from=2026-01-01&to=2026-01-31', 'Give either days or from and to, not both'],
    ['from=2026-01-01', 'to is required with from'],
    ['from=2026-02-01&to=2026-01-01', 'to must be on or after from'],
    ['from=2024-01-01&to=2026-01-01', 'The period can be at most 366 days'],
    ['from=2026-13-01&to=2026-12-01', 'from must be a day as YYYY-MM-DD'],
    ['days=30&tz=Mars%2FOlympus', 'tz must be a time zone such as Europe/Madrid or UTC'],
  ])('%s is refused: %s', async (query, message) => {
    const response = await t.request(t.adminToken, { method: 'GET', url: `/api/reports/activity?${query}` });
    expectStatus(response, 400);
    expect(response.json<{ message: string }>().message).toBe(message);
  });

  it('needs a signed-in caller', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/reports/activity?days=30' });
    expect(response.statusCode).toBe(401);
  });
});
