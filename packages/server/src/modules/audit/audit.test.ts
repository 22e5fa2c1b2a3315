import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isShownPerson, type AuditEntry, type AuditPerson } from '@lot/domain/schemas/audit';
import type { Game } from '@lot/domain/schemas/games';
import { queryRows, type Db } from '../../db/client.ts';
import { buildHierarchy, createMember, PASSWORD, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund, money } from '../../test/money-fixtures.ts';
import { configureWinners, drawAll, freeze, openGame, openGameCall, voidCall } from '../../test/game-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';
import { latestCheckpoint } from '../../lib/audit.ts';
import { checkLedger } from '../balance/ledger.ts';
import { verifyAudit } from './audit-chain.ts';
import { checkpointKey, describeCheckpoint, parseCheckpoint, takeCheckpoint, verifyCheckpoint } from './checkpoint.ts';
import { compareLedgerWithAudit, describeLedgerAudit } from './ledger-audit.ts';

let t: TestApp;
let h: Hierarchy;

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
});
afterAll(() => t.close());

/** The id of a person an entry shows in full (a masked one has none). */
const idOf = (person: AuditPerson | null) => (isShownPerson(person) ? person.id : undefined);

type Row = {
  id: string;
  chain: number;
  seq: number;
  actor_id: number | null;
  address: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  target_user_id: number | null;
  details: Record<string, unknown>;
};

/** The rows after `id`; bigints as text on both drivers. */
const rowsAfter = (id: number) =>
  queryRows<Row>(
    t.database.db,
    sql`SELECT id::text, chain, seq, actor_id, address, action, target_kind, target_id::text, target_user_id, details
      FROM audit_log WHERE id > ${id} ORDER BY id`,
  );

async function lastId(): Promise<number> {
  const [row] = await queryRows<{ id: string | null }>(t.database.db, sql`SELECT max(id)::text AS id FROM audit_log`);
  return Number(row?.id ?? 0);
}

/** Runs `action` and answers the audit rows it wrote. */
async function audited(action: () => Promise<unknown>): Promise<Row[]> {
  const before = await lastId();
  await action();
  return rowsAfter(before);
}

function only(rows: Row[]): Row {
  expect(rows, JSON.stringify(rows)).toHaveLength(1);
  return rows[0] as Row;
}

/** Audit rows hold no password and no hash of one, whatever the action. */
async function expectNoSecrets(): Promise<void> {
  const [row] = await queryRows<{ text: string }>(
    t.database.db,
    sql`SELECT string_agg(details::text, '') AS text FROM audit_log`,
  );
  expect(row?.text ?? '').not.toMatch(/secret-pass|new-secret|\$argon2|password"\s*:\s*"/);
}

/** Someone who owns the table can switch its triggers off: a change made that way, to see what still gives it away. */
async function bypass(db: Db, statement: ReturnType<typeof sql>) {
  await db.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER USER`);
  try {
    await db.execute(statement);
  } finally {
    await db.execute(sql`ALTER TABLE audit_log ENABLE TRIGGER USER`);
  }
}

describe(`audit trail (${TEST_DB})`, () => {
  it('records sign-ins, a failed one with no actor, and the address', async () => {
    const ok = only(await audited(() => t.login('agent_one', PASSWORD)));
    expect(ok).toMatchObject({ action: 'auth.signin', actor_id: h.A1.id, target_user_id: h.A1.id, chain: h.A1.id });
    expect(ok.address).toBe('127.0.0.1');

    const wrong = only(
      await audited(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { username: 'agent_one', password: 'nope!!' },
        }),
      ),
    );
    expect(wrong).toMatchObject({ action: 'auth.signin_failed', actor_id: null, chain: 0, target_user_id: h.A1.id });
    expect(wrong.details).toEqual({ username: 'agent_one', reason: 'wrong password' });

    const unknown = only(
      await audited(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { username: 'nobody_here', password: 'x-y-z-w' },
        }),
      ),
    );
    expect(unknown).toMatchObject({ action: 'auth.signin_failed', target_user_id: null });
    expect(unknown.details).toEqual({ username: 'nobody_here', reason: 'unknown username' });

    const inactive = only(
      await audited(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          payload: { username: 'user_six', password: PASSWORD },
        }),
      ),
    );
    expect(inactive).toMatchObject({ action: 'auth.signin_failed', target_user_id: h.U6.id });
  });

  it('records users created, edited (fields before and after), deactivated, deleted and passwords changed', async () => {
    let member: Member | undefined;
    const created = await audited(async () => {
      member = await createMember(t, {
        username: 'audited_one',
        fullName: 'Audited One',
        role: 'user',
        parentId: h.A1.id,
      });
    });
    if (!member) throw new Error('no member');
    const target = member;
    expect(created.find((r) => r.action === 'user.created')).toMatchObject({
      actor_id: h.admin.id,
      target_kind: 'user',
      target_user_id: target.id,
      details: { username: 'audited_one', role: 'user', parentId: h.A1.id },
    });

    const edited = only(
      await audited(async () =>
        expectStatus(
          await t.request(h.A1.token, {
            method: 'PUT',
            url: `/api/users/${target.id}`,
            payload: { fullName: 'Audited Renamed', password: 'new-secret-1' },
          }),
          200,
        ),
      ),
    );
    expect(edited).toMatchObject({ action: 'user.updated', actor_id: h.A1.id, target_user_id: target.id });
    expect(edited.details).toEqual({
      changes: { fullName: { from: target.fullName, to: 'Audited Renamed' } },
      passwordChanged: true,
    });

    const changed = only(
      await audited(async () => {
        const token = await t.login('audited_one', 'new-secret-1');
        expectStatus(
          await t.request(token, {
            method: 'POST',
            url: '/api/auth/change-password',
            payload: { currentPassword: 'new-secret-1', newPassword: 'new-secret-2' },
          }),
          200,
        );
      }).then((rows) => rows.filter((r) => r.action !== 'auth.signin')),
    );
    expect(changed).toMatchObject({ action: 'auth.password_changed', actor_id: target.id, target_user_id: target.id });

    const deactivated = only(
      await audited(async () =>
        expectStatus(
          await t.request(h.A1.token, {
            method: 'PUT',
            url: `/api/users/${target.id}`,
            payload: { status: 'inactive' },
          }),
          200,
        ),
      ),
    );
    expect(deactivated).toMatchObject({ action: 'user.deactivated' });
    expect(deactivated.details).toEqual({ changes: { status: { from: 'active', to: 'inactive' } } });

    const deleted = only(
      await audited(async () =>
        expectStatus(await t.request(h.A1.token, { method: 'DELETE', url: `/api/users/${target.id}` }), 200),
      ),
    );
    expect(deleted).toMatchObject({ action: 'user.deleted', actor_id: h.A1.id, target_user_id: target.id });
    await expectNoSecrets();
  });

  it('records every money call in its own statement, and a replayed key only once', async () => {
    const topup = only(await audited(() => fund(t, h.S1.id, '100.00')));
    expect(topup).toMatchObject({
      action: 'money.topup',
      actor_id: h.admin.id,
      target_kind: 'transaction',
      target_user_id: h.S1.id,
    });
    expect(topup.details).toEqual({ amount: '100.00', from: h.admin.id, to: h.S1.id, description: null });

    const send = () => money(t, h.S1.token, 'transfer', { receiverId: h.A1.id, amount: '30.00' }, 'audit-key-1');
    const transfer = only(await audited(async () => expectStatus(await send(), 200)));
    expect(transfer).toMatchObject({
      action: 'money.transfer',
      actor_id: h.S1.id,
      chain: h.S1.id,
      target_user_id: h.A1.id,
    });
    const [ledger] = await queryRows<{ id: string }>(t.database.db, sql`SELECT max(id)::text AS id FROM transactions`);
    expect(transfer.target_id).toBe(ledger?.id);
    expect(await audited(async () => expectStatus(await send(), 200))).toEqual([]);

    const correction = only(
      await audited(async () =>
        expectStatus(
          await money(t, t.adminToken, 'decrease', { userId: h.A1.id, amount: '1.00', description: 'fix' }),
          200,
        ),
      ),
    );
    expect(correction).toMatchObject({ action: 'money.correction', target_user_id: h.A1.id });
    expect(correction.details).toMatchObject({ amount: '1.00', description: 'fix' });

    const takeBack = only(
      await audited(async () =>
        expectStatus(await money(t, h.S1.token, 'take-back', { userId: h.A1.id, amount: '2.00', reason: 'back' }), 200),
      ),
    );
    expect(takeBack).toMatchObject({ action: 'money.takeback', actor_id: h.S1.id, target_user_id: h.A1.id });
  });

  it('a refused or failed action leaves no row', async () => {
    const refusals = await audited(async () => {
      // Above the balance, out of scope, an unknown receiver, a username taken, a delete of someone holding money.
      expectStatus(
        await money(t, h.U5.token, 'transfer', { receiverId: h.U1.id, amount: '999999.00' }, 'refused-1'),
        422,
      );
      expectStatus(await money(t, h.S2.token, 'topup', { userId: h.U1.id, amount: '1.00' }), 403);
      expectStatus(await money(t, h.S2.token, 'transfer', { receiverId: h.U1.id, amount: '1.00' }), 404);
      expectStatus(await money(t, h.A1.token, 'take-back', { userId: h.U5.id, amount: '1.00', reason: 'x' }), 404);
      expectStatus(
        await t.request(t.adminToken, {
          method: 'POST',
          url: '/api/users',
          payload: { username: 'agent_one', password: PASSWORD, fullName: 'Again', role: 'agent', parentId: h.S1.id },
        }),
        409,
      );
      expectStatus(await t.request(t.adminToken, { method: 'DELETE', url: `/api/users/${h.S1.id}` }), 409);
      expectStatus(
        await t.request(h.A1.token, { method: 'PUT', url: `/api/users/${h.U5.id}`, payload: { fullName: 'Nope' } }),
        404,
      );
      expectStatus(await voidCall(t, h.U1.token, 999_999, 'no such game'), 404);
      expectStatus(
        await t.request(h.U1.token, {
          method: 'POST',
          url: '/api/auth/change-password',
          payload: { currentPassword: 'wrong!', newPassword: 'abcdefg' },
        }),
        400,
      );
    });
    expect(refusals).toEqual([]);
  });

  it('records winner settings created, edited and deleted, and games opened, voided and settled', async () => {
    let ids: number[] = [];
    const created = await audited(async () => {
      ids = await configureWinners(t, h.U2.id, [{ percent: '50', position: 1 }]);
    });
    expect(only(created)).toMatchObject({ action: 'winner.created', target_kind: 'winner', target_user_id: h.U2.id });
    const id = ids[0] as number;
    const edited = only(
      await audited(async () =>
        expectStatus(
          await t.request(t.adminToken, {
            method: 'PUT',
            url: `/api/winners/${id}`,
            payload: { name: 'First', percent: '40', position: 1, isActive: true },
          }),
          200,
        ),
      ),
    );
    expect(edited.details).toEqual({
      changes: { name: { from: 'Prize 1', to: 'First' }, percent: { from: '50.00', to: '40.00' } },
    });

    await fund(t, h.U2.id, '100.00');
    let game: Game | undefined;
    const opened = only(
      await audited(async () => {
        const response = await openGameCall(t, h.U2.token, { startRange: 1, endRange: 20, betAmount: '1.00' });
        expectStatus(response, 201);
        game = response.json<Game>();
      }),
    );
    expect(opened).toMatchObject({
      action: 'game.opened',
      actor_id: h.U2.id,
      target_kind: 'game',
      target_id: String(game?.id),
    });
    const voided = only(
      await audited(async () => expectStatus(await voidCall(t, h.U2.token, game?.id ?? 0, 'changed my mind'), 200)),
    );
    expect(voided).toMatchObject({
      action: 'game.voided',
      details: { reason: 'changed my mind', status: 'discarded' },
    });

    const settled = await audited(async () => {
      const played = await openGame(t, h.U2, { numbers: [1, 2, 3] });
      await drawAll(t, h.U2, played);
    });
    // LOT-DRAW-2: the first draw request freezes the game (202); the draw comes once its beacon round exists.
    expect(settled.map((r) => r.action)).toEqual([
      'game.opened',
      'game.entries_changed',
      'game.frozen',
      'game.drawn',
      'game.settled',
    ]);
    expect(settled[2]).toMatchObject({
      actor_id: h.U2.id,
      details: { protocol: 'LOT-DRAW-2', entries: 3, pool: '30.00', beaconRound: expect.any(Number) },
    });
    expect(settled[3]).toMatchObject({ actor_id: h.U2.id, details: { position: 1 } });
    expect(settled[4]).toMatchObject({ target_user_id: h.U2.id, details: { pool: '30.00' } });

    const deleted = only(
      await audited(async () =>
        expectStatus(await t.request(t.adminToken, { method: 'DELETE', url: `/api/winners/${id}` }), 200),
      ),
    );
    expect(deleted).toMatchObject({ action: 'winner.deleted', target_id: String(id), target_user_id: h.U2.id });
  });

  it('the database refuses to change or remove a row', async () => {
    for (const statement of [
      sql`UPDATE audit_log SET action = 'auth.signin' WHERE id = 1`,
      sql`DELETE FROM audit_log WHERE id = 1`,
      sql`TRUNCATE audit_log`,
    ]) {
      await expect(t.database.db.execute(statement)).rejects.toThrow();
    }
    expect((await verifyAudit(t.database.db)).ok).toBe(true);
  });

  it('the admin reads every entry, filters them and exports them; the hierarchy reads its own', async () => {
    const list = async (token: string, query = '') => {
      const response = await t.request(token, { method: 'GET', url: `/api/audit${query}` });
      expectStatus(response, 200);
      return { items: response.json<AuditEntry[]>(), total: Number(response.headers['x-total-count']) };
    };
    const all = await list(t.adminToken, '?limit=500');
    expect(all.total).toBe(all.items.length);
    expect(all.items[0]?.id).toBeGreaterThan(all.items[1]?.id ?? Infinity);

    const transfers = await list(t.adminToken, '?action=money.transfer&actor=super_one');
    expect(transfers.items.length).toBeGreaterThan(0);
    expect(transfers.items.every((e) => e.action === 'money.transfer' && idOf(e.actor) === h.S1.id)).toBe(true);
    const byTarget = await list(t.adminToken, `?target=agent_one&action=money.correction`);
    expect(byTarget.items.map((e) => idOf(e.targetUser))).toEqual([h.A1.id]);
    const future = await list(
      t.adminToken,
      `?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`,
    );
    expect(future.total).toBe(0);
    const past = await list(
      t.adminToken,
      `?to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=1`,
    );
    expect(past.total).toBe(all.total);

    // S1 sees its own hierarchy (S1, A1, A2, their users) and not S2's; A1 only itself and its users.
    const mine = (await list(h.S1.token, '?limit=500')).items;
    expect(mine.length).toBeGreaterThan(0);
    // Each entry is about someone of S1's hierarchy (as it stood then; a user since deleted stays
    // named), shown in full.
    for (const entry of mine) expect([entry.actor, entry.targetUser].some(isShownPerson)).toBe(true);
    expect(mine.some((e) => idOf(e.actor) === h.S2.id || idOf(e.targetUser) === h.S2.id)).toBe(false);
    const agent = (await list(h.A1.token, '?limit=500')).items;
    expect(agent.some((e) => idOf(e.targetUser) === h.S1.id && idOf(e.actor) !== h.A1.id)).toBe(false);
    expect(agent.some((e) => e.action === 'money.transfer' && idOf(e.targetUser) === h.A1.id)).toBe(true);

    expectStatus(await t.request(h.U1.token, { method: 'GET', url: '/api/audit' }), 403);
    expectStatus(await t.request(h.U1.token, { method: 'GET', url: '/api/audit/export?format=csv' }), 403);
    expectStatus(await t.request(null, { method: 'GET', url: '/api/audit' }), 401);

    const csv = await t.request(t.adminToken, {
      method: 'GET',
      url: '/api/audit/export?format=csv&action=money.topup',
    });
    expectStatus(csv, 200);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Action');
    expect(lines.slice(1).every((line) => line.includes('money.topup'))).toBe(true);
  });

  it('the hierarchy reads rows about its people as they stood then; a counterpart outside it is masked (decision 048)', async () => {
    const list = async (member: Member, query = '') => {
      const response = await t.request(member.token, { method: 'GET', url: `/api/audit?limit=500${query}` });
      expectStatus(response, 200);
      return response.json<AuditEntry[]>();
    };
    const start = await lastId();
    const since = (entries: AuditEntry[]) => entries.filter((e) => e.id > start);

    // U5, in S2's branch, sends money to U1 in S1's, from an address of its own.
    await fund(t, h.U5.id, '10.00');
    const transfer = await t.request(h.U5.token, {
      method: 'POST',
      url: '/api/balance/transfer',
      payload: { receiverId: h.U1.id, amount: '1.00' },
      remoteAddress: '198.51.100.7',
    });
    expectStatus(transfer, 200);
    const sent = (entries: AuditEntry[]) =>
      since(entries).filter((e) => e.action === 'money.transfer' && e.details.to === h.U1.id);

    // A1 and S1 see the row about their U1, the sender masked: no id, no username, no address.
    for (const viewer of [h.A1, h.S1]) {
      const [row, ...more] = sent(await list(viewer));
      expect(more).toEqual([]);
      expect(row?.actor).toEqual({ masked: true, name: 'U*** F***' });
      expect(row?.address).toBeNull();
      expect(row?.targetUser).toEqual({ id: h.U1.id, username: 'user_one', fullName: 'User One' });
      expect(JSON.stringify(row)).not.toMatch(/user_five|User Five|198\.51\.100\.7/);
      // Nor does a filter tell who it was.
      expect(sent(await list(viewer, '&actor=user_five'))).toEqual([]);
      expect(sent(await list(viewer, `&userId=${h.U5.id}`))).toEqual([]);
    }
    // A3, U5's agent, sees its own U5 in full with the address, and U1 masked; A2 nothing.
    const [theirs] = sent(await list(h.A3));
    expect(theirs?.actor).toEqual({ id: h.U5.id, username: 'user_five', fullName: 'User Five' });
    expect(theirs?.address).toBe('198.51.100.7');
    expect(theirs?.targetUser).toEqual({ masked: true, name: 'U*** O***' });
    expect(sent(await list(h.A2))).toEqual([]);
    // The export masks the same way.
    const csv = await t.request(h.A1.token, {
      method: 'GET',
      url: '/api/audit/export?format=csv&action=money.transfer',
    });
    expectStatus(csv, 200);
    expect(csv.body).toContain('U*** F***');
    expect(csv.body).not.toMatch(/user_five|198\.51\.100\.7/);
    // Its own upline is named (A1 knows S1 from its profile), the upline's address still hidden.
    await fund(t, h.S1.id, '10.00');
    expectStatus(
      await t.request(h.S1.token, {
        method: 'POST',
        url: '/api/balance/transfer',
        payload: { receiverId: h.A1.id, amount: '1.00' },
        remoteAddress: '198.51.100.8',
      }),
      200,
    );
    const [fromUpline] = since(await list(h.A1, '&action=money.transfer')).filter((e) => e.details.to === h.A1.id);
    expect(fromUpline?.actor).toEqual({ id: h.S1.id, username: h.S1.username, fullName: h.S1.fullName });
    expect(fromUpline?.address).toBeNull();

    await configureWinners(t, null, [{ percent: '50', position: 1 }]);
    // A shop plays under A1, then the admin moves it to A3 in S2's branch, where it plays again.
    const shop = await createMember(t, {
      username: 'moving_shop',
      fullName: 'Moving Shop',
      role: 'user',
      parentId: h.A1.id,
    });
    await fund(t, shop.id, '50.00');
    const before = await openGameCall(t, shop.token, { startRange: 1, endRange: 20, betAmount: '1.00' });
    expectStatus(before, 201);
    const moveAt = await lastId();
    expectStatus(
      await t.request(t.adminToken, { method: 'PUT', url: `/api/users/${shop.id}`, payload: { parentId: h.A3.id } }),
      200,
    );
    const [move] = await rowsAfter(moveAt);
    await fund(t, shop.id, '5.00');
    expectStatus(await voidCall(t, shop.token, before.json<Game>().id, 'moved'), 200);
    const after = await openGameCall(t, shop.token, { startRange: 1, endRange: 20, betAmount: '1.00' });
    expectStatus(after, 201);
    const gameRows = (entries: AuditEntry[]) =>
      since(entries)
        .filter((e) => e.action.startsWith('game.') || e.action.startsWith('money.') || e.action === 'user.updated')
        .filter((e) => idOf(e.targetUser) === shop.id)
        .map((e) => `${e.action} ${e.targetKind === 'game' ? e.targetId : ''}`.trim());
    const oldGame = before.json<Game>().id;
    const newGame = after.json<Game>().id;
    // The rule of games (readableByRecord): a game stays with the hierarchy it was played under…
    for (const [viewer, status] of [
      [h.A1, [200, 404]],
      [h.A3, [404, 200]],
    ] as const) {
      const seen = [];
      for (const id of [oldGame, newGame])
        seen.push((await t.request(viewer.token, { method: 'GET', url: `/api/games/${id}` })).statusCode);
      expect(seen).toEqual(status);
    }
    // …and so does each audit row: a row about a game goes with the game (its void after the move
    // stays A1's), any other row with the hierarchy the shop stood in then; the move is both's.
    const underA1 = ['money.topup', `game.opened ${oldGame}`, 'user.updated', `game.voided ${oldGame}`];
    const underA3 = ['user.updated', 'money.topup', `game.opened ${newGame}`];
    expect(move).toMatchObject({ action: 'user.updated', target_user_id: shop.id });
    for (const viewer of [h.A1, h.S1]) expect(gameRows(await list(viewer)).reverse()).toEqual(underA1);
    for (const viewer of [h.A3, h.S2]) expect(gameRows(await list(viewer)).reverse()).toEqual(underA3);
    expect(gameRows(await list(h.A2))).toEqual([]);
  });

  it('refuses a From after To, and a page over 1,000 rows, with a plain message on the field', async () => {
    const day = (offset: number) => encodeURIComponent(new Date(Date.now() + offset * 86_400_000).toISOString());
    for (const url of [
      `/api/audit?from=${day(0)}&to=${day(-1)}`,
      `/api/audit/export?format=csv&from=${day(0)}&to=${day(-1)}`,
    ]) {
      const refused = await t.request(t.adminToken, { method: 'GET', url });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json(), url).toMatchObject({
        message: 'From must be on or before To',
        fieldErrors: { from: 'From must be on or before To' },
      });
    }
    // One instant for both is a period, not a mistake.
    expectStatus(await t.request(t.adminToken, { method: 'GET', url: `/api/audit?from=${day(0)}&to=${day(0)}` }), 200);
    // At most 1,000 rows a page, as every other list (docs/product/validation-and-errors.md#list-queries).
    expectStatus(await t.request(t.adminToken, { method: 'GET', url: '/api/audit?limit=1000' }), 200);
    const tooMany = await t.request(t.adminToken, { method: 'GET', url: '/api/audit?limit=1001' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ fieldErrors: { limit: 'Choose at most 1,000 rows per page' } });
  });

  it('audit:verify names a ledger entry whose amount was changed with both balances adjusted', async () => {
    const db = t.database.db;
    // A game held, then voided by the shop's agent: its pool comes back.
    await configureWinners(t, h.U2.id, [{ percent: '50', position: 1 }]);
    const held = await openGame(t, h.U2, { numbers: [4, 5] });
    await freeze(t, h.U2.token, held.id);
    expectStatus(await voidCall(t, h.A1.token, held.id, 'power cut'), 200);
    // Everything so far (top-ups, transfers, corrections, take-backs, games held, settled and voided) agrees.
    expect(await compareLedgerWithAudit(db)).toMatchObject({ ok: true, mismatches: [] });
    await fund(t, h.S1.id, '100.00');
    const sent = await money(t, h.S1.token, 'transfer', { receiverId: h.A1.id, amount: '1.00' });
    expectStatus(sent, 200);
    const ledgerId = sent.json<{ transaction: { id: number } }>().transaction.id;
    const [audit] = await queryRows<{ id: string }>(
      db,
      sql`SELECT id::text FROM audit_log WHERE target_kind = 'transaction' AND target_id = ${ledgerId}`,
    );
    // 1.00 becomes 100.00 in the database, and both balances move by the 99.00 that follows.
    await db.execute(sql`UPDATE transactions SET amount = 10000 WHERE id = ${ledgerId}`);
    await db.execute(sql`UPDATE balances SET amount = amount - 9900 WHERE user_id = ${h.S1.id}`);
    await db.execute(sql`UPDATE balances SET amount = amount + 9900 WHERE user_id = ${h.A1.id}`);
    expect((await checkLedger(db)).ok).toBe(true);
    expect((await verifyAudit(db)).ok).toBe(true);
    const report = await compareLedgerWithAudit(db);
    expect(report.ok).toBe(false);
    expect(report.mismatches[0]).toEqual({
      ledgerId,
      auditId: Number(audit?.id),
      problem: `ledger entry ${ledgerId} (transfer of 100.00 from user ${h.S1.id} to user ${h.A1.id}): its audit row ${audit?.id} says 1.00`,
    });
    expect(describeLedgerAudit(report)[1]).toBe(`First mismatch: ${report.mismatches[0]?.problem}`);

    // The receiver changed instead: named too.
    await db.execute(sql`UPDATE transactions SET amount = 100, receiver_id = ${h.A2.id} WHERE id = ${ledgerId}`);
    expect((await compareLedgerWithAudit(db)).mismatches[0]?.problem).toMatch(
      new RegExp(`its audit row ${audit?.id} says to user ${h.A1.id}, about user ${h.A1.id}$`),
    );
    await db.execute(sql`UPDATE transactions SET receiver_id = ${h.A1.id} WHERE id = ${ledgerId}`);
    await db.execute(sql`UPDATE balances SET amount = amount + 9900 WHERE user_id = ${h.S1.id}`);
    await db.execute(sql`UPDATE balances SET amount = amount - 9900 WHERE user_id = ${h.A1.id}`);
    expect((await compareLedgerWithAudit(db)).ok).toBe(true);
  });

  it('audit:verify --checkpoint names a chain deleted with its head, and a chain truncated, since the checkpoint', async () => {
    const db = t.database.db;
    const folder = mkdtempSync(join(tmpdir(), 'lot-checkpoint-'));
    try {
      const key = checkpointKey(folder);
      const file = join(folder, 'checkpoints', 'one.json');
      const { checkpoint } = await takeCheckpoint(db, key, file, new Date(t.now()));
      expect(await latestCheckpoint(db)).toMatchObject({ digest: checkpoint.digest, madeAt: checkpoint.madeAt });
      // The admin sees it; nobody else.
      const shown = await t.request(t.adminToken, { method: 'GET', url: '/api/audit/checkpoint' });
      expectStatus(shown, 200);
      expect(shown.json()).toEqual({
        digest: checkpoint.digest,
        madeAt: checkpoint.madeAt,
        chains: checkpoint.chains.length,
        rows: checkpoint.auditRows,
      });
      expectStatus(await t.request(h.S1.token, { method: 'GET', url: '/api/audit/checkpoint' }), 403);
      const saved = parseCheckpoint(readFileSync(file, 'utf8'));
      expect(await verifyCheckpoint(db, saved, key)).toMatchObject({ ok: true, signed: true, otherKey: false });
      // A file changed afterwards fails its signature.
      const forged = { ...saved, chains: saved.chains.map((c) => ({ ...c, seq: c.seq + 1 })) };
      expect(await verifyCheckpoint(db, forged)).toMatchObject({ ok: false, signed: false });

      // S2's whole chain and its head: two DELETE statements. The chains alone still look whole.
      const s2 = saved.chains.find((c) => c.chain === h.S2.id);
      expect(s2?.seq).toBeGreaterThan(0);
      await bypass(db, sql`DELETE FROM audit_log WHERE chain = ${h.S2.id}`);
      await db.execute(sql`DELETE FROM audit_heads WHERE chain = ${h.S2.id}`);
      // U2's last two rows, and its head moved back onto the row before them.
      const u2 = saved.chains.find((c) => c.chain === h.U2.id);
      if (!u2 || u2.seq < 3) throw new Error('U2 has too short a chain');
      await bypass(db, sql`DELETE FROM audit_log WHERE chain = ${h.U2.id} AND seq > ${u2.seq - 2}`);
      await db.execute(sql`UPDATE audit_heads h SET seq = l.seq, hash = l.hash, prev_hash = l.prev_hash
        FROM audit_log l WHERE h.chain = ${h.U2.id} AND l.chain = h.chain AND l.seq = ${u2.seq - 2}`);
      expect((await verifyAudit(db)).ok).toBe(true);

      const report = await verifyCheckpoint(db, saved, key);
      expect(report.ok).toBe(false);
      expect(report.problems.map((p) => p.chain).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        [h.S2.id, h.U2.id].sort((a, b) => a - b),
      );
      const problem = (chain: number) => report.problems.find((p) => p.chain === chain)?.problem;
      expect(problem(h.S2.id)).toBe(
        `chain ${h.S2.id} (super_two): deleted, its head and all its rows are gone (the checkpoint had seq ${s2?.seq}, ${s2?.rows} rows)`,
      );
      expect(problem(h.U2.id)).toBe(
        `chain ${h.U2.id} (user_two): truncated, its head is at seq ${u2.seq - 2}, the checkpoint had seq ${u2.seq}; ${u2.seq - 2} of its ${u2.rows} rows remain`,
      );
      expect(describeCheckpoint(report)).toContain(`First: ${report.problems[0]?.problem}`);
      // Another key's checkpoint is still checked, and said to be another's.
      expect((await verifyCheckpoint(db, saved, checkpointKey(join(folder, 'other')))).otherKey).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('audit:verify names the first row edited, removed or inserted behind the triggers', async () => {
    const db = t.database.db;
    expect(await verifyAudit(db)).toMatchObject({ ok: true });
    const [middle] = await queryRows<{ id: string; chain: number; seq: number }>(
      db,
      sql`SELECT id::text, chain, seq FROM audit_log WHERE chain = ${h.admin.id} AND seq = 3`,
    );
    if (!middle) throw new Error('no third admin row');
    // Someone who owns the table can switch its triggers off; the chain still gives them away.
    const firstBad = async () => {
      const report = await verifyAudit(db);
      expect(report.ok).toBe(false);
      return report.problems[0];
    };

    await bypass(db, sql`UPDATE audit_log SET address = '10.9.9.9' WHERE id = ${middle.id}::bigint`);
    expect(await firstBad()).toMatchObject({ id: Number(middle.id), chain: h.admin.id, seq: 3 });
    await bypass(db, sql`UPDATE audit_log SET address = '127.0.0.1' WHERE id = ${middle.id}::bigint`);
    expect((await verifyAudit(db)).ok).toBe(true);

    // Inserted: a row slipped in at the end of a chain, linked to the last one but not in the heads.
    const [tail] = await queryRows<{ seq: number; hash: Buffer }>(
      db,
      sql`SELECT seq, hash FROM audit_heads WHERE chain = ${h.U1.id}`,
    );
    if (!tail) throw new Error('no head');
    await bypass(
      db,
      sql`INSERT INTO audit_log (chain, seq, actor_id, action, prev_hash, hash)
      VALUES (${h.U1.id}, ${tail.seq + 1}, ${h.U1.id}, 'money.topup', ${tail.hash}, sha256('forged'::bytea))`,
    );
    const inserted = await firstBad();
    expect(inserted).toMatchObject({ chain: h.U1.id, seq: tail.seq + 1 });
    expect(inserted?.id).not.toBeNull();
    await bypass(db, sql`DELETE FROM audit_log WHERE chain = ${h.U1.id} AND seq = ${tail.seq + 1}`);
    expect((await verifyAudit(db)).problems).toEqual([]);

    // Removed: the row after it no longer follows on.
    await bypass(db, sql`DELETE FROM audit_log WHERE id = ${middle.id}::bigint`);
    const removed = await firstBad();
    expect(removed).toMatchObject({ chain: h.admin.id, seq: 4 });
    expect(removed?.problem).toMatch(/expected seq 3/);
  });
});
