import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimLookup, ClaimPaid, ClaimsList, PayoutReceipt, PrizeClaim } from '@lot/domain/schemas/claims';
import type { Game } from '@lot/domain/schemas/games';
import { formatDateTimeIn } from '@lot/domain/dates';
import { queryRows } from '../../db/client.ts';
import { configureWinners, drawAll, entryCodeOf, openGame, proofOf } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy, type Member } from '../../test/hierarchy.ts';
import { books, createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';
import { expireDue } from './claims.repository.ts';

/**
 * Prize claims (decision 038): a prize is paid at most once, by the shop that ran the game (or a
 * shop of the same agent when the admin allows it), moves no balance, expires after the claim
 * period unless extended; the Unpaid prizes list follows the scope.
 */

let t: TestApp;
let h: Hierarchy;
/** U1's settled game (two prizes, every number entered: both have winners) and U2's. */
let one: Game;
let two: Game;

const ALL = Array.from({ length: 20 }, (_, i) => i + 1);

/** The claims of a game by prize position, with the winners' entry codes, as stored. */
async function claimsOf(game: Game) {
  return queryRows<{ winner_id: number; position: number; entry_code: string; amount: string; status: string }>(
    t.database.db,
    sql`SELECT c.winner_id, w.position, c.entry_code, c.amount::text, c.status FROM prize_claims c
      JOIN game_winners w ON w.id = c.winner_id WHERE c.game_id = ${game.id} ORDER BY w.position`,
  );
}
async function claimAt(game: Game, position: number) {
  const claim = (await claimsOf(game)).find((c) => Number(c.position) === position);
  if (!claim) throw new Error(`no claim at ${position}`);
  return { ...claim, winner_id: Number(claim.winner_id) };
}

/** A payout with the slip's entry code, unless the body names its own. */
const pay = async (member: Member, winnerId: number, key?: string, body: object = { claimerName: 'Walk-in Winner' }) =>
  t.request(member.token, {
    method: 'POST',
    url: `/api/claims/${winnerId}/pay`,
    payload: { entryCode: await entryCodeOf(t, winnerId), ...body },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const get = (member: Member | string, url: string) =>
  t.request(typeof member === 'string' ? member : member.token, { method: 'GET', url });
const setAnyShop = async (on: boolean) =>
  expectStatus(
    await t.request(t.adminToken, {
      method: 'PUT',
      url: '/api/admin/business-settings',
      payload: { claimPeriodDays: 90, claimsAnyShopOfAgent: on },
    }),
    200,
  );
const auditCount = async (action: string, winnerId: number) => {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`SELECT count(*)::int AS n FROM audit_log WHERE action = ${action} AND target_id = ${winnerId}`,
  );
  return Number(row?.n);
};

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '60', position: 1, name: 'First' },
    { percent: '40', position: 2, name: 'Second' },
  ]);
  for (const member of [h.U1, h.U2]) await fund(t, member.id, '1000.00');
  one = await drawAll(t, h.U1, await openGame(t, h.U1, { numbers: ALL, bet: '1.00' }));
  two = await drawAll(t, h.U2, await openGame(t, h.U2, { numbers: ALL, bet: '1.00' }));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe(`prize claims (${TEST_DB})`, () => {
  it('a settled game has an unpaid claim per prize with the entry code; the lookup finds it by slip or typed code', async () => {
    const claims = await claimsOf(one);
    expect(claims.map((c) => [Number(c.position), c.amount, c.status])).toEqual([
      [1, '1200', 'unpaid'],
      [2, '800', 'unpaid'],
    ]);
    const winner = one.entries.find((e) => e.number === one.draws[0]?.number);
    expect(claims[0]?.entry_code).toBe(winner?.nonce);
    const scanned = await get(h.U1, `/api/claims/lookup?code=${one.code}&n=${winner?.nonce}`);
    expectStatus(scanned, 200);
    const found = scanned.json<ClaimLookup>();
    expect(found.game).toMatchObject({ id: one.id, code: one.code, shopName: 'User One', protocol: 'LOT-DRAW-2' });
    expect(found.winner?.name).not.toBe(winner?.name);
    expect(found.prizes).toEqual([
      expect.objectContaining({ position: 1, prizeName: 'First', amount: '12.00', status: 'unpaid', mayPay: true }),
    ]);
    // Typed: upper case with spaces.
    const typed = (winner?.nonce ?? '').toUpperCase().replace(/(.{4})/g, '$1 ');
    const byEntry = await get(h.U1, `/api/claims/lookup?entry=${encodeURIComponent(typed)}`);
    expect(byEntry.json<ClaimLookup>().prizes.map((p) => p.winnerId)).toEqual([Number(claims[0]?.winner_id)]);
    // An entry that won nothing, an unknown code.
    const loser = one.entries.find((e) => !one.draws.some((d) => d.number === e.number));
    const none = await get(h.U1, `/api/claims/lookup?entry=${loser?.nonce}`);
    expectStatus(none, 200);
    expect(none.json()).toEqual({
      game: found.game,
      winner: null,
      prizes: [],
      noPrize: 'This entry won no prize',
    });
    expect(found.noPrize).toBeNull();
    const unknown = await get(h.U1, '/api/claims/lookup?entry=0123456789abcdef');
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No entry slip has this code' });
    // The public proof shows the claim, without the claimer.
    const proof = await proofOf(t, one.code);
    expect(proof.draws[0]?.claim).toMatchObject({ status: 'unpaid', paidAt: null, shopName: null });
  });

  it('who may pay: another agent’s shop 404, a sibling shop 403 until the setting allows it, upline 403', async () => {
    const { winner_id: id } = await claimAt(one, 2);
    expectStatus(await pay(h.U5, id), 404);
    expectStatus(await pay(h.U3, id), 404);
    expectStatus(await pay(h.A1, id), 403);
    expectStatus(await pay(h.admin, id), 403);
    const sibling = await pay(h.U2, id);
    expectStatus(sibling, 403);
    expect(sibling.json()).toMatchObject({
      code: 'OTHER_SHOP',
      message: 'Only the shop that ran this game can pay this prize',
    });
    await setAnyShop(true);
    try {
      const paid = await pay(h.U2, id, undefined, { claimerName: '  Ana  ', claimerIdNumber: 'ID-7' });
      expectStatus(paid, 200);
      expect(paid.json<ClaimPaid>().claim).toMatchObject({
        status: 'paid',
        paidAtShop: 'User Two',
        claimerName: 'Ana',
        claimerIdNumber: 'ID-7',
      });
    } finally {
      await setAnyShop(false);
    }
    // The receipt: the game's shop and the payer read it; prints after the first are COPY.
    const receipt = await get(h.U1, `/api/claims/${id}/receipt`);
    expectStatus(receipt, 200);
    expect(receipt.json<PayoutReceipt>()).toMatchObject({ printCount: 0, game: { code: one.code } });
    const print = () => t.request(h.U2.token, { method: 'POST', url: `/api/claims/${id}/receipt/prints` });
    expect((await print()).json()).toEqual({ printCount: 1, copy: false });
    expect((await print()).json()).toEqual({ printCount: 2, copy: true });
    expectStatus(await get(h.U5, `/api/claims/${id}/receipt`), 404);
  });

  it('ten concurrent payouts pay once, move no balance; the nine others and a later claim get the first payout', async () => {
    const { winner_id: id } = await claimAt(one, 1);
    const before = await books(t);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => pay(h.U1, id, `pay-${id}-${i}`)));
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(1);
    const first = ok[0]?.json<ClaimPaid>().claim as PrizeClaim;
    const message = `Already paid at User One on ${formatDateTimeIn(first.paidAt ?? '', 'UTC')} UTC`;
    expect(message).toMatch(/ on [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M UTC$/);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) {
      expectStatus(refused, 409);
      expect(refused.json()).toMatchObject({ code: 'ALREADY_PAID', message, claim: { status: 'paid' } });
    }
    expect(await books(t)).toEqual({ ...before, keys: before.keys + 1 });
    const later = await pay(h.U1, id, 'pay-later', { claimerName: 'Someone Else' });
    expectStatus(later, 409);
    expect(later.json()).toMatchObject({ message, claim: { paidAt: first.paidAt, claimerName: 'Walk-in Winner' } });
    expect(await auditCount('claim.paid', id)).toBe(1);
    expect(await auditCount('claim.refused', id)).toBe(10);
    // The refusal names the time on the caller's wall clock when the browser says its zone; an unknown zone is UTC.
    const refusalIn = async (zone: string) =>
      (
        await t.request(h.U1.token, { method: 'GET', url: `/api/claims/${id}/receipt`, headers: { 'time-zone': zone } })
      ).json<PayoutReceipt>().claim.refusal;
    expect(await refusalIn('Europe/Moscow')).toBe(
      `Already paid at User One on ${formatDateTimeIn(first.paidAt ?? '', 'Europe/Moscow')}`,
    );
    expect(await refusalIn('Mars/Olympus')).toBe(message);
    // The payout's key answers it again.
    const key = answers.indexOf(ok[0] as (typeof answers)[number]);
    const replay = await pay(h.U1, id, `pay-${id}-${key}`);
    expectStatus(replay, 200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await proofOf(t, one.code)).draws[0]?.claim).toMatchObject({ status: 'paid', shopName: 'User One' });
  });

  it('an unpaid claim past its time expires (audited); the admin extends it and it can be paid', async () => {
    const { winner_id: id } = await claimAt(two, 1);
    await t.database.db.execute(
      sql`UPDATE prize_claims SET expires_at = now() - interval '1 day' WHERE winner_id = ${id}`,
    );
    const refused = await pay(h.U2, id);
    expectStatus(refused, 409);
    expect(refused.json()).toMatchObject({ code: 'CLAIM_EXPIRED' });
    expect(refused.json<{ message: string }>().message).toMatch(
      /^This prize expired on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC$/,
    );
    // Reads show it expired before the sweep marks it: the list's status filter, its totals, the export.
    const ids = async (status: string) =>
      (await get(h.U2, `/api/claims?status=${status}`)).json<ClaimsList>().items.map((c) => c.winnerId);
    expect(await ids('unpaid')).not.toContain(id);
    expect(await ids('expired')).toEqual([id]);
    const expiredList = (await get(h.A1, '/api/claims?status=expired')).json<ClaimsList>();
    expect(expiredList.totals).toEqual({ count: 1, amount: '12.00' });
    expect(expiredList.items[0]).toMatchObject({ winnerId: id, status: 'expired', mayPay: false });
    const csv = (await get(h.U2, '/api/claims/export?format=csv&status=expired')).body.trim().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(',expired,');
    // The sweep (every minute in the server) records it once, with its audit row.
    await expireDue(t.database.db);
    await expireDue(t.database.db);
    expect((await claimAt(two, 1)).status).toBe('expired');
    expect(await auditCount('claim.expired', id)).toBe(1);
    expectStatus(
      await t.request(h.A1.token, {
        method: 'POST',
        url: `/api/claims/${id}/extend`,
        payload: { days: 7, reason: 'Winner was abroad' },
      }),
      403,
    );
    const extended = await t.request(t.adminToken, {
      method: 'POST',
      url: `/api/claims/${id}/extend`,
      payload: { days: 7, reason: 'Winner was abroad' },
    });
    expectStatus(extended, 200);
    const claim = extended.json<PrizeClaim>();
    expect(claim.status).toBe('unpaid');
    expect(Date.parse(claim.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(await auditCount('claim.extended', id)).toBe(1);
    expectStatus(await pay(h.U2, id), 200);
    const again = await t.request(t.adminToken, {
      method: 'POST',
      url: `/api/claims/${id}/extend`,
      payload: { days: 7, reason: 'Again' },
    });
    expectStatus(again, 409);
  });

  it('the Unpaid prizes list follows the scope; the export has the same rows', async () => {
    // Unpaid now: U2's second prize only.
    const { winner_id: unpaid } = await claimAt(two, 2);
    const listed = async (member: Member | string, query = '') => {
      const response = await get(member, `/api/claims${query}`);
      expectStatus(response, 200);
      return response.json<ClaimsList>();
    };
    expect((await listed(h.U2)).items.map((c) => c.winnerId)).toEqual([unpaid]);
    expect((await listed(h.U1)).items).toEqual([]);
    for (const upline of [h.A1, h.S1, t.adminToken]) {
      const list = await listed(upline);
      expect(list.items.map((c) => c.winnerId)).toEqual([unpaid]);
      expect(list.totals).toEqual({ count: 1, amount: '8.00' });
    }
    for (const outsider of [h.A2, h.S2, h.U5]) expect((await listed(outsider)).total).toBe(0);
    const all = await listed(h.A1, '?status=all&pageSize=3');
    expect(all).toMatchObject({ total: 4, pageSize: 3 });
    expect(all.items).toHaveLength(3);
    expect((await listed(h.U1, '?status=paid')).items.map((c) => c.position)).toEqual([2, 1]);
    const csv = await get(h.A1, '/api/claims/export?format=csv&status=all');
    expectStatus(csv, 200);
    expect(csv.body.trim().split('\r\n')).toHaveLength(5);
    // A paid prize's line carries its payout receipt's number, as the receipt prints it.
    const paidId = (await listed(h.U1, '?status=paid')).items[0]?.winnerId ?? 0;
    expect(csv.body).toContain(`,P-${String(paidId).padStart(6, '0')}`);

    // One game's claims by its sale (the winners page), still scoped; the export filters alike.
    const [sale] = await queryRows<{ sale_id: number }>(
      t.database.db,
      sql`SELECT sale_id FROM game_rounds WHERE id = ${two.id}`,
    );
    const saleId = Number(sale?.sale_id);
    const ofSale = await listed(h.U2, `?status=all&saleId=${saleId}`);
    expect(ofSale.items.map((c) => [c.gameId, c.position])).toEqual([
      [two.id, 2],
      [two.id, 1],
    ]);
    expect((await listed(h.U1, `?status=all&saleId=${saleId}`)).total).toBe(0);
    const saleCsv = await get(h.A1, `/api/claims/export?format=csv&status=all&saleId=${saleId}`);
    expect(saleCsv.body.trim().split('\r\n')).toHaveLength(3);
    expectStatus(await get(h.U2, '/api/claims?saleId=x'), 400);
  });

  it('business settings: the admin reads and changes them (audited); others 403; a game not drawn yet is a 409', async () => {
    expectStatus(await get(h.A1, '/api/admin/business-settings'), 403);
    const put = await t.request(t.adminToken, {
      method: 'PUT',
      url: '/api/admin/business-settings',
      payload: { claimPeriodDays: 30, claimsAnyShopOfAgent: false },
    });
    expect(put.json()).toEqual({ claimPeriodDays: 30, claimsAnyShopOfAgent: false });
    expect((await get(t.adminToken, '/api/admin/business-settings')).json()).toEqual(put.json());
    const [audit] = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'settings.updated'`,
    );
    expect(Number(audit?.n)).toBe(3);
    const open = await openGame(t, h.U1, { numbers: [1, 2] });
    const early = await get(h.U1, `/api/claims/lookup?code=${open.code}&n=${open.entries[0]?.nonce}`);
    expectStatus(early, 409);
    expect(early.json()).toMatchObject({ message: 'This game has not been drawn yet' });
  });

  it('a payout needs the slip’s entry code: a wrong one is refused and audited, 5 in a minute block the shop for that prize', async () => {
    const game = await drawAll(t, h.U2, await openGame(t, h.U2, { numbers: ALL, bet: '1.00' }));
    const { winner_id: id, entry_code: code } = await claimAt(game, 1);
    const wrong = code.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    // Seven at once on a prize nobody tried yet: the pay statement counts them one after the other
    // (on the throttle row as it is now), so five are wrong codes (422, nothing paid, one audit row
    // each) and the fifth blocks the prize for this shop: the other two are 429, not audited.
    const burst = await Promise.all(
      Array.from({ length: 7 }, () => pay(h.U2, id, undefined, { entryCode: wrong, claimerName: 'Fake Person' })),
    );
    expect(burst.map((a) => a.statusCode).sort()).toEqual([422, 422, 422, 422, 422, 429, 429]);
    const bad = burst.find((a) => a.statusCode === 422);
    expect(bad?.json()).toMatchObject({ code: 'WRONG_ENTRY_CODE', fieldErrors: { entryCode: expect.any(String) } });
    expect(bad?.json<{ message: string }>().message).toMatch(/^This is not the entry code of this prize’s slip/);
    expect((await claimAt(game, 1)).status).toBe('unpaid');
    expect(await auditCount('claim.wrong_code', id)).toBe(5);
    // Blocked: even the right code waits (about a minute), and so does the receipt of nothing.
    const blocked = await pay(h.U2, id);
    expectStatus(blocked, 429);
    expect(blocked.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many wrong entry codes for this prize. Try again in 1 minute',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(50);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    const [audit] = await queryRows<{ details: { reason: string; failures: number; blockedUntil: string | null } }>(
      t.database.db,
      sql`SELECT details FROM audit_log WHERE action = 'claim.wrong_code' AND target_id = ${id} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit?.details).toMatchObject({ reason: 'wrong entry code', failures: 5, blockedUntil: expect.any(String) });
    // The block is the shop's for this prize: a sibling shop allowed to pay is not blocked by it;
    // without a code (an old client) it is told to give it.
    await setAnyShop(true);
    try {
      const none = await pay(h.U1, id, undefined, { entryCode: undefined, claimerName: 'Fake Person' });
      expectStatus(none, 422);
      expect(none.json()).toMatchObject({
        code: 'WRONG_ENTRY_CODE',
        fieldErrors: { entryCode: 'Enter the entry code printed on the winner’s slip, or scan it' },
      });
    } finally {
      await setAnyShop(false);
    }
    // The minute over, five more wrong codes block it twice as long.
    const pass = () =>
      t.database.db.execute(sql`UPDATE claim_code_failures SET blocked_until = now() - interval '1 second'`);
    await pass();
    for (let i = 0; i < 5; i++)
      expectStatus(await pay(h.U2, id, undefined, { entryCode: wrong, claimerName: 'Fake Person' }), 422);
    const longer = await pay(h.U2, id);
    expectStatus(longer, 429);
    expect(longer.json<{ message: string }>().message).toBe(
      'Too many wrong entry codes for this prize. Try again in 2 minutes',
    );
    // With the code, typed as the slip prints it, the prize is paid once.
    await pass();
    const before = await books(t);
    const typed = code.toUpperCase().replace(/(.{4})(?!$)/g, '$1 ');
    const paid = await pay(h.U2, id, 'right', { entryCode: typed, claimerName: 'Real Winner' });
    expectStatus(paid, 200);
    expect(paid.json<ClaimPaid>().claim).toMatchObject({ status: 'paid', claimerName: 'Real Winner' });
    expect(await books(t)).toEqual({ ...before, keys: before.keys + 1 });
    expectStatus(await pay(h.U2, id, undefined, { claimerName: 'Real Winner' }), 409);
    expect(await auditCount('claim.paid', id)).toBe(1);
  });

  it('an entry from before entry codes is paid only to the claimer ID the admin approved', async () => {
    const game = await drawAll(t, h.U2, await openGame(t, h.U2, { numbers: ALL, bet: '1.00' }));
    const { winner_id: id } = await claimAt(game, 1);
    const { winner_id: coded } = await claimAt(game, 2);
    await t.database.db.execute(sql`UPDATE prize_claims SET entry_code = NULL WHERE winner_id = ${id}`);
    // Before the approval: listed with its reason, not payable, refused.
    const listed = (await get(h.U2, '/api/claims')).json<ClaimsList>().items.find((c) => c.winnerId === id);
    expect(listed).toMatchObject({ hasEntryCode: false, approvedAt: null, mayPay: false });
    expect(listed?.refusal).toMatch(/^This prize’s entry has no entry code: the admin must approve/);
    const early = await pay(h.U2, id, undefined, { claimerName: 'Old Winner', claimerIdNumber: 'AB-123 456' });
    expectStatus(early, 409);
    expect(early.json()).toMatchObject({ code: 'APPROVAL_REQUIRED' });
    // Only the admin approves, only a prize without a code, with an ID number and a reason.
    const approve = (token: string, winnerId: number, payload: object) =>
      t.request(token, { method: 'POST', url: `/api/claims/${winnerId}/approve`, payload });
    const input = { claimerIdNumber: 'AB-123 456', reason: 'Slip from before entry codes, ID seen' };
    expectStatus(await approve(h.A1.token, id, input), 403);
    expectStatus(await approve(h.U2.token, id, input), 403);
    expectStatus(await approve(t.adminToken, coded, input), 409);
    const missing = await approve(t.adminToken, id, { reason: 'No ID' });
    expectStatus(missing, 400);
    expect(missing.json()).toMatchObject({ fieldErrors: { claimerIdNumber: 'The claimer’s ID number is required' } });
    const approved = await approve(t.adminToken, id, input);
    expectStatus(approved, 200);
    expect(approved.json<PrizeClaim>()).toMatchObject({ approvedAt: expect.any(String), mayPay: false });
    expect(await auditCount('claim.approved', id)).toBe(1);
    // Another ID is refused and audited; the approved one (case, spaces and dashes aside) pays.
    const other = await pay(h.U2, id, undefined, { claimerName: 'Fake Person', claimerIdNumber: 'ZZ-999' });
    expectStatus(other, 422);
    expect(other.json()).toMatchObject({
      code: 'WRONG_CLAIMER_ID',
      fieldErrors: { claimerIdNumber: expect.any(String) },
    });
    expect(await auditCount('claim.wrong_code', id)).toBe(1);
    const paid = await pay(h.U2, id, undefined, { claimerName: 'Old Winner', claimerIdNumber: 'ab123456' });
    expectStatus(paid, 200);
    const [row] = await queryRows<{ details: { approvedBy?: number } }>(
      t.database.db,
      sql`SELECT details FROM audit_log WHERE action = 'claim.paid' AND target_id = ${id}`,
    );
    expect(row?.details.approvedBy).toBe(h.admin.id);
  });
});
