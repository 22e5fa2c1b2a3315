import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents } from '@lot/domain/money';
import type { Role } from '@lot/domain/roles';
import { queryRows } from '../db/client.ts';
import { balances as balancesTable, users } from '../db/schema.ts';
import { checkLedger } from '../modules/balance/ledger.ts';
import { configureWinners, gamePayload } from '../test/game-fixtures.ts';
import { createMoneyTestApp } from '../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../test/test-app.ts';
import { world, type World } from '../test/world.ts';

/**
 * Issue 10, suite 2: random sequences of money and account calls through the HTTP API, checked
 * after every step against a small in-memory model written from DESIGN.md sections 2 and 3:
 * the status each call must get, every balance, the number of ledger rows, and that a refused
 * call changed nothing at all. Idempotency keys are replayed and reused with another body.
 *
 * MODEL_RUNS × MODEL_STEPS bound the run (SOAK=1 for the long one). A failing sequence is
 * printed as JSON: add it to money-model.regressions.json and it is replayed on every run.
 */

const SOAK = process.env.SOAK === '1';
/** Per-test time limit: the soak runs for many minutes. */
const LIMIT = SOAK ? 3_600_000 : 600_000;
const RUNS = Number(process.env.MODEL_RUNS ?? (SOAK ? 150 : 8));
const STEPS = Number(process.env.MODEL_STEPS ?? (SOAK ? 60 : 30));

const WHO = ['admin', 'S', 'A', 'U1', 'U2', 'U3', 'X'] as const;
type Who = (typeof WHO)[number];
const PLAYERS = ['U1', 'U2', 'U3', 'X'] as const;

/** S ─ A ─ U1, U2; S ─ U3; X has no parent. A fresh set per run; the admin is shared. */
const SHAPE: Record<Exclude<Who, 'admin'>, { role: Role; parent?: Who }> = {
  S: { role: 'superagent' },
  A: { role: 'agent', parent: 'S' },
  U1: { role: 'user', parent: 'A' },
  U2: { role: 'user', parent: 'A' },
  U3: { role: 'user', parent: 'S' },
  X: { role: 'user' },
};

/** An amount as a client may send it: a 2-decimal string, or a JSON number. */
type Amount = { cents: number; asNumber: boolean };

export type Action =
  | { kind: 'topup'; by: Who; to: Who; amount: Amount; keyed: boolean }
  | { kind: 'transfer'; by: Who; to: Who; amount: Amount; keyed: boolean }
  | { kind: 'decrease'; by: Who; of: Who; amount: Amount; keyed: boolean }
  | { kind: 'game'; by: Who; players: number; betCents: number; drawn: [number, number]; keyed: boolean }
  | { kind: 'status'; by: Who; of: Who; status: 'active' | 'inactive' }
  | { kind: 'delete'; by: Who; of: Who }
  | { kind: 'replay' }
  | { kind: 'reuse key' };

// ---------------------------------------------------------------- the model

type Person = {
  role: Role;
  parent?: Who;
  status: 'active' | 'inactive';
  deleted: boolean;
  balance: number;
  ver: number;
};
type Model = Record<Who, Person>;

const live = (m: Model, w: Who) => !m[w].deleted;
const canAct = (m: Model, w: Who) => live(m, w) && m[w].status === 'active';

/** DESIGN.md 3: admin everyone; superagent itself, its agents and users under it or them; agent itself and its users; user itself. */
function inScope(m: Model, caller: Who, target: Who): boolean {
  if (!live(m, target)) return false;
  if (target === caller) return true;
  const parent = m[target].parent;
  switch (m[caller].role) {
    case 'admin':
      return true;
    case 'superagent':
      return parent === caller || (parent !== undefined && m[parent].role === 'agent' && m[parent].parent === caller);
    case 'agent':
      return parent === caller;
    default:
      return false;
  }
}

/** Who may receive a transfer: a user reaches other active users of role user, the others their scope. */
function reaches(m: Model, caller: Who, target: Who): boolean {
  if (m[caller].role !== 'user') return inScope(m, caller, target);
  return live(m, target) && m[target].role === 'user' && m[target].status === 'active' && target !== caller;
}

type Expected = { status: number; apply?: () => void };

const POOL = (a: Extract<Action, { kind: 'game' }>) => a.players * a.betCents;

/** The status a call must get in this state, and what it does to the state when it succeeds. */
function expected(m: Model, a: MoneyOrAccount): Expected {
  if (!canAct(m, a.by)) return { status: 401 };
  switch (a.kind) {
    case 'topup':
      if (m[a.by].role !== 'admin') return { status: 403 };
      if (!live(m, a.to)) return { status: 404 };
      return { status: 200, apply: () => void (m[a.to].balance += a.amount.cents) };
    case 'transfer': {
      const amount = a.amount.cents;
      if (a.to === a.by) return { status: 400 };
      if (!reaches(m, a.by, a.to)) return { status: 404 };
      if (m[a.to].status !== 'active') return { status: 422 };
      if (m[a.by].balance < amount) return { status: 422 };
      return {
        status: 200,
        apply: () => {
          m[a.by].balance -= amount;
          m[a.to].balance += amount;
        },
      };
    }
    case 'decrease':
      if (m[a.by].role !== 'admin' && a.of !== a.by) return { status: 403 };
      if (!live(m, a.of)) return { status: 404 };
      if (m[a.of].balance < a.amount.cents) return { status: 422 };
      return { status: 200, apply: () => void (m[a.of].balance -= a.amount.cents) };
    case 'game':
      if (m[a.by].role !== 'user') return { status: 403 };
      if (m[a.by].balance < POOL(a)) return { status: 422 };
      return { status: 201, apply: () => void (m[a.by].balance -= POOL(a)) };
    case 'status': {
      if (!inScope(m, a.by, a.of)) return { status: 404 };
      if (a.of === a.by) return { status: a.status === m[a.of].status ? 200 : 400 };
      return {
        status: 200,
        apply: () => {
          // Deactivation ends the person's sessions.
          if (a.status === 'inactive' && m[a.of].status === 'active') m[a.of].ver += 1;
          m[a.of].status = a.status;
        },
      };
    }
    case 'delete': {
      if (m[a.by].role === 'user') return { status: 403 };
      if (!inScope(m, a.by, a.of)) return { status: 404 };
      if (a.of === a.by) return { status: 403 };
      if (m[a.of].balance !== 0) return { status: 409 };
      if (WHO.some((w) => m[w].parent === a.of && live(m, w))) return { status: 409 };
      return {
        status: 200,
        apply: () => {
          m[a.of].deleted = true;
          m[a.of].ver += 1;
        },
      };
    }
  }
}

// ---------------------------------------------------------------- the real thing

let t: TestApp;
let adminId = 0;
let runs = 0;
let steps = 0;

type MoneyOrAccount = Exclude<Action, { kind: 'replay' | 'reuse key' }>;
type Keyed = { key: string; action: MoneyOrAccount; stored: unknown };
const MONEY: Action['kind'][] = ['topup', 'transfer', 'decrease', 'game'];

/** The same call with another body: one cent more, or a bet one unit higher. */
function changed(action: MoneyOrAccount): MoneyOrAccount {
  if ('amount' in action) return { ...action, amount: { ...action.amount, cents: action.amount.cents + 1 } };
  if (action.kind === 'game') return { ...action, betCents: action.betCents + 100 };
  return action;
}

/** One run: a fresh hierarchy, the actions one by one, model and server compared after each. */
async function runSequence(actions: Action[]): Promise<void> {
  runs += 1;
  const run = runs;
  const ids = { admin: adminId } as Record<Who, number>;
  // Each run's people are written straight into the database: no one signs in (tokens are
  // issued below), and an Argon2 hash per person per run would be most of the suite's time.
  for (const [who, shape] of Object.entries(SHAPE) as [Exclude<Who, 'admin'>, (typeof SHAPE)['S']][]) {
    const [row] = await t.database.db
      .insert(users)
      .values({
        username: `mm${run}_${who.toLowerCase()}`,
        passwordHash: 'not-a-password-hash',
        fullName: `Model ${who}`,
        role: shape.role,
        parentId: shape.parent ? ids[shape.parent] : null,
        parentRole: shape.parent ? SHAPE[shape.parent as Exclude<Who, 'admin'>].role : null,
      })
      .returning({ id: users.id });
    ids[who] = Number(row?.id);
    await t.database.db.insert(balancesTable).values({ userId: ids[who], amount: 0 });
  }
  const readBalances = async () => {
    const rows = await queryRows<{ user_id: number; amount: string }>(
      t.database.db,
      sql`SELECT user_id, amount::text AS amount FROM balances WHERE user_id IN ${sql.raw(`(${Object.values(ids).join(',')})`)}`,
    );
    const byId = new Map(rows.map((row) => [Number(row.user_id), Number(row.amount)]));
    return Object.fromEntries(WHO.map((w) => [w, byId.get(ids[w]) ?? -1])) as Record<Who, number>;
  };
  const ledgerRows = async () => {
    const [row] = await queryRows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM transactions`);
    return Number(row?.n);
  };
  const initial = await readBalances();
  const m = Object.fromEntries(
    WHO.map((w) => [
      w,
      {
        role: w === 'admin' ? 'admin' : SHAPE[w].role,
        parent: w === 'admin' ? undefined : SHAPE[w].parent,
        status: 'active',
        deleted: false,
        balance: initial[w],
        ver: 0,
      } satisfies Person,
    ]),
  ) as Model;

  const token = (w: Who) => (w === 'admin' ? t.adminToken : t.app.signToken({ id: ids[w], tokenVersion: m[w].ver }));
  const amountOf = (a: Amount) => (a.asNumber ? a.cents / 100 : formatCents(a.cents));
  const requestOf = (a: MoneyOrAccount, key?: string): InjectOptions => {
    const headers = key ? { 'idempotency-key': key } : {};
    switch (a.kind) {
      case 'topup':
        return {
          method: 'POST',
          url: '/api/balance/topup',
          headers,
          payload: { userId: ids[a.to], amount: amountOf(a.amount) },
        };
      case 'transfer':
        return {
          method: 'POST',
          url: '/api/balance/transfer',
          headers,
          payload: { receiverId: ids[a.to], amount: amountOf(a.amount) },
        };
      case 'decrease':
        return {
          method: 'POST',
          url: '/api/balance/decrease',
          headers,
          payload: { userId: ids[a.of], amount: amountOf(a.amount) },
        };
      case 'game':
        return {
          method: 'POST',
          url: '/api/sales-history',
          headers,
          payload: gamePayload(ids[a.by], {
            numbers: Array.from({ length: a.players }, (_, i) => i + 1),
            drawn: a.drawn,
            percents: ['50.00', '25.00'],
            bet: formatCents(a.betCents),
          }),
        };
      case 'status':
        return { method: 'PUT', url: `/api/users/${ids[a.of]}`, payload: { status: a.status } };
      case 'delete':
        return { method: 'DELETE', url: `/api/users/${ids[a.of]}` };
    }
  };

  /** The last call sent with an Idempotency-Key, and its answer if the key now holds one. */
  let last: Keyed | undefined;
  /** The world after the previous step: the next step's "before". */
  let known: World | undefined;
  for (const [index, action] of actions.entries()) {
    steps += 1;
    const where = `run ${run} step ${index} ${JSON.stringify(action)}`;
    let call: MoneyOrAccount;
    let key: string | undefined;
    /** What the server must answer from the key instead of running the call. */
    let fromKey: { status: number; body?: unknown } | undefined;
    if (action.kind === 'replay' || action.kind === 'reuse key') {
      if (!last) continue;
      key = last.key;
      call = last.action;
      if (action.kind === 'replay') {
        if (last.stored) fromKey = { status: 200, body: last.stored };
      } else {
        // The same key with another body: 422 while the key holds an answer, else a fresh call.
        call = changed(last.action);
        if (last.stored) fromKey = { status: 422 };
      }
    } else {
      call = action;
      key = 'keyed' in action && action.keyed ? `run-${run}-step-${index}` : undefined;
    }
    // The session is checked before the key: without one, nothing is answered from it.
    const want: Expected = !canAct(m, call.by) ? { status: 401 } : (fromKey ?? expected(m, call));
    const before = known ?? (await world(t));
    const rowsBefore = await ledgerRows();
    const response = await t.request(token(call.by), requestOf(call, key));
    expect(response.statusCode, `${where}: ${response.body}`).toBe(want.status);
    const ok = response.statusCode < 300;
    const replayed = ok && fromKey !== undefined;
    if (replayed) {
      // A replay answers the first response and changes nothing.
      expect(response.headers['idempotent-replayed'], where).toBe('true');
      expect(response.json(), where).toEqual(fromKey?.body);
    } else {
      want.apply?.();
    }
    const moved = ok && !replayed && MONEY.includes(call.kind);
    expect(await ledgerRows(), `${where}: ledger rows`).toBe(rowsBefore + (moved ? 1 : 0));
    known = await world(t);
    if (!ok || replayed) expect(known, `${where}: refused or replayed, yet something changed`).toEqual(before);
    const balances = await readBalances();
    for (const w of WHO) expect(balances[w], `${where}: balance of ${w}`).toBe(m[w].balance);
    if (key !== undefined && moved) last = { key, action: call, stored: response.json() };
    else if (key !== undefined && action.kind !== 'replay' && action.kind !== 'reuse key')
      last = { key, action: call, stored: null };
  }
  const report = await checkLedger(t.database.db);
  expect(report.ok, JSON.stringify(report)).toBe(true);
}

// ---------------------------------------------------------------- the generator

const who = fc.constantFrom(...WHO);
const amount: fc.Arbitrary<Amount> = fc.record({
  cents: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 5_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 5_001, max: 500_000 }) },
  ),
  asNumber: fc.boolean(),
});
const keyed = fc.boolean();
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('topup'),
      by: fc.oneof(fc.constant('admin'), who),
      to: who,
      amount,
      keyed,
    }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('transfer'), by: who, to: who, amount, keyed }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('decrease'), by: who, of: who, amount, keyed }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('game'),
      by: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PLAYERS) }, { weight: 1, arbitrary: who }),
      players: fc.integer({ min: 1, max: 6 }),
      betCents: fc.integer({ min: 100, max: 2_000 }),
      drawn: fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 })),
      keyed,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('status'),
      by: who,
      of: who,
      status: fc.constantFrom('active', 'inactive'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete'), by: who, of: who }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'replay' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reuse key' }) },
) as fc.Arbitrary<Action>;

type Regression = { note: string; actions: Action[] };
const regressions = JSON.parse(
  readFileSync(new URL('./money-model.regressions.json', import.meta.url), 'utf8'),
) as Regression[];

beforeAll(async () => {
  t = await createMoneyTestApp();
  const [admin] = await queryRows<{ id: number }>(t.database.db, sql`SELECT id FROM users WHERE username = 'admin'`);
  adminId = Number(admin?.id);
  // Global winner settings: every player's game pays 50 % and 25 % of the pool.
  await configureWinners(t, null, [
    { percent: '50.00', position: 1 },
    { percent: '25.00', position: 2 },
  ]);
});
afterAll(() => t?.close());

describe(`money model (${TEST_DB})`, () => {
  it.each(regressions.map((r) => [r.note, r] as const))('regression: %s', async (_note, regression) => {
    await runSequence(regression.actions);
  });

  it(
    `${RUNS} random runs of up to ${STEPS} steps agree with the model after every step`,
    async () => {
      const before = { runs, steps };
      await fc.assert(
        fc.asyncProperty(
          fc.array(actionArb, { minLength: Math.ceil(STEPS / 2), maxLength: STEPS, size: 'max' }),
          (actions) => runSequence(actions),
        ),
        {
          numRuns: RUNS,
          ...(process.env.MODEL_SEED && { seed: Number(process.env.MODEL_SEED) }),
          reporter: (details) => {
            if (!details.failed) return;
            console.log(
              `money model failed (seed ${details.seed}). Add to money-model.regressions.json:\n` +
                JSON.stringify({ note: `seed ${details.seed}`, actions: details.counterexample?.[0] }),
            );
            throw new Error(fc.defaultReportMessage(details));
          },
        },
      );
      console.log(
        `money model (${TEST_DB}): ${runs - before.runs} runs, ${steps - before.steps} steps, every step checked`,
      );
    },
    LIMIT,
  );
});
