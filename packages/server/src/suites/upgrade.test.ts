import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimsList } from '@lot/domain/schemas/claims';
import type { GameProof } from '@lot/domain/schemas/games';
import type { Notifications } from '@lot/domain/schemas/notifications';
import { verifyProof, type PinnedChain } from '@lot/domain/verify';
import { buildApp } from '../app.ts';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { verifyAudit } from '../modules/audit/audit-chain.ts';
import { makeCheckpoint, verifyCheckpoint } from '../modules/audit/checkpoint.ts';
import { compareClaimsAndShiftsWithAudit } from '../modules/audit/claims-shifts-audit.ts';
import { compareLedgerWithAudit } from '../modules/audit/ledger-audit.ts';
import { checkLedger } from '../modules/balance/ledger.ts';
import { DEMO_SHOP, OLD_KEYS, OLD_RELEASES, oldReleaseDatabase, type OldDatabase } from '../test/old-release.ts';
import { TEST_DB } from '../test/test-app.ts';
import { startTestBeacon, type TestBeacon } from '../test/test-beacon.ts';

/**
 * Upgrades from real older releases (issue 43, docs/upgrading.md): a database written by an older
 * commit of this repository (the demo seed, one game played to the end, one drawn once: see
 * test/old-release.ts) is opened by the current code, which migrates it and starts, and every
 * check must pass: the ledger, the audit trail and its comparison with the ledger, the old games'
 * public proofs; the game left half-drawn finishes; the prizes won before claims existed are never
 * payable, the admin hears of them once and can mark them paid in bulk; an edited old pool is
 * still caught.
 */

let beacon: TestBeacon;
let pins: PinnedChain[];
beforeAll(async () => {
  // The fixed test chain (its key and genesis never change), so a cached database's rounds are served again.
  beacon = await startTestBeacon({ period: 1 });
  pins = [{ ...beacon.chain, name: 'LOT test beacon' }];
});
afterAll(() => beacon.close());

describe.each([
  ['ff83204 (LOT-DRAW-1, before game.frozen and prize claims)', OLD_RELEASES.beforeDraw2, false],
  ['a6e1389 (LOT-DRAW-2, before prize claims)', OLD_RELEASES.beforeClaims, true],
])('upgrade from %s', (_name, commit, draw2) => {
  let old: OldDatabase;
  let database: Database;
  let app: FastifyInstance;
  let adminToken: string;
  let shopToken: string;
  const request = (token: string | null, options: InjectOptions) =>
    app.inject({ ...options, headers: { ...(token && { authorization: `Bearer ${token}` }), ...options.headers } });
  const login = async (username: string, password: string) => {
    const response = await request(null, { method: 'POST', url: '/api/auth/signin', payload: { username, password } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ accessToken: string }>().accessToken;
  };

  beforeAll(async () => {
    const started = Date.now();
    old = await oldReleaseDatabase(
      commit,
      TEST_DB,
      draw2 ? { url: beacon.url, chainHash: beacon.chain.chainHash } : undefined,
    );
    // As main.ts starts: open (every pending migration), then the app with the keys the old release ran with.
    database = await openDatabase(
      old.dataDir ? { kind: 'pglite', dataDir: join(old.dataDir, 'db') } : { kind: 'postgres', url: old.url ?? '' },
    );
    app = await buildApp({
      database,
      jwtSecret: OLD_KEYS.JWT_SECRET,
      totpKey: OLD_KEYS.TOTP_KEY,
      seedKey: OLD_KEYS.SEED_KEY,
      // A release before the game log had no LOG_KEY: the upgraded server is given one.
      logKey: 'upgrade-test-log-key-0123456789abcdef012',
      logLevel: 'silent',
      serveWeb: false,
      beacon: { mode: 'required', urls: [beacon.url], chainHash: beacon.chain.chainHash },
    });
    await app.ready();
    adminToken = await login('admin', OLD_KEYS.ADMIN_PASSWORD);
    shopToken = await login(DEMO_SHOP.username, DEMO_SHOP.password);
    console.log(
      `upgrade from ${commit} on ${TEST_DB}: old database ${old.builtIn > 0 ? `built in ${old.builtIn.toFixed(1)} s` : 'from the cache'}, upgraded and started after ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await old?.drop();
  });

  it('keeps every cent, and audit:verify says OK (the old game pools are compared through their settlement)', async () => {
    expect((await checkLedger(database.db)).ok).toBe(true);
    const chains = await verifyAudit(database.db);
    expect(chains.problems).toEqual([]);
    const ledger = await compareLedgerWithAudit(database.db);
    expect(ledger.mismatches).toEqual([]);
    expect(ledger.ok).toBe(true);
  });

  it("every ended old game's public proof still verifies", async () => {
    const ended = await queryRows<{ code: string }>(
      database.db,
      sql`SELECT code FROM game_rounds WHERE status IN ('settled', 'voided') ORDER BY id`,
    );
    expect(ended.length).toBeGreaterThan(3);
    for (const { code } of ended) {
      const response = await request(null, { method: 'GET', url: `/api/verify/${code}` });
      expect(response.statusCode, response.body).toBe(200);
      const report = await verifyProof(response.json<GameProof>(), pins);
      expect(report.verdict, `${code}: ${JSON.stringify(report.checks.filter((c) => !c.ok))}`).toBe('verified');
    }
  });

  it('the game left half-drawn finishes, and its proof verifies', async () => {
    const [half] = await queryRows<{ id: number; code: string; drawn: number; prizes: number }>(
      database.db,
      sql`SELECT id, code, jsonb_array_length(draws) AS drawn, jsonb_array_length(prizes) AS prizes
        FROM game_rounds WHERE status = 'drawing'`,
    );
    expect(half).toBeDefined();
    if (!half) return;
    for (let position = half.drawn + 1; position <= half.prizes; position++) {
      for (let attempt = 0; ; attempt++) {
        const response = await request(shopToken, {
          method: 'POST',
          url: `/api/games/${half.id}/draws`,
          payload: { position },
        });
        if (response.statusCode === 200) break;
        expect(response.statusCode, response.body).toBe(202);
        expect(attempt).toBeLessThan(10);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    const proof = await request(null, { method: 'GET', url: `/api/verify/${half.code}` });
    expect(proof.json<GameProof>().status).toBe('settled');
    expect((await verifyProof(proof.json<GameProof>(), pins)).verdict).toBe('verified');
    expect((await checkLedger(database.db)).ok).toBe(true);
    expect((await compareLedgerWithAudit(database.db)).mismatches).toEqual([]);
  });

  it('prizes won before claims existed are never payable; the admin hears of them once and marks them paid in bulk', async () => {
    const [before] = await queryRows<{ count: number; amount: string }>(
      database.db,
      sql`SELECT count(*)::int AS count, COALESCE(sum(amount), 0)::text AS amount FROM prize_claims
        WHERE status = 'before_claims'`,
    );
    expect(before?.count).toBeGreaterThan(0);
    const old = await request(adminToken, { method: 'GET', url: '/api/claims?status=before_claims&pageSize=200' });
    expect(old.statusCode, old.body).toBe(200);
    const listed = old.json<ClaimsList>();
    expect(listed.total).toBe(before?.count);
    expect(listed.items.every((claim) => !claim.mayPay)).toBe(true);
    // The shop whose game it was asks to pay it (the old seed's draws were random, so which demo
    // shops won anything varies from build to build; every demo shop has the demo password).
    const [own] = await queryRows<{ winner_id: number; username: string }>(
      database.db,
      sql`SELECT c.winner_id, u.username FROM prize_claims c JOIN users u ON u.id = c.user_id
        WHERE c.status = 'before_claims' ORDER BY c.winner_id LIMIT 1`,
    );
    if (!own) throw new Error('no old prize');
    const ownerToken = await login(own.username, DEMO_SHOP.password);
    // Not among its shop's unpaid prizes, and the shop cannot pay it.
    const unpaid = await request(ownerToken, { method: 'GET', url: '/api/claims?pageSize=200' });
    expect(unpaid.statusCode, unpaid.body).toBe(200);
    const unpaidIds = new Set(unpaid.json<ClaimsList>().items.map((claim) => claim.winnerId));
    expect(unpaidIds.has(own.winner_id)).toBe(false);
    expect(listed.items.some((claim) => unpaidIds.has(claim.winnerId))).toBe(false);
    const pay = await request(ownerToken, {
      method: 'POST',
      url: `/api/claims/${own.winner_id}/pay`,
      payload: { claimerName: 'Late Claimer' },
    });
    expect(pay.statusCode, pay.body).toBe(409);
    expect(pay.json<{ message: string }>().message).toContain('before prize claims');

    const bell = await request(adminToken, { method: 'GET', url: '/api/notifications' });
    const notices = bell.json<Notifications>().items.filter((item) => item.kind === 'beforeClaims');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ count: before?.count });
    const shopBell = await request(shopToken, { method: 'GET', url: '/api/notifications' });
    expect(shopBell.json<Notifications>().items.some((item) => item.kind === 'beforeClaims')).toBe(false);

    // Only the admin marks them; the shop is refused and nothing changes.
    const refused = await request(shopToken, { method: 'POST', url: '/api/claims/before-claims/paid', payload: {} });
    expect(refused.statusCode).toBe(403);
    const marked = await request(adminToken, { method: 'POST', url: '/api/claims/before-claims/paid', payload: {} });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ marked: before?.count, amount: expect.any(String) });
    const [after] = await queryRows<{ left: number; paid: number }>(
      database.db,
      sql`SELECT count(*) FILTER (WHERE status = 'before_claims')::int AS left,
        count(*) FILTER (WHERE status = 'paid_before_claims')::int AS paid FROM prize_claims`,
    );
    expect(after).toEqual({ left: 0, paid: before?.count });
    const [audit] = await queryRows<{ details: Record<string, unknown> }>(
      database.db,
      sql`SELECT details FROM audit_log WHERE action = 'claim.marked_paid_before' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit?.details).toMatchObject({ count: before?.count });
    const quiet = await request(adminToken, { method: 'GET', url: '/api/notifications' });
    expect(quiet.json<Notifications>().items.some((item) => item.kind === 'beforeClaims')).toBe(false);
    const again = await request(adminToken, { method: 'POST', url: '/api/claims/before-claims/paid', payload: {} });
    expect(again.json()).toEqual({ marked: 0, amount: '0.00' });
    expect((await verifyAudit(database.db)).ok).toBe(true);
    // Marked paid in bulk, not paid at a counter: no claim.paid row is expected of them (decision 087).
    expect((await compareClaimsAndShiftsWithAudit(database.db)).mismatches).toEqual([]);
  });

  it('a checkpoint names the freeze baseline moved (pools excused from their game.frozen rows)', async () => {
    const key = generateKeyPairSync('ed25519').privateKey;
    const checkpoint = await makeCheckpoint(database.db, key, new Date());
    expect((await verifyCheckpoint(database.db, checkpoint, key)).ok).toBe(true);
    await database.db.execute(sql`UPDATE audit_baseline SET pools_from = pools_from + 1000 WHERE id = 1`);
    const report = await verifyCheckpoint(database.db, checkpoint, key);
    expect(report.problems.map((p) => p.problem)).toEqual([
      expect.stringContaining("the game pools' freeze baseline moved from entry"),
    ]);
    await database.db.execute(sql`UPDATE audit_baseline SET pools_from = pools_from - 1000 WHERE id = 1`);
  });

  it('an old game pool edited behind the app is still caught', async () => {
    const [pool] = await queryRows<{ id: number }>(
      database.db,
      sql`SELECT t.id FROM transactions t JOIN game_rounds r ON r.transaction_id = t.id
        WHERE r.status = 'settled' ORDER BY t.id LIMIT 1`,
    );
    if (!pool) throw new Error('no old pool');
    await database.db.execute(sql`UPDATE transactions SET amount = amount + 100 WHERE id = ${pool.id}`);
    const report = await compareLedgerWithAudit(database.db);
    expect(report.ok).toBe(false);
    expect(report.mismatches.map((m) => m.ledgerId)).toContain(pool.id);
    expect(report.mismatches.find((m) => m.ledgerId === pool.id)?.problem).toMatch(/its audit row \d+ says/);
  });
});
