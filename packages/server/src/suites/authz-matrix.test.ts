import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskName } from '@lot/domain/mask';
import type { Role } from '@lot/domain/roles';
import { isShownPerson, type AuditEntry, type AuditPerson } from '@lot/domain/schemas/audit';
import type { DrawResult, DrawWaiting, Game } from '@lot/domain/schemas/games';
import type { Notification, Notifications } from '@lot/domain/schemas/notifications';
import type { SearchResult } from '@lot/domain/schemas/search';
import { queryRows } from '../db/client.ts';
import { configureWinners, drawAll, drawCall, openGame, participants, voidCall } from '../test/game-fixtures.ts';
import { oldClientPayload } from '../test/old-client.ts';
import { PASSWORD, type Member } from '../test/hierarchy.ts';
import { balanceOf, expectStatus, fund } from '../test/money-fixtures.ts';
import { createStoppedClockApp, moveClockPast } from '../test/stopped-clock.ts';
import { TEST_DB, type TestApp } from '../test/test-app.ts';
import { expiredToken } from '../test/tokens.ts';
import { world } from '../test/world.ts';
import {
  AUDITED_READS,
  ON_POSTGRES,
  POLICY,
  PUBLIC_CALLS,
  PURE_CALLS,
  SCOPE_AUDIT,
  SCOPE_BELL,
  SCOPE_SEARCH,
  type AuditSight,
  type BellEvent,
  type ScopeEvent,
  type ScopeViewer,
  UNAUTHENTICATED_CALLERS,
  UNAUTHENTICATED_STATUS,
  type CallName,
  statusOf,
  type Cells,
  type Outcome,
  type Relation,
  type SignedInRole,
  type Unauthenticated,
} from './authz-policy.ts';

/**
 * Issue 10, suite 1: every cell of the policy table (authz-policy.ts, decision 011) against the
 * running server: the status, and that a refused call changed nothing at all (users, balances,
 * ledger, keys, winner settings, games and games in progress). The calls that change nothing even
 * when they succeed (the compatibility path, a draw that waits, a replayed draw) are checked after a
 * success too. A game call's answer is checked as the policy's outcome says: the round waited for,
 * the position drawn, the number answered again, who voided and the pool back, the refusal's message.
 *
 * The app's clock stands still unless a cell needs a game's beacon round to have come: a frozen
 * LOT-DRAW-2 game waits for its round R for as long as the matrix needs it to.
 */

/** Where a player's game in progress stands (authz-policy.ts names them): the game calls need one or another. */
type RoundState = 'open' | 'waiting' | 'ready' | 'drawing' | 'none' | 'unknown';
/** The states a game goes through in order, each reached from the one before with one step. */
const PROGRESS = ['open', 'waiting', 'ready', 'drawing'] as const;

type Person = {
  key: string;
  id: number;
  role: Role;
  token: string;
  /** The sales-history record of the settled game it played (users). */
  game?: number;
  /** That settled game, as the game API answers it. */
  settled?: Game;
  /** Its game in progress (users), and where that stands. */
  round?: number;
  state?: RoundState;
  /** The time of that game's beacon round R, once frozen (ms). */
  roundAt?: number;
  /** The number its position 1 drew, once drawn. */
  first?: number;
  /** Position 1's prize of a game it played with every number entered (users): its claim. */
  prize?: { winnerId: number; code: string; nonce: string };
  /** Its shift (users): opened in the setup. */
  shift?: number;
};

let t: TestApp;
const people: Record<string, Person> = {};

/**
 *   admin, admin2
 *   S1 ─ A1 ─ U1, U2, (D: signed in, then deleted)
 *      └ A2
 *   S2 ─ A3 ─ U5
 */
const TREE: { key: string; role: Role; parent?: string }[] = [
  { key: 'admin2', role: 'admin' },
  { key: 'S1', role: 'superagent' },
  { key: 'S2', role: 'superagent' },
  { key: 'A1', role: 'agent', parent: 'S1' },
  { key: 'A2', role: 'agent', parent: 'S1' },
  { key: 'A3', role: 'agent', parent: 'S2' },
  { key: 'U1', role: 'user', parent: 'A1' },
  { key: 'U2', role: 'user', parent: 'A1' },
  { key: 'U5', role: 'user', parent: 'A3' },
  { key: 'D', role: 'user', parent: 'A1' },
];

/** Who each relation is, per caller (the policy's vocabulary made concrete). */
const RELATIONS: Record<SignedInRole | Unauthenticated, { caller: string } & Partial<Record<Relation, string>>> = {
  admin: { caller: 'admin', self: 'admin', child: 'S1', grandchild: 'A1', sibling: 'admin2', other: 'U5' },
  superagent: { caller: 'S1', self: 'S1', child: 'A1', grandchild: 'U1', parent: 'admin', sibling: 'S2', other: 'U5' },
  agent: { caller: 'A1', self: 'A1', child: 'U1', parent: 'S1', sibling: 'A2', other: 'U5' },
  user: { caller: 'U1', self: 'U1', parent: 'A1', sibling: 'U2', other: 'U5' },
  // Without a session: the superagent's targets; "self" is the token's owner.
  anonymous: { caller: 'S1', self: 'S1', child: 'A1', grandchild: 'U1', parent: 'admin', sibling: 'S2', other: 'U5' },
  expired: { caller: 'S1', self: 'S1', child: 'A1', grandchild: 'U1', parent: 'admin', sibling: 'S2', other: 'U5' },
  deleted: { caller: 'D', self: 'D', child: 'A1', grandchild: 'U1', parent: 'admin', sibling: 'S2', other: 'U5' },
};

/** The player's own settled game, or for someone who never plays U1's, named as theirs. */
function settledOf(target: Person): Game {
  const game = target.settled ?? people.U1?.settled;
  if (!game) throw new Error('no settled game');
  return game;
}
const recordBody = (target: Person) => ({ ...oldClientPayload(settledOf(target)), userId: target.id });
/** The same game with its first drawn number replaced by a participant's that was not drawn. */
function unplayedBody(target: Person) {
  const game = settledOf(target);
  const drawn = new Set(game.draws.map((d) => d.number));
  const picked = game.entries.find((e) => !drawn.has(e.number))?.number ?? 20;
  const draws = game.draws.map((d, i) => (i === 0 ? { ...d, number: picked } : d));
  return { ...oldClientPayload({ ...game, draws }), userId: target.id };
}
const roundOf = (target: Person) => target.round ?? 2_147_483_647;
/** The target's prize, or for someone who never plays U1's. */
function prizeOf(target: Person) {
  const prize = target.prize ?? people.U1?.prize;
  if (!prize) throw new Error('no prize');
  return prize;
}

const drawOf =
  (position: number) =>
  (p: Person): InjectOptions => ({ method: 'POST', url: `/api/games/${roundOf(p)}/draws`, payload: { position } });
const voidOf = (p: Person): InjectOptions => ({
  method: 'POST',
  url: `/api/games/${roundOf(p)}/void`,
  // afterWinner (decision 094): the drawing game's first draw may have named a winner.
  payload: { reason: 'Matrix', afterWinner: true },
});

let made = 0;
/** The HTTP request of each call against a target (null for calls that name nobody). */
const REQUESTS: Record<CallName, (target: Person) => InjectOptions> = {
  'get user': (p) => ({ method: 'GET', url: `/api/users/${p.id}` }),
  'list users': () => ({ method: 'GET', url: '/api/users?limit=1000' }),
  'list children of': (p) => ({ method: 'GET', url: `/api/users/parent/${p.id}/role/user` }),
  'get balance of': (p) => ({ method: 'GET', url: `/api/balance/${p.id}` }),
  'edit full name of': (p) => ({
    method: 'PUT',
    url: `/api/users/${p.id}`,
    payload: { fullName: 'Renamed By Matrix' },
  }),
  'change role of': (p) => ({
    method: 'PUT',
    url: `/api/users/${p.id}`,
    payload: { role: p.role === 'admin' ? 'user' : 'admin' },
  }),
  deactivate: (p) => ({ method: 'PUT', url: `/api/users/${p.id}`, payload: { status: 'inactive' } }),
  delete: (p) => ({ method: 'DELETE', url: `/api/users/${p.id}` }),
  'create user under': (p) => {
    made += 1;
    return {
      method: 'POST',
      url: '/api/users',
      payload: {
        username: `matrix_${made}`,
        password: PASSWORD,
        fullName: `Matrix ${made}`,
        role: 'user',
        parentId: p.id,
      },
    };
  },
  'top up': (p) => ({ method: 'POST', url: '/api/balance/topup', payload: { userId: p.id, amount: '1.00' } }),
  'transfer to': (p) => ({
    method: 'POST',
    url: '/api/balance/transfer',
    payload: { receiverId: p.id, amount: '1.00' },
  }),
  decrease: (p) => ({
    method: 'POST',
    url: '/api/balance/decrease',
    payload: { userId: p.id, amount: '1.00', description: 'Matrix correction' },
  }),
  'decrease without description': (p) => ({
    method: 'POST',
    url: '/api/balance/decrease',
    payload: { userId: p.id, amount: '1.00' },
  }),
  'take back from': (p) => ({
    method: 'POST',
    url: '/api/balance/take-back',
    payload: { userId: p.id, amount: '1.00', reason: 'Matrix take-back' },
  }),
  'take back without reason': (p) => ({
    method: 'POST',
    url: '/api/balance/take-back',
    payload: { userId: p.id, amount: '1.00' },
  }),
  'take back from the drawer of': (p) => ({
    method: 'POST',
    url: '/api/balance/take-back',
    payload: { userId: p.id, amount: '1.00', reason: 'Matrix drawer', fromDrawer: true },
  }),
  'read winner settings of': (p) => ({ method: 'GET', url: `/api/winners/user/${p.id}` }),
  // Inactive, so that it never changes the settings the games below are settled with.
  'create winner setting for': (p) => ({
    method: 'POST',
    url: '/api/winners',
    payload: { name: 'Matrix', percent: '10.00', position: 9, isActive: false, userId: p.id },
  }),
  'sales history of': (p) => ({ method: 'GET', url: `/api/sales-history/${p.role}/${p.id}` }),
  'read game of': (p) => ({ method: 'GET', url: `/api/sales-history/${p.game ?? 0}` }),
  'record game for': (p) => ({ method: 'POST', url: '/api/sales-history', payload: recordBody(p) }),
  'record unplayed game for': (p) => ({ method: 'POST', url: '/api/sales-history', payload: unplayedBody(p) }),
  'read server game of': (p) => ({ method: 'GET', url: `/api/games/${roundOf(p)}` }),
  'list games of': () => ({ method: 'GET', url: '/api/games?status=settled' }),
  'enter numbers in game of': (p) => ({
    method: 'PUT',
    url: `/api/games/${roundOf(p)}/entries`,
    payload: { entries: participants([1, 2, 3]) },
  }),
  'start draw in game of': drawOf(1),
  'draw in waiting game of': drawOf(1),
  'first draw after round of': drawOf(1),
  'draw in drawing game of': drawOf(2),
  'replay draw in game of': drawOf(1),
  'void open game of': voidOf,
  'void waiting game of': voidOf,
  'void drawing game of': voidOf,
  'verify game of': (p) => ({ method: 'GET', url: `/api/verify/${settledOf(p).code}` }),
  'print slip of': (p) => ({
    method: 'POST',
    url: `/api/games/${settledOf(p).id}/slips/prints`,
    payload: { kind: 'result' },
  }),
  'read slips of': (p) => ({ method: 'GET', url: `/api/games/${settledOf(p).id}/slips` }),
  'day close of': (p) => ({ method: 'GET', url: `/api/reports/day-close?date=2026-01-01&userId=${p.id}` }),
  'statement of': (p) => ({ method: 'GET', url: `/api/statements/${p.id}?from=2026-01-01&to=2026-01-02` }),
  'downline of': (p) => ({
    method: 'GET',
    url: `/api/reports/downline?from=2026-01-01&to=2026-01-02&parentId=${p.id}`,
  }),
  'remembered participants': () => ({ method: 'GET', url: '/api/games/participants' }),
  'display unknown code': () => ({ method: 'GET', url: '/api/display/AAAAAAAAAAAAAAAAAAAAAA/events' }),
  'open game': () => ({
    method: 'POST',
    url: '/api/games',
    payload: { startRange: 1, endRange: 20, betAmount: '1.00' },
  }),
  'current game': () => ({ method: 'GET', url: '/api/games/current' }),
  'verify unknown code': () => ({ method: 'GET', url: '/api/verify/AAAAAAAAAAAAAAAAAAAAAA' }),
  'game log': () => ({ method: 'GET', url: '/api/log' }),
  'game log checkpoint': () => ({ method: 'GET', url: '/log/checkpoint' }),
  // The first leaf's hash: every matrix world has opened games.
  'game log tile': () => ({ method: 'GET', url: '/log/tile/0/000.p/1' }),
  'own balance': () => ({ method: 'GET', url: '/api/balance' }),
  transactions: () => ({ method: 'GET', url: '/api/transactions?limit=10' }),
  'all winner settings': () => ({ method: 'GET', url: '/api/winners' }),
  'sales filter': () => ({ method: 'GET', url: '/api/sales-history/filter?limit=10' }),
  'search for': (p) => ({
    method: 'GET',
    url: `/api/search?q=${p.key === 'admin' ? 'admin' : `m_${p.key.toLowerCase()}`}`,
  }),
  'search game of': (p) => ({ method: 'GET', url: `/api/search?q=${settledOf(p).code}` }),
  notifications: () => ({ method: 'GET', url: '/api/notifications' }),
  backup: () => ({ method: 'GET', url: '/api/admin/backup' }),
  'audit trail': () => ({ method: 'GET', url: '/api/audit' }),
  'audit export': () => ({ method: 'GET', url: '/api/audit/export?format=csv' }),
  'audit checkpoint': () => ({ method: 'GET', url: '/api/audit/checkpoint' }),
  'look up prize of': (p) => ({
    method: 'GET',
    url: `/api/claims/lookup?code=${prizeOf(p).code}&n=${prizeOf(p).nonce}`,
  }),
  'pay prize of': (p) => ({
    method: 'POST',
    url: `/api/claims/${prizeOf(p).winnerId}/pay`,
    payload: { entryCode: prizeOf(p).nonce, claimerName: 'Matrix Winner' },
  }),
  'read receipt of': (p) => ({ method: 'GET', url: `/api/claims/${prizeOf(p).winnerId}/receipt` }),
  'print receipt of': (p) => ({ method: 'POST', url: `/api/claims/${prizeOf(p).winnerId}/receipt/prints` }),
  'extend prize of': (p) => ({
    method: 'POST',
    url: `/api/claims/${prizeOf(p).winnerId}/extend`,
    payload: { days: 1, reason: 'Matrix' },
  }),
  'approve prize of': (p) => ({
    method: 'POST',
    url: `/api/claims/${prizeOf(p).winnerId}/approve`,
    payload: { claimerIdNumber: 'M-1', reason: 'Matrix' },
  }),
  'mark prizes from before claims paid': () => ({ method: 'POST', url: '/api/claims/before-claims/paid', payload: {} }),
  'unpaid prizes': () => ({ method: 'GET', url: '/api/claims' }),
  'unpaid prizes export': () => ({ method: 'GET', url: '/api/claims/export?format=csv' }),
  'business settings': () => ({ method: 'GET', url: '/api/admin/business-settings' }),
  'change business settings': () => ({
    method: 'PUT',
    url: '/api/admin/business-settings',
    payload: { claimPeriodDays: 90, claimsAnyShopOfAgent: false },
  }),
  'read shift of': (p) => ({ method: 'GET', url: `/api/shifts/${p.shift ?? 2_147_483_647}/report` }),
  'list shifts of': () => ({ method: 'GET', url: '/api/shifts?pageSize=200' }),
  'export shifts': () => ({ method: 'GET', url: '/api/shifts/export?format=csv' }),
  'shift summary': () => ({ method: 'GET', url: '/api/shifts/summary' }),
  'current shift': () => ({ method: 'GET', url: '/api/shifts/current' }),
  'record cash movement on': (p) => ({
    method: 'POST',
    url: `/api/shifts/${p.shift ?? 2_147_483_647}/movements`,
    payload: { kind: 'paid_out', amount: '1.00', reason: 'Matrix' },
  }),
  'close shift of': (p) => ({
    method: 'POST',
    url: `/api/shifts/${p.shift ?? 2_147_483_647}/close`,
    payload: { countedCash: '0', varianceReason: 'Matrix' },
  }),
  'open shift': () => ({ method: 'POST', url: '/api/shifts', payload: { openingFloat: '0' } }),
};

/** What a list answers per item, to find the target in it (a user's id, or its settled game's). */
const LISTED_ID: Partial<Record<CallName, (target: Person) => number>> = {
  'list games of': (p) => settledOf(p).id,
  'search game of': (p) => settledOf(p).id,
  'list shifts of': (p) => p.shift ?? 0,
};
/** Where a call that is no plain list keeps the items the target is looked for in. */
const LISTED_IN: Partial<Record<CallName, (body: Record<string, unknown>) => unknown>> = {
  'list shifts of': (body) => body.items,
  'search for': (body) => body.people,
  'search game of': (body) => body.games,
};

/** The state of the target's game in progress a game call needs (users only). */
const NEEDS: Partial<Record<CallName, Exclude<RoundState, 'unknown'> | 'in progress'>> = {
  'read server game of': 'in progress',
  'current game': 'in progress',
  'enter numbers in game of': 'open',
  'start draw in game of': 'open',
  'draw in waiting game of': 'waiting',
  'first draw after round of': 'ready',
  'draw in drawing game of': 'drawing',
  'replay draw in game of': 'drawing',
  'void open game of': 'open',
  'void waiting game of': 'waiting',
  'void drawing game of': 'drawing',
  'open game': 'none',
  // A shift closes only with no game in progress.
  'close shift of': 'none',
};
/** Where the target's game stands after the call succeeded as the policy says. */
const AFTER: Partial<Record<CallName, RoundState>> = {
  'enter numbers in game of': 'open',
  'open game': 'open',
  'start draw in game of': 'waiting',
  'first draw after round of': 'drawing',
  // Two prizes: position 2 settles it.
  'draw in drawing game of': 'none',
  'void open game of': 'none',
  'void waiting game of': 'none',
  'void drawing game of': 'none',
  'close shift of': 'none',
};

const member = (p: Person): Member => ({ id: p.id, username: '', fullName: '', role: p.role, token: p.token });

/** Moves the clock past a game's round R: every game frozen before it can now draw. */
function roundCame(at: number) {
  moveClockPast(t, at);
  for (const person of Object.values(people))
    if (person.state === 'waiting' && (person.roundAt ?? Infinity) < t.now()) person.state = 'ready';
}

/**
 * Brings the player's game in progress to the state a cell needs, through the game API: a step
 * on from where it stands, or (from a state past it) an admin voids it and the player opens anew.
 */
async function prepare(p: Person, need: NonNullable<(typeof NEEDS)[CallName]>): Promise<void> {
  const inProgress = (PROGRESS as readonly string[]).includes(p.state ?? '');
  if (need === p.state || (need === 'in progress' && inProgress)) return;
  const from = PROGRESS.indexOf(p.state as (typeof PROGRESS)[number]);
  const to = PROGRESS.indexOf(need as (typeof PROGRESS)[number]);
  if (from < 0 || to < from) {
    const current = await t.request(p.token, { method: 'GET', url: '/api/games/current' });
    expectStatus(current, 200);
    const held = current.json<Game | null>();
    if (held) expectStatus(await voidCall(t, t.adminToken, held.id, 'Matrix reset'), 200);
    p.state = 'none';
    if (need === 'none') return;
    const game = await openGame(t, member(p), { numbers: [1, 2], bet: '1.00' });
    p.round = game.id;
    p.state = 'open';
  }
  const id = roundOf(p);
  if (p.state === 'open' && need !== 'open' && need !== 'in progress') {
    const frozen = await drawCall(t, p.token, id, 1);
    expectStatus(frozen, 202);
    p.roundAt = Date.parse(frozen.json<DrawWaiting>().expectedAt);
    p.state = 'waiting';
  }
  if (p.state === 'waiting' && (need === 'ready' || need === 'drawing')) roundCame(p.roundAt ?? 0);
  if (p.state === 'ready' && need === 'drawing') {
    const drawn = await drawCall(t, p.token, id, 1);
    expectStatus(drawn, 200);
    p.first = drawn.json<DrawResult>().number;
    p.state = 'drawing';
  }
  if (need !== 'in progress') expect(p.state, `prepare ${p.key} for ${need}`).toBe(need);
}

type Answer = Awaited<ReturnType<TestApp['request']>>;

/**
 * What a game call's answer must say besides its status (authz-policy.ts, GameOutcome and
 * Refusal); `returned` is what the target's balance gained. Answers the complaints.
 */
function checkAnswer(
  expected: Outcome,
  response: Answer,
  { target, caller, position, returned }: { target: Person; caller: Person; position: number; returned: number },
): string[] {
  const wrong: string[] = [];
  const want = (ok: boolean, what: string) => {
    if (!ok) wrong.push(`${what}: ${response.body.slice(0, 300)}`);
  };
  if (typeof expected === 'object') {
    want(response.json<{ message: string }>().message === expected.message, `message is not "${expected.message}"`);
    return wrong;
  }
  if (expected === 'waits') {
    const body = response.json<DrawWaiting>();
    want(body.game.id === target.round && body.game.status === 'drawing', 'not the frozen game');
    want(body.game.draws.length === 0, 'drew while waiting');
    want(body.waitingForRound === body.game.beacon?.round, 'waits for another round than the one named');
    want(body.expectedAt === body.game.beacon?.expectedAt && Date.parse(body.expectedAt) > t.now(), 'round time');
    want(!body.beaconUnreachable, 'beacon unreachable');
    want(Number(response.headers['retry-after']) >= 1, `Retry-After ${String(response.headers['retry-after'])}`);
  } else if (expected === 'draws') {
    const body = response.json<DrawResult>();
    want(body.position === position && body.game.draws[position - 1]?.number === body.number, 'not the position');
    want(body.game.draws.length === position, 'drew more than the position');
    want(!!body.game.beacon?.randomness && !!body.game.beacon.signature, "without the round's randomness");
    want(response.headers['idempotent-replayed'] === undefined, 'marked a replay');
  } else if (expected === 'answers again') {
    const body = response.json<DrawResult>();
    want(response.headers['idempotent-replayed'] === 'true', 'not marked a replay');
    want(body.position === position && body.number === target.first, `not the number drawn (${target.first})`);
  } else if (expected === 'discards' || expected === 'voids') {
    const body = response.json<Game>();
    want(body.status === (expected === 'discards' ? 'discarded' : 'voided'), 'status');
    want(body.voidedBy?.id === caller.id && body.voidedBy.role === caller.role, 'voided by someone else');
    want(body.voidReason === 'Matrix', 'reason');
    want(body.serverSeed !== null, 'seed not revealed');
    const pool = Math.round(Number(body.pool) * 100);
    want(returned === (expected === 'voids' ? pool : 0), `balance moved by ${returned}`);
    // Once R is known, a voided game shows the draws it would have made; before it, none.
    want(
      body.unplayedDraws.length === (body.beacon?.randomness ? body.prizes.length - body.draws.length : 0),
      'unplayed draws',
    );
  }
  return wrong;
}

/** Fresh tokens for everyone, with the token version now stored (a deactivation ends the old ones). */
async function resignTokens() {
  const rows = await queryRows<{ id: number; token_version: number }>(
    t.database.db,
    sql`SELECT id, token_version FROM users`,
  );
  const versions = new Map(rows.map((row) => [Number(row.id), Number(row.token_version)]));
  for (const person of Object.values(people)) {
    if (person.key === 'D') continue;
    person.token = await t.app.context.tokens.openSession({
      id: person.id,
      tokenVersion: versions.get(person.id) ?? 0,
    });
  }
}

beforeAll(async () => {
  t = await createStoppedClockApp();
  const [admin] = await queryRows<{ id: number }>(t.database.db, sql`SELECT id FROM users WHERE username = 'admin'`);
  people.admin = { key: 'admin', id: Number(admin?.id), role: 'admin', token: t.adminToken };
  for (const spec of TREE) {
    const response = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/users',
      payload: {
        username: `m_${spec.key.toLowerCase()}`,
        password: PASSWORD,
        fullName: `Member ${spec.key}`,
        role: spec.role,
        ...(spec.parent && { parentId: people[spec.parent]?.id }),
      },
    });
    expectStatus(response, 201);
    people[spec.key] = { key: spec.key, id: response.json<{ id: number }>().id, role: spec.role, token: '' };
  }
  await resignTokens();
  // D signs in for real, then the admin deletes it: its token must be worth nothing.
  const deleted = people.D as Person;
  deleted.token = await t.login('m_d', PASSWORD);
  expectStatus(await t.request(t.adminToken, { method: 'DELETE', url: `/api/users/${deleted.id}` }), 200);
  // Everyone holds money (so an allowed delete is a 409 that changes nothing) and the users have played.
  for (const person of Object.values(people)) if (person.key !== 'D') await fund(t, person.id, '1000.00');
  // Two prizes, so that a game is in progress between its first and its last draw.
  await configureWinners(t, null, [
    { percent: '50.00', position: 1 },
    { percent: '25.00', position: 2 },
  ]);
  for (const key of ['U1', 'U2', 'U5']) {
    const person = people[key] as Person;
    // First a game with every number entered: position 1 has a winner, whose prize is the claim the
    // claims calls name. Then the settled game the other calls name (the compatibility path matches
    // the player's latest).
    const all = Array.from({ length: 20 }, (_, i) => i + 1);
    const won = await drawAll(t, member(person), await openGame(t, member(person), { numbers: all, bet: '1.00' }));
    const [claim] = await queryRows<{ winner_id: number; entry_code: string }>(
      t.database.db,
      sql`SELECT c.winner_id, c.entry_code FROM prize_claims c JOIN game_winners w ON w.id = c.winner_id
        WHERE c.game_id = ${won.id} AND w.position = 1`,
    );
    if (!claim) throw new Error(`no claim for ${key}`);
    person.prize = { winnerId: Number(claim.winner_id), code: won.code, nonce: claim.entry_code };
    const shift = await t.request(person.token, {
      method: 'POST',
      url: '/api/shifts',
      payload: { openingFloat: '50' },
    });
    expectStatus(shift, 201);
    person.shift = shift.json<{ id: number }>().id;
    const settled = await drawAll(t, member(person), await openGame(t, member(person), { numbers: [1, 2, 3, 4] }));
    expect(settled.status).toBe('settled');
    person.settled = settled;
    person.game = settled.saleId ?? 0;
    person.state = 'none';
  }
  // Eleven accounts (an Argon2 hash each) and three games: over a minute on a loaded machine.
}, 180_000);
afterAll(() => t?.close());

type Cell = { call: CallName; caller: SignedInRole | Unauthenticated; relation: Relation; expected: Outcome };

function cells(): Cell[] {
  const all: Cell[] = [];
  for (const [call, rows] of Object.entries(POLICY) as [CallName, Record<SignedInRole, Cells>][]) {
    for (const [caller, row] of Object.entries(rows) as [SignedInRole, Cells][]) {
      const differs = TEST_DB === 'postgres' ? ON_POSTGRES[call]?.[caller] : undefined;
      for (const [relation, expected] of Object.entries({ ...row, ...differs }) as [Relation, Outcome][]) {
        all.push({ call, caller, relation, expected });
      }
    }
    // Without a session: the targets the superagent's row names (their relations are the superagent's).
    // A public call answers them as it answers everyone.
    for (const caller of UNAUTHENTICATED_CALLERS) {
      for (const relation of Object.keys(rows.superagent) as Relation[]) {
        all.push({ call, caller, relation, expected: PUBLIC_CALLS[call] ?? UNAUTHENTICATED_STATUS });
      }
    }
  }
  return all;
}

function tokenOf(caller: Cell['caller']): string | null {
  const person = people[RELATIONS[caller].caller] as Person;
  if (caller === 'anonymous') return null;
  if (caller === 'expired') return expiredToken(t.jwtSecret, { id: person.id, tokenVersion: 0 });
  return person.token;
}

describe(`authorization matrix (${TEST_DB})`, () => {
  it('every cell of the policy table: status as written, and a refused call changes nothing', async () => {
    const failures: string[] = [];
    const all = cells();
    // The world after the last cell, when it was read: the next cell's "before".
    let known: Awaited<ReturnType<typeof world>> | undefined;
    for (const cell of all) {
      const targetKey =
        cell.relation === 'none' ? RELATIONS[cell.caller].caller : RELATIONS[cell.caller][cell.relation];
      const target = people[targetKey ?? ''];
      if (!target) throw new Error(`no ${cell.relation} for ${cell.caller}`);
      const need = NEEDS[cell.call];
      // Only for a signed-in caller: without a session the game is never reached.
      if (need && target.role === 'user' && cell.caller in POLICY[cell.call]) {
        await prepare(target, need);
        known = undefined;
      }
      const request = REQUESTS[cell.call](target);
      const label = `${cell.call} × ${cell.caller} × ${cell.relation} (${target.key})`;
      const before = known ?? (await world(t));
      known = undefined;
      // A void's answer is checked with what it did to the shop's balance.
      const ends = cell.expected === 'voids' || cell.expected === 'discards';
      const balance = ends ? await balanceOf(t, target.id) : 0;
      const response = await t.request(tokenOf(cell.caller), request);
      const expectedStatus = statusOf(cell.expected);
      if (response.statusCode !== expectedStatus) {
        failures.push(
          `${label}: expected ${expectedStatus}, got ${response.statusCode} ${response.body.slice(0, 160)}`,
        );
      } else if (need && typeof cell.expected !== 'number') {
        const caller = people[RELATIONS[cell.caller].caller] as Person;
        const position = (request.payload as { position?: number } | undefined)?.position ?? 0;
        const returned = ends ? (await balanceOf(t, target.id)) - balance : 0;
        for (const wrong of checkAnswer(cell.expected, response, { target, caller, position, returned }))
          failures.push(`${label}: ${wrong}`);
      } else if (cell.expected === 'listed' || cell.expected === 'absent') {
        const id = (LISTED_ID[cell.call] ?? ((p: Person) => p.id))(target);
        const body = response.json<unknown>();
        const items = (LISTED_IN[cell.call]?.(body as Record<string, unknown>) ?? body) as { id: number }[];
        const listed = items.some((item) => item.id === id);
        if (listed !== (cell.expected === 'listed')) failures.push(`${label}: expected ${cell.expected}`);
      }
      const succeeded = response.statusCode < 300;
      if (succeeded && need && !PURE_CALLS.includes(cell.call)) {
        // The game moved on as the call says, or (an answer the policy did not expect) to be looked at again.
        const as = response.statusCode === expectedStatus ? AFTER[cell.call] : undefined;
        target.state = as ?? 'unknown';
        if (cell.call === 'open game') target.round = response.json<Game>().id;
        if (cell.call === 'start draw in game of' && as)
          target.roundAt = Date.parse(response.json<DrawWaiting>().expectedAt);
        if (cell.call === 'first draw after round of' && as) target.first = response.json<DrawResult>().number;
      }
      if (!succeeded || request.method === 'GET' || PURE_CALLS.includes(cell.call)) {
        const after = await world(t);
        known = after;
        // A backup handed out is an audit row, and changes nothing else.
        const audited = succeeded && AUDITED_READS.includes(cell.call) ? ['audit_log', 'audit_heads'] : [];
        for (const [table, digest] of Object.entries(before) as [keyof typeof before, string][]) {
          if (after[table] !== digest && !audited.includes(table))
            failures.push(`${label}: answered ${response.statusCode} but changed ${table}`);
        }
      }
      if (!succeeded) {
        const body = response.json<{ message?: unknown; code?: unknown }>();
        if (typeof body.message !== 'string' || typeof body.code !== 'string') {
          failures.push(`${label}: error body ${response.body}`);
        }
      }
      // A deactivation that was allowed is undone, so the next cells meet the world as set up.
      if (cell.call === 'deactivate' && succeeded) {
        await t.database.db.execute(sql`UPDATE users SET status = 'active' WHERE id = ${target.id}`);
        await resignTokens();
        known = undefined;
      }
    }
    console.log(`authorization matrix (${TEST_DB}): ${all.length} cells checked, ${failures.length} wrong`);
    expect(failures).toEqual([]);
    expect(all.length).toBeGreaterThan(500);
    // About a thousand requests, each followed by a read of the whole world: minutes on a busy machine.
  }, 600_000);
});

describe(`what the audit trail, the bell and the search show (${TEST_DB}; decision 048)`, () => {
  it('each viewer reads the bodies the policy writes, a moved shop included', async () => {
    const person = (key: string) => people[key] as Person;
    const start = await lastAuditId();
    // U5 (S2's) pays U1 (S1's) from an address of its own.
    expectStatus(
      await t.request(person('U5').token, {
        method: 'POST',
        url: '/api/balance/transfer',
        payload: { receiverId: person('U1').id, amount: '1.00' },
        remoteAddress: '198.51.100.7',
      }),
      200,
    );
    // The shop M, created under A1, topped up, its game frozen and voided by the admin; moved to A3; again.
    const created = await t.request(t.adminToken, {
      method: 'POST',
      url: '/api/users',
      payload: {
        username: 'm_moved',
        password: PASSWORD,
        fullName: 'Moved Shop',
        role: 'user',
        parentId: person('A1').id,
      },
    });
    expectStatus(created, 201);
    const id = created.json<{ id: number }>().id;
    const shop: Person = {
      key: 'M',
      id,
      role: 'user',
      token: await t.app.context.tokens.openSession({ id, tokenVersion: 0 }),
    };
    people.M = shop;
    const games: number[] = [];
    const topUps: number[] = [];
    let moveId = 0;
    for (const parent of ['A1', 'A3']) {
      if (parent === 'A3') {
        expectStatus(
          await t.request(t.adminToken, {
            method: 'PUT',
            url: `/api/users/${id}`,
            payload: { parentId: person('A3').id },
          }),
          200,
        );
        // The move writes one row.
        moveId = await lastAuditId();
      }
      topUps.push((await fund(t, id, '20.00')).transaction.id);
      const game = await openGame(t, member(shop), { numbers: [1, 2], bet: '1.00' });
      expectStatus(await drawCall(t, shop.token, game.id, 1), 202);
      expectStatus(await voidCall(t, t.adminToken, game.id, 'Matrix'), 200);
      games.push(game.id);
    }
    const [oldGame, newGame] = games as [number, number];
    const failures: string[] = [];

    // The audit trail: every row of the story, classified from the admin's full view.
    const read = async (token: string) => {
      const response = await t.request(token, { method: 'GET', url: '/api/audit?limit=500' });
      expectStatus(response, 200);
      return response.json<AuditEntry[]>().filter((entry) => entry.id > start);
    };
    const idOf = (p: AuditPerson | null) => (isShownPerson(p) ? p.id : undefined);
    const eventOf = (entry: AuditEntry): ScopeEvent | undefined => {
      const actor = idOf(entry.actor);
      const under = entry.id < moveId ? 'A1' : 'A3';
      if (entry.action === 'money.transfer' && actor === person('U5').id) return 'U5 pays U1';
      if (idOf(entry.targetUser) !== id) return undefined;
      if (entry.action === 'user.created') return 'admin creates M under A1';
      if (entry.id === moveId) return 'admin moves M from A1 to A3';
      return actor === id ? `M plays ${under === 'A1' ? 'under A1' : 'under A3'}` : `admin acts on M under ${under}`;
    };
    const story = (await read(t.adminToken)).map((entry) => ({ id: entry.id, event: eventOf(entry), entry }));
    for (const row of story)
      if (!row.event) failures.push(`audit row ${row.entry.action} #${row.id} is not in the story`);
    expect(story.find((row) => row.id === moveId)?.entry.action).toBe('user.updated');
    const fullNames = new Map<number, string>();
    for (const row of story)
      for (const p of [row.entry.actor, row.entry.targetUser]) if (isShownPerson(p)) fullNames.set(p.id, p.fullName);
    const expectedPerson = (p: AuditPerson | null, shown: 'full' | 'masked') =>
      shown === 'full' || !isShownPerson(p) ? p : { masked: true, name: maskName(fullNames.get(p.id) ?? '') };
    for (const viewer of Object.keys(SCOPE_AUDIT['U5 pays U1']) as ScopeViewer[]) {
      const seen = new Map((await read(person(viewer).token)).map((entry) => [entry.id, entry]));
      for (const row of story) {
        const sight: AuditSight = SCOPE_AUDIT[row.event as ScopeEvent][viewer];
        const got = seen.get(row.id);
        const label = `audit × ${viewer} × ${row.event} (${row.entry.action} #${row.id})`;
        if (sight === 'absent') {
          if (got) failures.push(`${label}: expected absent, got ${JSON.stringify(got)}`);
          continue;
        }
        const want = {
          ...row.entry,
          actor: expectedPerson(row.entry.actor, sight.actor),
          targetUser: expectedPerson(row.entry.targetUser, sight.target),
          address: sight.actor === 'full' ? row.entry.address : null,
        };
        if (JSON.stringify(got) !== JSON.stringify(want))
          failures.push(`${label}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      }
      seen.forEach((entry, entryId) => {
        if (!story.some((row) => row.id === entryId))
          failures.push(`audit × ${viewer}: a row outside the story #${entryId}`);
      });
    }

    // The bell: the story's events each one hears of, and who is named in them.
    const bellKey: Record<BellEvent, (nth: number) => string> = {
      'U1 receives from U5': () => `received-${story.find((row) => row.event === 'U5 pays U1')?.entry.targetId}`,
      'M topped up': (nth) => `received-${topUps[nth]}`,
      'M game voided under A1': () => `voided-${oldGame}`,
      'M game voided under A3': () => `voided-${newGame}`,
    };
    for (const [viewer, events] of Object.entries(SCOPE_BELL)) {
      const response = await t.request(person(viewer).token, { method: 'GET', url: '/api/notifications' });
      expectStatus(response, 200);
      const keys = events.map((event, i) => bellKey[event](events.slice(0, i).filter((e) => e === event).length));
      const ofStory = new Set(
        Object.values(SCOPE_BELL)
          .flat()
          .flatMap((event) => [0, 1].map(bellKey[event])),
      );
      const items = response.json<Notifications>().items.filter((item) => ofStory.has(item.key));
      const got = items.map((item) => item.key);
      if (JSON.stringify([...got].sort()) !== JSON.stringify([...keys].sort()))
        failures.push(`bell × ${viewer}: expected ${keys.join(', ') || 'none'}, got ${got.join(', ') || 'none'}`);
      for (const item of items) {
        const named = namedIn(item);
        const expected =
          item.kind === 'voided'
            ? id
            : item.key === bellKey['M topped up'](0) || item.key === bellKey['M topped up'](1)
              ? people.admin?.id
              : person('U5').id;
        if (!named || named.id !== expected || !named.username)
          failures.push(`bell × ${viewer} × ${item.key}: names ${JSON.stringify(named)}`);
      }
    }

    // The header search, after the move: M as the scope holds it now, its games as recorded.
    const codes = await queryRows<{ id: number; code: string }>(
      t.database.db,
      sql`SELECT id, code FROM game_rounds WHERE id IN (${oldGame}, ${newGame})`,
    );
    const codeOf = (gameId: number) => codes.find((row) => Number(row.id) === gameId)?.code ?? '';
    for (const [viewer, sees] of Object.entries(SCOPE_SEARCH)) {
      const search = async (q: string) => {
        const response = await t.request(person(viewer).token, { method: 'GET', url: `/api/search?q=${q}` });
        expectStatus(response, 200);
        return response.json<SearchResult>();
      };
      const found = await search('m_moved');
      const wantPeople = sees.person ? [{ id, username: 'm_moved', fullName: 'Moved Shop' }] : [];
      const gotPeople = found.people.map((p) => ({ id: p.id, username: p.username, fullName: p.fullName }));
      if (JSON.stringify(gotPeople) !== JSON.stringify(wantPeople))
        failures.push(
          `search × ${viewer} × M: expected ${JSON.stringify(wantPeople)}, got ${JSON.stringify(gotPeople)}`,
        );
      for (const [which, gameId] of [
        ['oldGame', oldGame],
        ['newGame', newGame],
      ] as const) {
        const result = await search(codeOf(gameId));
        const got = result.games.map((g) => [g.id, g.player.id]);
        const want = sees[which] ? [[gameId, id]] : [];
        if (JSON.stringify(got) !== JSON.stringify(want) || result.people.length > 0)
          failures.push(
            `search × ${viewer} × ${which}: expected ${JSON.stringify(want)}, got ${JSON.stringify(result)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

async function lastAuditId(): Promise<number> {
  const [row] = await queryRows<{ id: string | null }>(t.database.db, sql`SELECT max(id)::text AS id FROM audit_log`);
  return Number(row?.id ?? 0);
}

/** The person a bell item names: who sent the money, or whose game was voided. */
function namedIn(item: Notification): { id: number; username: string } | null | undefined {
  if (item.kind === 'received') return item.from;
  if (item.kind === 'voided') return item.player;
  return undefined;
}
