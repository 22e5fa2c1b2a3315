import { randomBytes } from 'node:crypto';
import { eq, isNull, sql } from 'drizzle-orm';
import type { Role } from '@lot/domain/roles';
import { topup, transfer } from '../modules/balance/balance.service.ts';
import { DrawBeacon } from '../lib/draw-beacon.ts';
import { drawNext, openGame, replaceEntries, voidGame } from '../modules/games/games.service.ts';
import { commandContext, withCaller, type AppContext } from '../lib/context.ts';
import { nodeDrawCrypto } from '../lib/draw-crypto.ts';
import type { SeedBox } from '../lib/seed-box.ts';
import { hashPassword } from '../lib/passwords.ts';
import { createWinner } from '../modules/winners/winners.service.ts';
import { payPrize } from '../modules/claims/claims.service.ts';
import { closeShift, currentShift, openShift } from '../modules/shifts/shifts.service.ts';
import { decimalToCents } from '@lot/domain/money';
import type { Caller } from '../lib/caller.ts';
import type { Db } from '../db/client.ts';
import { balances, prizeClaims, users } from '../db/schema.ts';

type NewUser = {
  username: string;
  password: string;
  fullName: string;
  role: Role;
  shopName?: string;
  parentId?: number;
};

/** Inserts a user and its zero balance. Seeding only: the API goes through the users service. */
async function insertUser(db: Db, user: NewUser): Promise<number> {
  const parentRole = user.parentId
    ? (await db.select({ role: users.role }).from(users).where(eq(users.id, user.parentId)))[0]?.role
    : undefined;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        username: user.username,
        passwordHash: await hashPassword(user.password),
        fullName: user.fullName,
        shopName: user.shopName ?? null,
        role: user.role,
        parentId: user.parentId ?? null,
        parentRole: parentRole ?? null,
      })
      .returning({ id: users.id });
    if (!row) throw new Error(`could not create ${user.username}`);
    await tx.insert(balances).values({ userId: row.id, amount: 0 });
    return row.id;
  });
}

/**
 * First start on an empty database: create the admin. Without ADMIN_PASSWORD a random one is
 * made and returned so that it can be printed once.
 */
export async function ensureAdmin(
  db: Db,
  options: { username: string; password: string | undefined },
): Promise<{ created: false } | { created: true; username: string; password: string; generated: boolean }> {
  const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  if (count > 0) return { created: false };
  const password = options.password ?? randomBytes(12).toString('base64url');
  try {
    await insertUser(db, { username: options.username, password, fullName: 'Administrator', role: 'admin' });
  } catch (error) {
    // Several API processes started at once on an empty database (a cluster's first start, issue
    // 34): one of them creates the admin, the others find the name taken and start as on a used one.
    if (isUniqueViolation(error)) return { created: false };
    throw error;
  }
  return { created: true, username: options.username, password, generated: options.password === undefined };
}

/** PostgreSQL's unique_violation (23505), as node-postgres and PGlite report it (Drizzle wraps it in `cause`). */
function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}

export const DEMO_PASSWORD = 'demo1234';
const DEMO_ADMIN = { username: 'admin', password: 'admin123' };

/** The demo hierarchy (docs/product/runtime-and-security.md#run-contract): 1 superagent, 2 agents, 6 users. */
export const DEMO_USERS = [
  { username: 'super1', fullName: 'Sam Super', role: 'superagent', parent: null },
  { username: 'agent1', fullName: 'Alice Agent', role: 'agent', parent: 'super1' },
  { username: 'agent2', fullName: 'Bob Agent', role: 'agent', parent: 'super1' },
  { username: 'user1', fullName: 'Uma User', role: 'user', parent: 'agent1', shopName: 'Lucky Corner' },
  { username: 'user2', fullName: 'Victor Vendor', role: 'user', parent: 'agent1', shopName: 'Golden Shop' },
  { username: 'user3', fullName: 'Wendy Winner', role: 'user', parent: 'agent1', shopName: 'Star Kiosk' },
  { username: 'user4', fullName: 'Xavier Xu', role: 'user', parent: 'agent2', shopName: 'Market Stall 4' },
  { username: 'user5', fullName: 'Yara Young', role: 'user', parent: 'agent2', shopName: 'Corner Deli' },
  { username: 'user6', fullName: 'Zoe Zed', role: 'user', parent: 'super1', shopName: 'Main Street Shop' },
] as const;

function callerOf(row: typeof users.$inferSelect): Caller {
  return {
    id: row.id,
    username: row.username,
    fullName: row.fullName,
    role: row.role,
    parentId: row.parentId,
    tokenVersion: row.tokenVersion,
  };
}

const FIRST_NAMES = ['Ana', 'Ben', 'Carla', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana', 'Ivo', 'Jin', 'Kai', 'Lea'];

/** A demo game's participants: a few people on numbers of 1–20 chosen by `seed`. */
function demoEntries(seed: number) {
  const count = 4 + (seed % 5);
  return Array.from({ length: count }, (_, i) => ({
    number: 1 + ((i * 3 + seed) % 20),
    name: `${FIRST_NAMES[(i + seed) % FIRST_NAMES.length]} ${String.fromCharCode(65 + i)}.`,
    phoneNumber: `555-01${String(10 + i + seed).slice(-2)}`,
  }));
}

/**
 * Plays a demo game through the game service as the player would: open, enter the participants,
 * draw every position (the server draws: decision 013). With `voidAfter`, the game is voided after
 * that many draws by `voider` (the shop's upline: a frozen game is no longer the shop's to void).
 */
async function playDemoGame(
  app: AppContext,
  player: Caller,
  seed: number,
  voidAfter?: { draws: number; voider: Caller },
) {
  const ctx = withCaller(app, player);
  const game = await openGame(ctx, { startRange: 1, endRange: 20, betAmount: 500 * (1 + (seed % 3)) });
  await replaceEntries(ctx, game.id, { entries: demoEntries(seed) });
  const positions = voidAfter?.draws ?? game.prizes.length;
  for (let position = 1; position <= positions; position++) await drawNext(ctx, game.id, position);
  if (voidAfter)
    await voidGame(withCaller(app, voidAfter.voider), game.id, {
      reason: 'Customer dispute over a number',
      // The demo's voider saw the draws: a winner among them is voided knowingly (decision 094).
      afterWinner: true,
    });
}

/**
 * Fills a database that has no users besides an admin with the demo hierarchy
 * (docs/product/runtime-and-security.md#run-contract), through the real services so the ledger is exact: balances passed down the
 * hierarchy, global and per-user winner settings, and some played games. The seed runs offline, so
 * its games are LOT-DRAW-1, labelled "Server randomness only" like any such game (decision 033).
 */
export async function seedDemo(db: Db, seeds: SeedBox): Promise<{ seeded: boolean; adminPassword: string | null }> {
  const live = await db
    .select({ username: users.username, role: users.role })
    .from(users)
    .where(isNull(users.deletedAt));
  if (live.some((u) => u.role !== 'admin')) return { seeded: false, adminPassword: null };
  let adminPassword: string | null = null;
  if (live.length === 0) {
    await insertUser(db, { ...DEMO_ADMIN, fullName: 'Administrator', role: 'admin' });
    adminPassword = DEMO_ADMIN.password;
  }
  const ids = new Map<string, number>();
  for (const user of DEMO_USERS) {
    const parentId = user.parent ? ids.get(user.parent) : undefined;
    ids.set(user.username, await insertUser(db, { ...user, password: DEMO_PASSWORD, parentId }));
  }
  const rows = await db.select().from(users).where(isNull(users.deletedAt));
  const as = (username: string) => {
    const row = rows.find((r) => r.username === username);
    if (!row) throw new Error(`demo user ${username} missing`);
    return callerOf(row);
  };
  const admin = rows.find((r) => r.role === 'admin');
  if (!admin) throw new Error('no admin');
  const id = (username: string) => as(username).id;
  const beacon = new DrawBeacon({ mode: 'off', urls: [], chainHash: '' });
  // The seed seals no two-factor secret: no TOTP key.
  const command = commandContext({ db, seeds, beacon, drawCrypto: nodeDrawCrypto, config: { totpKey: '' } });
  const ctxOf = (username: string) => withCaller(command, as(username));
  await topup(ctxOf(admin.username), { userId: id('super1'), amount: 5_000_000 });
  for (const [from, to, amount] of [
    ['super1', 'agent1', 1_000_000],
    ['super1', 'agent2', 800_000],
    ['super1', 'user6', 100_000],
    ['agent1', 'user1', 150_000],
    ['agent1', 'user2', 150_000],
    ['agent1', 'user3', 120_000],
    ['agent2', 'user4', 120_000],
    ['agent2', 'user5', 90_000],
  ] as const) {
    await transfer(ctxOf(from), { receiverId: id(to), amount });
  }
  for (const [name, percent, position] of [
    ['First Prize', 5000, 1],
    ['Second Prize', 2500, 2],
    ['Third Prize', 1000, 3],
  ] as const) {
    await createWinner(ctxOf(admin.username), { name, percent, position, isActive: true, userId: null });
  }
  await createWinner(ctxOf('user1'), { name: 'Jackpot', percent: 6000, position: 1, isActive: true });
  await createWinner(ctxOf('user1'), { name: 'Runner-up', percent: 3000, position: 2, isActive: true });
  // user1's and user2's games fall in a shift (docs/product/shifts.md): user1's is still open,
  // user2's closed short with a reason, so the Shift screen, the Shifts list and its card have both.
  await openShift(ctxOf('user1'), { openingFloat: 10_000 });
  await openShift(ctxOf('user2'), { openingFloat: 5_000 });
  for (const [username, games] of [
    ['user1', 3],
    ['user2', 2],
    ['user4', 2],
    ['user6', 1],
  ] as const) {
    for (let g = 0; g < games; g++) await playDemoGame(command, as(username), g + id(username));
  }
  // user1 has paid its first prize in cash (the rest are on the Unpaid prizes list).
  const [prize] = await db
    .select({ winnerId: prizeClaims.winnerId, entryCode: prizeClaims.entryCode })
    .from(prizeClaims)
    .where(eq(prizeClaims.userId, id('user1')))
    .orderBy(prizeClaims.winnerId)
    .limit(1);
  if (prize?.entryCode) {
    const slip = { entryCode: prize.entryCode, claimerName: 'Ana Lopez' };
    await payPrize(ctxOf('user1'), prize.winnerId, slip, undefined);
  }
  const user2 = (await currentShift(ctxOf('user2'))).shift;
  if (user2) {
    const expected = (await currentShift(ctxOf('user2'))).report?.expectedCash ?? '0';
    await closeShift(ctxOf('user2'), user2.id, {
      countedCash: decimalToCents(expected) - 500,
      varianceReason: 'A $5 note given as change twice',
    });
  }
  // One game voided by its agent after its first draw, so the upline's voided list has something to show.
  await playDemoGame(command, as('user2'), 7, { draws: 1, voider: as('agent1') });
  beacon.close();
  return { seeded: true, adminPassword };
}
