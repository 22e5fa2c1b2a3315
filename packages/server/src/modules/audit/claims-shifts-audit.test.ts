import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Game } from '@lot/domain/schemas/games';
import type { Shift } from '@lot/domain/schemas/shifts';
import { queryRows } from '../../db/client.ts';
import { restorePglite } from '../../db/backup.ts';
import { configureWinners, drawAll, entryCodeOf, openGame } from '../../test/game-fixtures.ts';
import { buildHierarchy, type Hierarchy } from '../../test/hierarchy.ts';
import { createMoneyTestApp, expectStatus, fund } from '../../test/money-fixtures.ts';
import { exitOf, nodeArgs } from '../../test/server-process.ts';
import { TEST_DB, type TestApp } from '../../test/test-app.ts';
import { auditVerify } from './audit-verify.ts';
import { compareClaimsAndShiftsWithAudit, describeClaimsAndShiftsAudit } from './claims-shifts-audit.ts';

/**
 * `npm run audit:verify` holds the paid prize claims and the closed shifts to their audit rows
 * (issue 44, decision 087): each edit the issue made as the database's owner — a paid claim set back
 * to unpaid and paid again, a closed shift's counted cash and stored Z report changed with the shift
 * triggers off, a Z deleted — fails it, naming the claim, shift or shop and the field.
 */

let t: TestApp;
let h: Hierarchy;
let game: Game;
/** The day's four closed shifts (Z 1 to 4) and the two prizes paid in the first two. */
let shifts: Shift[] = [];
let prizes: number[] = [];
const folder = mkdtempSync(join(tmpdir(), 'lot-claims-shifts-audit-'));

const run = (query: ReturnType<typeof sql>) => t.database.db.execute(query);

/** Pays a prize at the counter as the shop (POST /api/claims/{winnerId}/pay). */
async function pay(winnerId: number): Promise<void> {
  expectStatus(
    await t.request(h.U1.token, {
      method: 'POST',
      url: `/api/claims/${winnerId}/pay`,
      payload: { entryCode: await entryCodeOf(t, winnerId), claimerName: 'Walk-in Winner' },
    }),
    200,
  );
}

async function openShift(): Promise<Shift> {
  const opened = await t.request(h.U1.token, { method: 'POST', url: '/api/shifts', payload: { openingFloat: '100' } });
  expectStatus(opened, 201);
  return opened.json<Shift>();
}

async function closeShift(shift: Shift, countedCash: string): Promise<void> {
  const closed = await t.request(h.U1.token, {
    method: 'POST',
    url: `/api/shifts/${shift.id}/close`,
    payload: { countedCash, varianceReason: 'Counted twice' },
  });
  expectStatus(closed, 200);
}

/** Someone who owns the table switches its triggers off for one change, as the issue did. */
async function bypassShiftTriggers(statement: ReturnType<typeof sql>) {
  await run(sql`ALTER TABLE shifts DISABLE TRIGGER USER`);
  try {
    await run(statement);
  } finally {
    await run(sql`ALTER TABLE shifts ENABLE TRIGGER USER`);
  }
}

/** The problems the comparison names about one claim, shift or shop. */
async function problemsOf(kind: 'claim' | 'shift' | 'shop', id: number): Promise<string[]> {
  const report = await compareClaimsAndShiftsWithAudit(t.database.db);
  return report.mismatches.filter((m) => m.kind === kind && m.id === id).map((m) => m.problem);
}

/** The id of a shift's shift.closed audit row. */
async function closedRow(shiftId: number): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    t.database.db,
    sql`SELECT id::text FROM audit_log WHERE action = 'shift.closed' AND target_id = ${shiftId}`,
  );
  return row?.id ?? 'none';
}

/** `npm run audit:verify` on this database, in a process of its own: its exit code and output. */
async function auditVerifyCli(): Promise<{ code: number | null; output: string }> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DRAW_BEACON: 'off' };
  if (TEST_DB === 'postgres') {
    Object.assign(env, {
      DATABASE_URL: t.databaseUrl ?? '',
      JWT_SECRET: t.jwtSecret,
      TOTP_KEY: t.totpKey,
      SEED_KEY: t.seedKey,
      LOG_KEY: t.logKey,
    });
  } else {
    // The embedded database as a backup copies it, restored into a DATA_DIR of its own.
    const dataDir = mkdtempSync(join(folder, 'data-'));
    const dump = join(folder, `${Date.now()}.tar.gz`);
    const blob = await t.database.dump?.();
    if (!blob) throw new Error('the embedded database has no dump');
    writeFileSync(dump, Buffer.from(await blob.arrayBuffer()));
    await restorePglite(dump, join(dataDir, 'db'));
    env.DATA_DIR = dataDir;
  }
  const file = fileURLToPath(new URL('../../cli/audit-verify-cli.ts', import.meta.url));
  const child = spawn(process.execPath, nodeArgs(file), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { code: await exitOf(child), output };
}

beforeAll(async () => {
  t = await createMoneyTestApp();
  h = await buildHierarchy(t);
  // Every number of 1..4 is entered, so both prizes have a winner: 60 % and 40 % of the 40.00 pool.
  await configureWinners(t, h.U1.id, [
    { percent: '60', position: 1 },
    { percent: '40', position: 2 },
  ]);
  await fund(t, h.U1.id, '100.00');
  // A shop day: the game played and the first prize paid in shift Z 1, the second in Z 2, two more closed.
  const first = await openShift();
  game = await drawAll(t, h.U1, await openGame(t, h.U1, { numbers: [1, 2, 3, 4], start: 1, end: 4 }));
  const claims = await queryRows<{ winner_id: number }>(
    t.database.db,
    sql`SELECT winner_id FROM prize_claims WHERE game_id = ${game.id} ORDER BY amount DESC`,
  );
  prizes = claims.map((c) => Number(c.winner_id));
  await pay(prizes[0] ?? 0);
  await closeShift(first, '116.00');
  const second = await openShift();
  await pay(prizes[1] ?? 0);
  await closeShift(second, '82.00');
  const third = await openShift();
  await closeShift(third, '100.00');
  const fourth = await openShift();
  await closeShift(fourth, '99.50');
  shifts = [first, second, third, fourth];
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe(`audit:verify and the counter (${TEST_DB})`, () => {
  it('an untouched shop day agrees: two prizes paid, four shifts closed as Z 1 to 4', async () => {
    const report = await compareClaimsAndShiftsWithAudit(t.database.db);
    expect(report).toMatchObject({ ok: true, claims: 2, shifts: 4, mismatches: [], total: 0 });
    expect(describeClaimsAndShiftsAudit(report)).toEqual([
      "OK: 2 paid prize claims and 4 closed shifts agree with their audit rows; every shop's Z numbers run without a gap.",
    ]);
    // The close kept the stored Z report's hash in its audit row.
    const [closed] = await queryRows<{ hash: string | null }>(
      t.database.db,
      sql`SELECT details->>'zReportHash' AS hash FROM audit_log WHERE action = 'shift.closed' AND target_id = ${shifts[0]?.id}`,
    );
    expect(closed?.hash).toMatch(/^[0-9a-f]{64}$/);
    // What audit:verify prints and whether it passes (the command exits 0 then).
    const verified = await auditVerify(t.database.db, { kind: TEST_DB });
    expect(verified.ok, verified.lines.join('\n')).toBe(true);
    expect(verified.lines.slice(-2)).toEqual([
      'Prize claims, shifts and the audit trail:',
      "OK: 2 paid prize claims and 4 closed shifts agree with their audit rows; every shop's Z numbers run without a gap.",
    ]);
  });

  it('names a paid claim set back to unpaid, then paid again: two claim.paid rows', async () => {
    const winner = prizes[0] ?? 0;
    const about = `prize claim ${winner} (game ${game.code}, 24.00 at shop user_one (user ${h.U1.id}))`;
    await run(sql`UPDATE prize_claims SET status = 'unpaid', paid_at = NULL, paid_by = NULL, claimer_name = NULL,
      shift_id = NULL WHERE winner_id = ${winner}`);
    expect(await problemsOf('claim', winner)).toEqual([
      expect.stringMatching(
        new RegExp(`^${escape(about)}: unpaid, but its claim.paid audit row \\d+ says it was paid$`),
      ),
    ]);
    await pay(winner);
    expect(await problemsOf('claim', winner)).toEqual([
      expect.stringMatching(
        new RegExp(`^${escape(about)}: 2 claim.paid audit rows \\(\\d+, \\d+\\): paid more than once$`),
      ),
    ]);
  });

  it("names a paid claim's amount, shift and claimer changed", async () => {
    const winner = prizes[1] ?? 0;
    await run(sql`UPDATE prize_claims SET amount = 1000, shift_id = NULL, claimer_name = 'Fake Person'
      WHERE winner_id = ${winner}`);
    expect(await problemsOf('claim', winner)).toEqual([
      expect.stringMatching(
        new RegExp(
          `: its claim.paid audit row \\d+ says amount 16.00 \\(the claim has 10.00\\), shift ${shifts[1]?.id} \\(the claim has none\\), claimer "Walk-in Winner" \\(the claim has "Fake Person"\\)$`,
        ),
      ),
    ]);
  });

  it("names a closed shift's counted cash and stored Z report changed with the triggers off", async () => {
    const shift = shifts[0]?.id ?? 0;
    // 40.00 off the counted cash (and so the variance) and off the stored Z report's copies of them.
    await bypassShiftTriggers(sql`UPDATE shifts SET counted_cash = counted_cash - 4000, variance = variance - 4000,
      variance_reason = 'Short', z_report = z_report || '{"countedCash": "76.00", "variance": "-40.00"}'::jsonb
        || jsonb_build_object('shift', z_report->'shift'
          || '{"countedCash": "76.00", "variance": "-40.00", "varianceReason": "Short"}'::jsonb)
      WHERE id = ${shift}`);
    const audit = await closedRow(shift);
    const stored = (holder: string) =>
      `counted 116.00 (${holder} has 76.00), variance 0.00 (${holder} has -40.00), reason none (${holder} has "Short")`;
    expect(await problemsOf('shift', shift)).toEqual([
      `shift ${shift} (Z 1 of shop user_one (user ${h.U1.id})): its shift.closed audit row ${audit} says ${stored('the shift')}, ${stored('the stored Z report')}; the stored Z report no longer hashes to the zReportHash of audit row ${audit}: it was changed after the close`,
    ]);

    // Only a line of another Z report, its figures left alone: the hash alone names it.
    const other = shifts[1]?.id ?? 0;
    await bypassShiftTriggers(sql`UPDATE shifts SET z_report = jsonb_set(z_report, '{prizesPaid,0,claimerName}', '"Nobody"')
      WHERE id = ${other}`);
    expect(await problemsOf('shift', other)).toEqual([
      expect.stringMatching(
        /: the stored Z report no longer hashes to the zReportHash of audit row \d+: it was changed after the close$/,
      ),
    ]);
  });

  it("a shift closed before closes kept the Z report's hash is held to the figures its audit row has", async () => {
    // Closed as an older release closed it: the same figures in its audit row, no zReportHash.
    const old = await openShift();
    const figures = { expectedCash: '100.00', countedCash: '100.00', variance: '0.00' };
    const z = { kind: 'Z', ...figures, shift: { id: old.id, zNumber: 5, ...figures } };
    await run(sql`UPDATE shop_counters SET z_reports = 5 WHERE user_id = ${h.U1.id}`);
    await run(sql`UPDATE shifts SET closed_at = now(), closed_by = ${h.U1.id}, expected_cash = 10000,
      counted_cash = 10000, variance = 0, z_number = 5, z_report = ${JSON.stringify(z)}::jsonb WHERE id = ${old.id}`);
    await run(sql`INSERT INTO audit_log (actor_id, action, target_kind, target_id, target_user_id, details)
      VALUES (${h.U1.id}, 'shift.closed', 'shift', ${old.id}, ${h.U1.id},
        ${JSON.stringify({ zNumber: 5, ...figures, varianceReason: null })}::jsonb)`);
    expect(await problemsOf('shift', old.id)).toEqual([]);
    // Its stored Z report's counted cash changed: named by the figures, as there is no hash to compare.
    await bypassShiftTriggers(sql`UPDATE shifts SET z_report = z_report || '{"countedCash": "60.00"}'::jsonb
      WHERE id = ${old.id}`);
    expect(await problemsOf('shift', old.id)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^shift ${old.id} \\(Z 5 of shop user_one \\(user ${h.U1.id}\\)\\): its shift.closed audit row \\d+ says counted 100.00 \\(the stored Z report has 60.00\\)$`,
        ),
      ),
    ]);
  });

  it('names a Z deleted: its audit row has no shift, and the shop has a gap', async () => {
    const shift = shifts[2]?.id ?? 0;
    await bypassShiftTriggers(sql`DELETE FROM shifts WHERE id = ${shift}`);
    expect(await problemsOf('shift', shift)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^audit row \\d+ \\(shift.closed of shift ${shift}, Z 3 of shop user_one \\(user ${h.U1.id}\\)\\): no shift has id ${shift}: it was deleted$`,
        ),
      ),
    ]);
    expect(await problemsOf('shop', h.U1.id)).toEqual([
      `shop user_one (user ${h.U1.id}): Z 3 is missing (its Z numbers run to 5)`,
    ]);

    // audit:verify, the command, fails naming each.
    const cli = await auditVerifyCli();
    expect(cli.code, cli.output).toBe(1);
    const section = cli.output.slice(cli.output.indexOf('Prize claims, shifts and the audit trail:'));
    expect(section).toMatch(
      /^Prize claims, shifts and the audit trail:\nFAILED: 7 mismatches between the prize claims, the shifts and the audit trail\.\nFirst mismatch: prize claim /,
    );
    for (const named of [
      `prize claim ${prizes[0]} `,
      `prize claim ${prizes[1]} `,
      `shift ${shifts[0]?.id} (Z 1 `,
      `shift ${shifts[1]?.id} (Z 2 `,
      `(shift.closed of shift ${shift}, Z 3 `,
      '(Z 5 of shop user_one',
      `shop user_one (user ${h.U1.id}): Z 3 is missing`,
    ])
      expect(section).toContain(named);
  }, 90_000);
});

/** `text` as a literal part of a regular expression. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
