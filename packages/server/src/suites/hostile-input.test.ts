import { deflateSync, crc32 } from 'node:zlib';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DrawResult, DrawWaiting, Game } from '@lot/domain/schemas/games';
import { queryRows } from '../db/client.ts';
import { configureWinners, drawAll, drawCall, openGame, participants, voidCall } from '../test/game-fixtures.ts';
import { oldClientPayload } from '../test/old-client.ts';
import { buildHierarchy, PASSWORD, type Hierarchy, type Member } from '../test/hierarchy.ts';
import { expectStatus, fund, seededRandom } from '../test/money-fixtures.ts';
import { multipart, type FilePart } from '../test/multipart.ts';
import { createStoppedClockApp, moveClockPast } from '../test/stopped-clock.ts';
import { TEST_DB, type TestApp } from '../test/test-app.ts';
import { expiredToken, forgeToken } from '../test/tokens.ts';
import { leaks } from '../test/leaks.ts';
import { world, type World } from '../test/world.ts';

/**
 * Issue 10, suite 4: every endpoint fed hostile input — wrong types, missing and extra fields,
 * the server-run game's calls (docs/decisions/013-the-server-runs-every-game.md) and its public proof
 * included — LOT-DRAW-2's draws and voids by the shop and by its upline, in every state of a game,
 * and the calls a game's state refuses (decision 033) —
 * huge and tiny numbers, 3-decimal amounts, long and control-character strings, SQL-looking
 * strings, deep JSON, oversized bodies, wrong content types, bad ids and queries, hostile
 * uploads and forged tokens. No answer may be a 5xx, no error may leak a stack or SQL, and a
 * refused call must change nothing. HOSTILE_SAMPLE bounds the field mutations tried in CI (a
 * seeded sample, HOSTILE_SEED to replay); SOAK=1 tries them all plus random JSON bodies.
 */

const SOAK = process.env.SOAK === '1';
/** Per-test time limit: the soak runs for many minutes. */
const LIMIT = SOAK ? 3_600_000 : 600_000;
const SAMPLE = Number(process.env.HOSTILE_SAMPLE ?? (SOAK ? Infinity : 500));
const SEED = Number(process.env.HOSTILE_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RANDOM_BODIES = Number(process.env.HOSTILE_RANDOM ?? (SOAK ? 3000 : 100));

type Probe = {
  label: string;
  /** The kind of hostile field, for the field mutations. */
  kind?: FieldKind;
  token: string | null;
  request: InjectOptions;
  /** The input is wrong in a way no endpoint may accept. */
  mustRefuse: boolean;
  /** The call changes nothing even when it succeeds (the compatibility path, a read). */
  pure?: boolean;
  /** What a success must answer: a complaint, or nothing when it is right. */
  accepted?: (body: string) => string | undefined;
};

let t: TestApp;
let h: Hierarchy;
const tried = { count: 0 };

// ------------------------------------------------------------------ hostile values

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Values that no field of ours takes: a field given one of these must be refused. */
const WRONG_SHAPES: unknown[] = [true, false, [], [1, 2], {}, { $gt: '' }, { toString: 'x' }, [[[[[[[[[[]]]]]]]]]]];
/** Numbers that are no amount: tiny, negative, 3 decimals, beyond the limit, not finite as text. */
const BAD_AMOUNTS: unknown[] = [
  0,
  -0,
  -1,
  -0.01,
  0.001,
  1.005,
  '12.345',
  '0.001',
  1e-7,
  5e-324,
  1_000_000_000.01,
  1e12,
  Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  '1e3',
  '0x10',
  'NaN',
  'Infinity',
  '-5',
  '1,000.00',
  '12.',
  '.5.5',
  ' ',
  '',
  '١٢',
];
/**
 * 0 % is a valid percentage (a position that pays nothing), and an empty drawer a valid float or
 * count (decision 039); 0.00 is no amount.
 */
const ZERO: unknown[] = [0, -0];
const ZERO_ALLOWED = ['percent', 'openingFloat', 'countedCash'];
/** Strings of every hostile kind; some are valid text for a free-text field, none may crash anything. */
const STRINGS: unknown[] = [
  '',
  ' ',
  'a'.repeat(100_000),
  'x'.repeat(257),
  '\u0000',
  'null\u0000byte',
  '\u0001\u0002\u001b[31mred\u007f',
  '\r\n\r\nSet-Cookie: a=b',
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  '1 OR 1=1',
  '%',
  '_',
  '\\',
  '%_\\%',
  '$1',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '\u202eevil',
  '😀'.repeat(60),
  '\ud800',
  'admin',
  '-1',
  '2147483648',
  '99999999999999999999',
  '1.5',
];
const NUMBERS: unknown[] = [-1, 0, 1.5, 2_147_483_648, -2_147_483_649, Number.MAX_SAFE_INTEGER, 1e308, -1e308, null];

/** The kinds of hostile field: each is one case of the suite. */
const FIELD_KINDS = [
  ['missing', 'a field left out'],
  ['shape', 'wrong types: booleans, arrays and objects where the field takes none'],
  ['string', 'hostile strings: empty, oversized, control characters, SQL and script injection, bad unicode'],
  ['number', 'numbers out of every range: negative, fractional, beyond int4, huge, null'],
  ['amount', 'amounts that are no amount: zero, negative, three decimals, beyond the limit, not a number'],
  ['extra', 'unknown fields: role, balance, isAdmin, parentId and the like'],
] as const;
type FieldKind = (typeof FIELD_KINDS)[number][0];
type Mutation = { kind: FieldKind; label: string; body: unknown; mustRefuse: boolean };

/** Every mutation of a JSON body, one field at a time, plus extra and missing fields. */
function mutations(base: Record<string, unknown>, amounts: string[] = []): Mutation[] {
  const out: Mutation[] = [];
  const set = (field: string, value: unknown) => ({
    label: `${field}=${short(value)}`,
    body: { ...base, [field]: value },
  });
  for (const field of Object.keys(base)) {
    const { [field]: _dropped, ...rest } = base;
    out.push({ kind: 'missing', label: `missing ${field}`, body: rest, mustRefuse: false });
    for (const value of WRONG_SHAPES)
      out.push({ kind: 'shape', ...set(field, value), mustRefuse: !isShapeOf(base[field], value) });
    for (const value of STRINGS) out.push({ kind: 'string', ...set(field, value), mustRefuse: false });
    for (const value of NUMBERS) out.push({ kind: 'number', ...set(field, value), mustRefuse: false });
    if (amounts.includes(field))
      for (const value of BAD_AMOUNTS.filter((v) => !ZERO_ALLOWED.includes(field) || !ZERO.includes(v)))
        out.push({ kind: 'amount', ...set(field, value), mustRefuse: true });
  }
  for (const extra of [
    'role',
    'balance',
    'isAdmin',
    'parentId',
    'status',
    'tokenVersion',
    'id',
    'constructor',
    'x'.repeat(300),
  ]) {
    if (extra in base) continue;
    out.push({
      kind: 'extra',
      label: `extra ${extra.slice(0, 20)}`,
      body: { ...base, [extra]: 'admin' },
      mustRefuse: true,
    });
  }
  return out;
}

/** Arrays and objects are accepted only where the valid body has one. */
function isShapeOf(valid: unknown, value: unknown): boolean {
  if (Array.isArray(valid)) return Array.isArray(value);
  if (typeof valid === 'object' && valid !== null)
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === typeof valid && typeof value === 'boolean';
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 30 ? `${text.slice(0, 27)}…(${text.length})` : text;
}

// ------------------------------------------------------------------ images

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A tiny PNG that declares 60,000 × 60,000 pixels: decoding it would take gigabytes. */
function pixelFloodPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(60_000, 0);
  header.writeUInt32BE(60_000, 4);
  header.set([1, 0, 0, 0, 0], 8); // 1-bit greyscale
  const rows = Buffer.alloc(64 * (1 + 7_500)); // a few rows of zeros, the rest missing
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF whose screen and frame claim 65,535 × 65,535 pixels. */
function pixelFloodGif(): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00]),
    Buffer.from([0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x00]),
    Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00, 0x3b]),
  ]);
}

// ------------------------------------------------------------------ the probe

/** What went wrong in the current test (each test reports its own). */
const failures: string[] = [];
let known: World | undefined;
beforeEach(() => {
  failures.length = 0;
});

/** Sends one hostile input and checks the answer and the world. */
async function probe({ label, token, request, mustRefuse, pure, accepted }: Probe): Promise<number> {
  tried.count += 1;
  const before = known ?? (await world(t));
  const response = await t.request(token, request);
  const status = response.statusCode;
  const where = `${request.method} ${String(request.url).slice(0, 80)} ${label}`;
  if (status >= 500) failures.push(`${where}: ${status} ${response.body.slice(0, 200)}`);
  if (status >= 400) {
    let body: { message?: unknown; code?: unknown; requestId?: unknown } = {};
    try {
      body = response.json();
    } catch {
      failures.push(`${where}: ${status} with a body that is not JSON: ${response.body.slice(0, 100)}`);
    }
    if (typeof body.message !== 'string' || typeof body.code !== 'string')
      failures.push(`${where}: error body ${response.body.slice(0, 200)}`);
    // The id a person can quote from an error is the one in the header and the log.
    if (body.requestId !== response.headers['x-request-id'])
      failures.push(`${where}: error body's requestId is not the X-Request-Id header: ${response.body.slice(0, 200)}`);
    if (leaks(response.body)) failures.push(`${where}: leaks ${response.body.slice(0, 300)}`);
    known = await world(t);
    // A refused sign-in is the one refusal the audit trail records (decision 029).
    const audited = request.url === '/api/auth/signin' ? ['audit_log', 'audit_heads'] : [];
    for (const table of Object.keys(before) as (keyof World)[])
      if (known[table] !== before[table] && !audited.includes(table))
        failures.push(`${where}: answered ${status} but changed ${table}`);
  } else {
    if (mustRefuse) failures.push(`${where}: accepted (${status}) ${response.body.slice(0, 200)}`);
    const wrong = accepted?.(response.body);
    if (wrong) failures.push(`${where}: ${wrong}`);
    known = undefined;
    if (pure) {
      known = await world(t);
      for (const table of Object.keys(before) as (keyof World)[])
        if (known[table] !== before[table]) failures.push(`${where}: answered ${status} but changed ${table}`);
    }
  }
  return status;
}

const json = (
  method: InjectOptions['method'],
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): InjectOptions => ({
  method,
  url,
  headers: { 'content-type': 'application/json', ...headers },
  payload: JSON.stringify(body),
});

// ------------------------------------------------------------------ setup

/** U1's settled game (the compatibility path describes it) and the games in progress the game calls are fed. */
let settled: Game;
const games = {} as Record<'entries' | 'draws' | 'void' | 'waiting' | 'uplineVoid' | 'drawing' | 'voided', Game>;
/**
 * The shops of the games in the waiting, drawing and voided states: the hierarchy's users each have
 * a game already, or (U2) see their sessions ended by the calls fed to PUT /api/users.
 */
const shops = {} as Record<'waiting' | 'drawing' | 'voided' | 'shift', Member>;
/** shop_shift's open shift: the shift calls are fed it (decision 039). */
let shiftId: number;

/** A shop under A1, signed in. */
async function extraShop(username: string): Promise<Member> {
  const created = await t.request(t.adminToken, {
    method: 'POST',
    url: '/api/users',
    payload: { username, password: PASSWORD, fullName: username, role: 'user', parentId: h.A1.id },
  });
  expectStatus(created, 201);
  const id = created.json<{ id: number }>().id;
  return { id, username, fullName: username, role: 'user', token: await t.login(username, PASSWORD) };
}

/** The shop's first draw request: the game freezes and waits for its round (the clock stands still). */
async function freeze(member: Member, game: Game): Promise<DrawWaiting> {
  const frozen = await drawCall(t, member.token, game.id, 1);
  expectStatus(frozen, 202);
  return frozen.json<DrawWaiting>();
}

beforeAll(async () => {
  t = await createStoppedClockApp();
  h = await buildHierarchy(t);
  await configureWinners(t, null, [
    { percent: '50.00', position: 1 },
    { percent: '25.00', position: 2 },
  ]);
  shops.waiting = await extraShop('shop_waiting');
  shops.drawing = await extraShop('shop_drawing');
  shops.voided = await extraShop('shop_voided');
  shops.shift = await extraShop('shop_shift');
  const shift = await t.request(shops.shift.token, {
    method: 'POST',
    url: '/api/shifts',
    payload: { openingFloat: '10' },
  });
  expectStatus(shift, 201);
  shiftId = shift.json<{ id: number }>().id;
  for (const member of [h.U1, h.A1, h.U3, h.U4, h.U5, shops.waiting, shops.drawing, shops.voided, shops.shift])
    await fund(t, member.id, '100000.00');
  // Every number of the range entered, so that both draws win: no total or commission of the body is 0.
  const everyNumber = Array.from({ length: 20 }, (_, i) => i + 1);
  settled = await drawAll(t, h.U1, await openGame(t, h.U1, { numbers: everyNumber, bet: '1.00' }));
  // A game past its round with position 1 drawn, and one voided by its agent once it came: the clock
  // is moved past their round before the games below freeze, so that those keep waiting.
  games.drawing = await openGame(t, shops.drawing, { numbers: [1, 2, 3], bet: '1.00' });
  games.voided = await openGame(t, shops.voided, { numbers: [1, 2, 3], bet: '1.00' });
  const round = await freeze(shops.drawing, games.drawing);
  await freeze(shops.voided, games.voided);
  moveClockPast(t, round.expectedAt);
  const drawn = await drawCall(t, shops.drawing.token, games.drawing.id, 1);
  expectStatus(drawn, 200);
  games.drawing = drawn.json<DrawResult>().game;
  const voided = await voidCall(t, h.A1.token, games.voided.id, 'Hostile setup');
  expectStatus(voided, 200);
  games.voided = voided.json<Game>();
  // Each game call has a game of its own: U1's stays open for entries, U3's is drawn, U4's voided by
  // U4 (open: discarded); shop_waiting's is frozen and waits for its round, drawn by its agent A1;
  // U5's is frozen and voided by its agent A3.
  games.entries = await openGame(t, h.U1, { numbers: [1, 2, 3], bet: '1.00' });
  games.draws = await openGame(t, h.U3, { numbers: [1, 2, 3], bet: '1.00' });
  games.void = await openGame(t, h.U4, { numbers: [1, 2, 3], bet: '1.00' });
  games.waiting = await openGame(t, shops.waiting, { numbers: [1, 2, 3], bet: '1.00' });
  await freeze(shops.waiting, games.waiting);
  games.uplineVoid = await openGame(t, h.U5, { numbers: [1, 2, 3], bet: '1.00' });
  await freeze(h.U5, games.uplineVoid);
}, 180_000);

/** The compatibility path's body for U1's settled game, naming it. */
const compatBody = () => ({ ...oldClientPayload(settled), gameId: settled.id });
/** A success of the compatibility path answers the settled game's record, and nothing else. */
const theRecord = (body: string) => {
  const id = (JSON.parse(body) as { id?: unknown }).id;
  return id === settled.saleId ? undefined : `answered record ${String(id)}, not ${settled.saleId}`;
};
/** A success on the waiting game: 202, still waiting, nothing drawn. */
const stillWaiting = (body: string) => {
  const answer = JSON.parse(body) as Partial<DrawWaiting>;
  return answer.game?.id === games.waiting.id && answer.game.draws.length === 0 && answer.waitingForRound
    ? undefined
    : `answered ${body.slice(0, 200)}`;
};
afterAll(() => t?.close());

// ------------------------------------------------------------------ the field mutations

/** The endpoints whose JSON bodies are mutated, built once the hierarchy exists. */
function writeEndpoints() {
  const game = compatBody();
  const entries = { entries: participants([1, 2, 3]) };
  return {
    game,
    entries,
    endpoints: [
      {
        token: '',
        method: 'POST',
        url: '/api/auth/signin',
        base: { username: 'user_two', password: 'wrong-password' },
      },
      {
        token: h.U3.token,
        method: 'POST',
        url: '/api/auth/change-password',
        base: { currentPassword: 'not-it', newPassword: 'new-password-1' },
      },
      {
        token: t.adminToken,
        method: 'POST',
        url: '/api/users',
        base: {
          username: 'fuzzed',
          password: PASSWORD,
          fullName: 'Fuzzed User',
          shopName: 'Shop',
          role: 'user',
          status: 'active',
          parentId: h.A1.id,
        },
      },
      {
        token: h.A1.token,
        method: 'PUT',
        url: `/api/users/${h.U2.id}`,
        base: { fullName: 'User Two', shopName: 'Shop', status: 'active', password: 'another-pass' },
      },
      {
        token: t.adminToken,
        method: 'POST',
        url: '/api/balance/topup',
        base: { userId: h.U4.id, amount: '1.00' },
        amounts: ['amount'],
      },
      {
        token: h.U1.token,
        method: 'POST',
        url: '/api/balance/transfer',
        base: { receiverId: h.U2.id, amount: '1.00' },
        amounts: ['amount'],
      },
      // A take-back from the drawer (decision 091): shop_shift has an open shift, so a body that passes
      // takes 1.00 back and records its pickup.
      {
        token: t.adminToken,
        method: 'POST',
        url: '/api/balance/take-back',
        base: { userId: shops.shift.id, amount: '1.00', reason: 'fuzz', fromDrawer: true },
        amounts: ['amount'],
      },
      {
        token: t.adminToken,
        method: 'POST',
        url: '/api/balance/decrease',
        base: { userId: h.A1.id, amount: '1.00', description: 'fuzz' },
        amounts: ['amount'],
      },
      {
        token: t.adminToken,
        method: 'POST',
        url: '/api/winners',
        base: { name: 'Fuzz', percent: '10.00', position: 7, description: 'd', isActive: false, userId: h.U4.id },
        amounts: ['percent'],
      },
      {
        token: h.U1.token,
        method: 'POST',
        url: '/api/sales-history',
        base: game,
        amounts: ['betAmount', 'totalPrize', 'commission'],
      },
      {
        token: h.U2.token,
        method: 'POST',
        url: '/api/games',
        base: { startRange: 1, endRange: 20, betAmount: '1.00' },
        amounts: ['betAmount'],
      },
      { token: h.U1.token, method: 'PUT', url: `/api/games/${games.entries.id}/entries`, base: entries },
      { token: h.U3.token, method: 'POST', url: `/api/games/${games.draws.id}/draws`, base: { position: 1 } },
      {
        token: h.U4.token,
        method: 'POST',
        url: `/api/games/${games.void.id}/void`,
        base: { reason: 'fuzz', afterWinner: true },
      },
      // LOT-DRAW-2: the agent asks for a draw of its shop's frozen game (it waits: an accepted one
      // changes nothing), and voids another shop's frozen game.
      { token: h.A1.token, method: 'POST', url: `/api/games/${games.waiting.id}/draws`, base: { position: 1 } },
      {
        token: h.A3.token,
        method: 'POST',
        url: `/api/games/${games.uplineVoid.id}/void`,
        // afterWinner (decision 094): a void after a winning draw says so; any other shape is refused.
        base: { reason: 'fuzz by the agent', afterWinner: true },
      },
      // Prize claims (decision 038): no prize has this id, so a body that passes is a 404.
      ...CLAIM_WRITES().map(({ token, url, base }) => ({ token, method: 'POST', url, base })),
      {
        token: t.adminToken,
        method: 'PUT',
        url: '/api/admin/business-settings',
        base: { claimPeriodDays: 90, claimsAnyShopOfAgent: false },
      },
      // Backup keys (decision 041): a name that passes makes a key; the same name again is a 409.
      { token: t.adminToken, method: 'POST', url: '/api/admin/backup-keys', base: { name: 'fuzzed key' } },
      // Shifts: a second open is refused (409); the close's first valid body closes it, then 409.
      {
        token: shops.shift.token,
        method: 'POST',
        url: '/api/shifts',
        base: { openingFloat: '10.00' },
        amounts: ['openingFloat'],
      },
      // A cash movement (decision 091): a body that passes records one on the open shift (201).
      {
        token: shops.shift.token,
        method: 'POST',
        url: `/api/shifts/${shiftId}/movements`,
        base: { kind: 'pickup', amount: '1.00', reason: 'fuzz', takenBy: 'Fuzz Agent' },
        amounts: ['amount'],
      },
      {
        token: shops.shift.token,
        method: 'POST',
        url: `/api/shifts/${shiftId}/close`,
        base: { countedCash: '10.00', varianceReason: 'fuzz' },
        amounts: ['countedCash'],
      },
    ] as {
      token: string;
      method: InjectOptions['method'];
      url: string;
      base: Record<string, unknown>;
      amounts?: string[];
    }[],
  };
}

/** Every field mutation of every write call, nested fields included. */
function fieldProbes(): Probe[] {
  const { game, entries, endpoints } = writeEndpoints();
  /**
   * The compatibility path never changes anything, and a success is always the settled game's
   * record; a draw of a game that waits for its round changes nothing and answers that it waits.
   */
  const compat = (url: string) =>
    url === '/api/sales-history'
      ? { pure: true, accepted: theRecord }
      : url === `/api/games/${games.waiting.id}/draws`
        ? { pure: true, accepted: stillWaiting }
        : {};
  const all: Probe[] = [];
  const add = (mutation: Mutation, label: string, token: string, request: InjectOptions, url: string) =>
    all.push({ kind: mutation.kind, label, token, request, mustRefuse: mutation.mustRefuse, ...compat(url) });
  for (const endpoint of endpoints) {
    for (const mutation of mutations(endpoint.base, endpoint.amounts))
      add(mutation, mutation.label, endpoint.token, json(endpoint.method, endpoint.url, mutation.body), endpoint.url);
    // Nested: every field of a participant entered in a game.
    if (endpoint.url.endsWith('/entries')) {
      const participant = entries.entries[0] as unknown as Record<string, unknown>;
      for (const mutation of mutations(participant))
        add(
          mutation,
          `entry.${mutation.label}`,
          h.U1.token,
          json('PUT', endpoint.url, { entries: [mutation.body, ...entries.entries.slice(1)] }),
          '',
        );
    }
    // Nested: every field of the game data and of a participant.
    if (endpoint.url === '/api/sales-history') {
      for (const mutation of mutations(game.gameData as unknown as Record<string, unknown>, [
        'totalPrizePool',
        'betAmount',
      ]))
        add(
          mutation,
          `gameData.${mutation.label}`,
          h.U1.token,
          json('POST', endpoint.url, { ...game, gameData: mutation.body }),
          endpoint.url,
        );
      const participant = game.gameData.selectedNumbers[0] as unknown as Record<string, unknown>;
      for (const mutation of mutations(participant))
        add(
          mutation,
          `participant.${mutation.label}`,
          h.U1.token,
          json('POST', endpoint.url, {
            ...game,
            gameData: { ...game.gameData, selectedNumbers: [mutation.body, ...game.gameData.selectedNumbers.slice(1)] },
          }),
          endpoint.url,
        );
    }
  }
  return all;
}

/** A seeded sample of each kind, its share of HOSTILE_SAMPLE (every kind tried at least once). */
function sampleOf(kind: FieldKind, all: Probe[]): Probe[] {
  const ofKind = all.filter((p) => p.kind === kind);
  const share = Math.max(1, Math.ceil((SAMPLE * ofKind.length) / all.length));
  if (share >= ofKind.length) return ofKind;
  const random = seededRandom(SEED + FIELD_KINDS.findIndex(([k]) => k === kind));
  return ofKind
    .map((p) => [random(), p] as const)
    .sort((a, b) => a[0] - b[0])
    .slice(0, share)
    .map(([, p]) => p);
}

let createdUsers = 0;

// ------------------------------------------------------------------ whole bodies

const raw = (body: string | Buffer, type: string) => ({ payload: body, headers: { 'content-type': type } });
type HostileBody = { label: string; body: { payload: string | Buffer; headers: Record<string, string> } };

/** Whole bodies no write call may accept, by kind. */
const BODY_KINDS: { kind: string; bodies: HostileBody[] }[] = [
  {
    kind: 'malformed JSON: cut short, empty, null, an array, a string, a number',
    bodies: [
      { label: 'not JSON', body: raw('{"amount":', 'application/json') },
      { label: 'empty JSON', body: raw('', 'application/json') },
      { label: 'JSON null', body: raw('null', 'application/json') },
      { label: 'JSON array', body: raw('[1,2]', 'application/json') },
      { label: 'JSON string', body: raw('"x"', 'application/json') },
      { label: 'JSON number', body: raw('12', 'application/json') },
    ],
  },
  {
    kind: 'deep JSON: arrays 100,000 and objects 20,000 levels deep',
    bodies: [
      { label: 'deep array 100000', body: raw(deep(100_000), 'application/json') },
      { label: 'deep object 20000', body: raw(deepObject(20_000), 'application/json') },
    ],
  },
  {
    kind: 'prototype pollution and duplicate keys',
    bodies: [
      { label: '__proto__', body: raw('{"__proto__":{"role":"admin"},"amount":"1.00"}', 'application/json') },
      {
        label: 'constructor.prototype',
        body: raw('{"constructor":{"prototype":{"role":"admin"}}}', 'application/json'),
      },
      { label: 'duplicate keys', body: raw('{"amount":"1.00","amount":"-5"}', 'application/json') },
    ],
  },
  {
    kind: 'oversized: a 2 MB body',
    bodies: [
      {
        label: 'oversized 2 MB',
        body: raw(JSON.stringify({ fullName: 'x'.repeat(2 * 1024 * 1024) }), 'application/json'),
      },
    ],
  },
  {
    kind: 'wrong content types: text, XML, a form, UTF-16',
    bodies: [
      { label: 'text/plain', body: raw('{"amount":"1.00"}', 'text/plain') },
      { label: 'xml', body: raw('<amount>1</amount>', 'application/xml') },
      { label: 'form', body: raw('amount=1&userId=1', 'application/x-www-form-urlencoded') },
      {
        label: 'utf-16 charset',
        body: raw(Buffer.from('{"amount":"1.00"}', 'utf16le'), 'application/json; charset=utf-16'),
      },
    ],
  },
  {
    kind: 'broken multipart: no boundary, cut short',
    bodies: [
      { label: 'multipart without boundary', body: raw('--x\r\n', 'multipart/form-data') },
      {
        label: 'broken multipart',
        body: raw('--b\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nA', 'multipart/form-data; boundary=b'),
      },
    ],
  },
  {
    kind: 'bad unicode: invalid UTF-8',
    bodies: [
      {
        label: 'invalid UTF-8',
        body: raw(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json'),
      },
    ],
  },
];

/** The prize claims' write calls with a body, on a prize id no claim has. */
const CLAIM_WRITES = () => [
  {
    token: h.U1.token,
    url: '/api/claims/2147483647/pay',
    base: { entryCode: '0123 4567 89ab cdef', claimerName: 'Fuzz', claimerIdNumber: 'ID-1' },
  },
  { token: t.adminToken, url: '/api/claims/2147483647/extend', base: { days: 7, reason: 'fuzz' } },
  { token: t.adminToken, url: '/api/claims/2147483647/approve', base: { claimerIdNumber: 'ID-1', reason: 'fuzz' } },
];

/** Every write call, fed whole bodies. */
const bodyTargets = () => [
  ...CLAIM_WRITES().map(({ token, url }) => ({ token, url, method: 'POST' as const })),
  { token: t.adminToken, url: '/api/admin/business-settings', method: 'PUT' as const },
  { token: t.adminToken, url: '/api/admin/backup-keys', method: 'POST' as const },
  { token: t.adminToken, url: '/api/balance/topup', method: 'POST' as const },
  { token: t.adminToken, url: '/api/balance/take-back', method: 'POST' as const },
  { token: h.U1.token, url: '/api/balance/transfer', method: 'POST' as const },
  { token: t.adminToken, url: '/api/users', method: 'POST' as const },
  { token: h.U1.token, url: `/api/users/${h.U1.id}`, method: 'PUT' as const },
  { token: h.U1.token, url: '/api/sales-history', method: 'POST' as const },
  { token: t.adminToken, url: '/api/winners', method: 'POST' as const },
  { token: null, url: '/api/auth/signin', method: 'POST' as const },
  { token: h.U2.token, url: '/api/games', method: 'POST' as const },
  { token: h.U1.token, url: `/api/games/${games.entries.id}/entries`, method: 'PUT' as const },
  { token: h.U3.token, url: `/api/games/${games.draws.id}/draws`, method: 'POST' as const },
  { token: h.U4.token, url: `/api/games/${games.void.id}/void`, method: 'POST' as const },
  { token: h.A1.token, url: `/api/games/${games.waiting.id}/draws`, method: 'POST' as const },
  { token: h.A1.token, url: `/api/games/${games.drawing.id}/draws`, method: 'POST' as const },
  { token: h.A3.token, url: `/api/games/${games.uplineVoid.id}/void`, method: 'POST' as const },
  { token: shops.shift.token, url: '/api/shifts', method: 'POST' as const },
  { token: shops.shift.token, url: `/api/shifts/${shiftId}/movements`, method: 'POST' as const },
  { token: shops.shift.token, url: `/api/shifts/${shiftId}/close`, method: 'POST' as const },
];

// ------------------------------------------------------------------ ids, codes, queries

const BAD_IDS = [
  '0',
  '-1',
  '1.5',
  'abc',
  '2147483648',
  '99999999999999999999',
  '%00',
  '1%00',
  '..%2f..%2fetc',
  'x'.repeat(5000),
  '1;DROP%20TABLE%20users',
  '1e3',
  '0x10',
  '%27%20OR%201=1',
  '%F0%9F%98%80',
  '%ZZ',
];

const BAD_QUERIES = [
  'limit=-1',
  'limit=0',
  'limit=abc',
  'limit=1e9',
  'limit=1001',
  'limit=1&limit=2',
  'offset=-5',
  'offset=99999999999',
  'search=' + '%25'.repeat(3000),
  'search=%00',
  'search=%27%20OR%201%3D1--',
  'search=%5C',
  'from=not-a-date',
  'from=%2B275760-09-13T00:00:00.000Z',
  'to=2024-02-30T00:00:00Z',
  'from=2024-01-01T00:00:00Z&to=1970-01-01T00:00:00Z',
  'type=admin',
  'role=admin',
  'userId=-1',
  'userId=abc',
  'agentId=2147483648',
  'status=deleted',
  'unknown=1',
  'limit[]=1',
  'a'.repeat(9000) + '=1',
  'status=discarded',
  'status=settled&status=voided',
  'status[]=settled',
  'status=%00',
  "status=settled'--",
];

// ------------------------------------------------------------------ uploads

/** A 64 × 64 PNG, made once. */
let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
});

/** Logos no one may upload, and the statuses that refuse them. */
const UPLOADS: { label: string; files: () => Record<string, FilePart>; status: number[] }[] = [
  {
    label: 'text renamed .png',
    files: () => ({
      logo: { filename: 'logo.png', contentType: 'image/png', data: Buffer.from('just some text, not a picture') },
    }),
    status: [415],
  },
  {
    label: 'executable renamed .jpg',
    files: () => ({
      logo: {
        filename: 'logo.jpg',
        contentType: 'image/jpeg',
        data: Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00', 'latin1'),
      },
    }),
    status: [415],
  },
  {
    label: 'SVG with script',
    files: () => ({
      logo: {
        filename: 'logo.svg',
        contentType: 'image/svg+xml',
        data: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>',
        ),
      },
    }),
    status: [415],
  },
  {
    label: 'SVG renamed .png',
    files: () => ({
      logo: {
        filename: 'logo.png',
        contentType: 'image/png',
        data: Buffer.from(
          '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
      },
    }),
    status: [415],
  },
  {
    label: 'HTML behind a PNG signature',
    files: () => ({
      logo: {
        filename: 'logo.png',
        contentType: 'image/png',
        data: Buffer.concat([png.subarray(0, 8), Buffer.from('<html><script>alert(1)</script></html>')]),
      },
    }),
    status: [415],
  },
  {
    label: 'truncated PNG',
    files: () => ({
      logo: { filename: 'logo.png', contentType: 'image/png', data: png.subarray(0, Math.floor(png.length / 2)) },
    }),
    status: [415],
  },
  {
    label: 'empty file',
    files: () => ({ logo: { filename: 'logo.png', contentType: 'image/png', data: Buffer.alloc(0) } }),
    status: [415],
  },
  {
    label: 'pixel-flood PNG 60000×60000',
    files: () => ({ logo: { filename: 'flood.png', contentType: 'image/png', data: pixelFloodPng() } }),
    status: [415, 413],
  },
  {
    label: 'pixel-flood GIF 65535×65535',
    files: () => ({ logo: { filename: 'flood.gif', contentType: 'image/gif', data: pixelFloodGif() } }),
    status: [415, 413],
  },
  {
    label: 'over 5 MB',
    files: () => ({
      logo: {
        filename: 'big.png',
        contentType: 'image/png',
        data: Buffer.concat([png.subarray(0, 8), Buffer.alloc(5 * 1024 * 1024 + 10)]),
      },
    }),
    status: [413],
  },
  {
    label: 'two files',
    files: () => ({
      logo: { filename: 'a.png', contentType: 'image/png', data: png },
      other: { filename: 'b.png', contentType: 'image/png', data: png },
    }),
    status: [413, 400],
  },
  {
    label: 'file in another field',
    files: () => ({ fullName: { filename: 'a.png', contentType: 'image/png', data: png } }),
    status: [400],
  },
];

// ------------------------------------------------------------------ forged tokens

/** What a forger starts from: U1's real token, its claims, and the admin's claims. */
function forgery() {
  const valid = h.U1.token;
  const [header, payload, signature] = valid.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  const asAdmin = { sub: String(h.admin.id), ver: 0, iat: now, exp: now + 3600 };
  return { valid, header, payload, signature, claims, now, asAdmin };
}
type Forgery = ReturnType<typeof forgery>;
const OTHER_KEY = 'a-different-secret-that-is-long-enough!!';

/** Tokens that must never authenticate anyone. */
const FORGED_TOKENS: [string, (f: Forgery) => string][] = [
  ['alg none', (f) => forgeToken(f.asAdmin, null, { alg: 'none', typ: 'JWT' })],
  [
    'alg None, signature kept',
    (f) =>
      `${Buffer.from('{"alg":"None"}').toString('base64url')}.${Buffer.from(JSON.stringify(f.asAdmin)).toString('base64url')}.${f.signature}`,
  ],
  ['wrong key', (f) => forgeToken(f.asAdmin, OTHER_KEY)],
  [
    'edited payload (sub → admin), old signature',
    (f) =>
      `${f.header}.${Buffer.from(JSON.stringify({ ...f.claims, sub: String(h.admin.id) })).toString('base64url')}.${f.signature}`,
  ],
  ['expired', () => expiredToken(t.jwtSecret, { id: h.admin.id, tokenVersion: 0 })],
  ['HS512 with the right key', (f) => forgeToken(f.asAdmin, t.jwtSecret, { alg: 'HS512', typ: 'JWT' })],
  ['not yet valid', (f) => forgeToken({ ...f.asAdmin, nbf: f.now + 3600 }, t.jwtSecret)],
  ['old token version', (f) => forgeToken({ ...f.asAdmin, ver: -1 }, t.jwtSecret)],
  ['no version', (f) => forgeToken({ sub: String(h.admin.id), iat: f.now, exp: f.now + 60 }, t.jwtSecret)],
  ['sub not a number', (f) => forgeToken({ ...f.asAdmin, sub: '1 OR 1=1' }, t.jwtSecret)],
  ['sub beyond int4', (f) => forgeToken({ ...f.asAdmin, sub: '99999999999' }, t.jwtSecret)],
  ['sub of nobody', (f) => forgeToken({ ...f.asAdmin, sub: '424242' }, t.jwtSecret)],
  ['ver as string', (f) => forgeToken({ ...f.asAdmin, ver: '0' }, t.jwtSecret)],
  ['no session', (f) => forgeToken(f.asAdmin, t.jwtSecret)],
  ["another user's session", (f) => forgeToken({ ...f.asAdmin, sid: f.claims.sid }, t.jwtSecret)],
  ['session id not a UUID', (f) => forgeToken({ ...f.asAdmin, sid: "1' OR '1'='1" }, t.jwtSecret)],
  ['a sign-in challenge', (f) => forgeToken({ ...f.claims, use: 'code' }, t.jwtSecret)],
  [
    'kid injection, wrong key',
    (f) => forgeToken(f.asAdmin, OTHER_KEY, { alg: 'HS256', kid: "../../../../dev/null' UNION SELECT 'x" }),
  ],
  ['two parts', (f) => `${f.header}.${f.payload}`],
  ['garbage', () => 'x.y.z'],
  ['huge', () => 'a'.repeat(12_000)],
  ['empty bearer', () => ''],
];

/** The calls each forged token is tried on: reads, money, lists, a draw. */
const tokenCalls = (): InjectOptions[] => [
  { method: 'GET', url: '/api/balance' },
  { method: 'POST', url: '/api/balance/topup', payload: { userId: h.U2.id, amount: '5.00' } },
  { method: 'GET', url: '/api/users' },
  { method: 'POST', url: `/api/games/${games.draws.id}/draws`, payload: { position: 1 } },
  { method: 'POST', url: `/api/games/${games.drawing.id}/draws`, payload: { position: 2 } },
  { method: 'POST', url: `/api/games/${games.waiting.id}/void`, payload: { reason: 'forged' } },
  { method: 'GET', url: '/api/admin/backup' },
];

// ------------------------------------------------------------------ the cases

describe(`hostile input (${TEST_DB})`, () => {
  describe('JSON bodies of every write call, one hostile field at a time', () => {
    let all: Probe[];
    beforeAll(() => {
      all = fieldProbes();
    });

    it.each(FIELD_KINDS)(
      '%s: %s',
      async (kind) => {
        const chosen = sampleOf(kind, all);
        expect(chosen.length).toBeGreaterThan(0);
        for (const p of chosen) {
          // A created user must not collide with the last one: every accepted create gets a new name.
          if (p.request.url === '/api/users' && p.request.method === 'POST') {
            const body = JSON.parse(String(p.request.payload)) as Record<string, unknown>;
            if (body.username === 'fuzzed') body.username = `fuzzed_${(createdUsers += 1)}`;
            p.request.payload = JSON.stringify(body);
          }
          await probe(p);
        }
        console.log(
          `hostile input (${TEST_DB}) ${kind}: ${chosen.length} of ${all.filter((p) => p.kind === kind).length} field mutations tried (HOSTILE_SEED=${SEED})`,
        );
        expect(failures).toEqual([]);
      },
      LIMIT,
    );
  });

  describe('the inputs that found defects, every run', () => {
    const nul = 'null\u0000byte';
    /** A compatibility-path body whose first participant is replaced. */
    const withParticipant = (participant: Record<string, unknown>) => {
      const game = compatBody();
      return {
        ...game,
        gameData: { ...game.gameData, selectedNumbers: [participant, game.gameData.selectedNumbers[1]] },
      };
    };
    const found: [string, () => [string | null, InjectOptions], number][] = [
      ['NUL in shopName', () => [h.A1.token, json('PUT', `/api/users/${h.U2.id}`, { shopName: nul })], 400],
      [
        'NUL in a description',
        () => [
          t.adminToken,
          json('POST', '/api/balance/decrease', { userId: h.A1.id, amount: '1.00', description: nul }),
        ],
        400,
      ],
      [
        'NUL in an entered name',
        () => [
          h.U1.token,
          json('PUT', `/api/games/${games.entries.id}/entries`, {
            entries: [{ number: 1, name: nul, phoneNumber: '555' }],
          }),
        ],
        400,
      ],
      [
        'a lone surrogate in an entered phone',
        () => [
          h.U1.token,
          json('PUT', `/api/games/${games.entries.id}/entries`, {
            entries: [{ number: 1, name: 'Ann', phoneNumber: '\ud800' }],
          }),
        ],
        400,
      ],
      [
        'NUL in a void reason',
        () => [h.U4.token, json('POST', `/api/games/${games.void.id}/void`, { reason: nul })],
        400,
      ],
      ['NUL in a proof code', () => [null, { method: 'GET', url: '/api/verify/a%00b' }], 400],
      [
        'NUL in a participant name',
        () => [
          h.U1.token,
          json('POST', '/api/sales-history', withParticipant({ number: 1, name: nul, phoneNumber: '555' })),
        ],
        400,
      ],
      [
        'a lone surrogate in a participant phone (stored as jsonb)',
        () => [
          h.U1.token,
          json('POST', '/api/sales-history', withParticipant({ number: 1, name: 'Ann', phoneNumber: '\ud800' })),
        ],
        400,
      ],
      [
        'NUL in a sign-in username',
        () => [null, json('POST', '/api/auth/signin', { username: nul, password: 'whatever' })],
        400,
      ],
      ['NUL in a search', () => [t.adminToken, { method: 'GET', url: '/api/users?search=%00' }], 400],
      ['NUL in the header search', () => [h.S1.token, { method: 'GET', url: '/api/search?q=a%00b' }], 400],
      [
        'a percent with its own toString',
        () => [t.adminToken, json('POST', '/api/winners', { name: 'X', percent: { toString: 'x' }, position: 3 })],
        400,
      ],
      [
        'multipart without a boundary',
        () => [
          h.U1.token,
          {
            method: 'PUT',
            url: `/api/users/${h.U1.id}`,
            payload: '--x\r\n',
            headers: { 'content-type': 'multipart/form-data' },
          },
        ],
        400,
      ],
      [
        'multipart cut short',
        () => [
          h.U1.token,
          {
            method: 'PUT',
            url: `/api/users/${h.U1.id}`,
            payload: '--b\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nA',
            headers: { 'content-type': 'multipart/form-data; boundary=b' },
          },
        ],
        400,
      ],
    ];

    it.each(found)('%s is refused', async (label, build, status) => {
      const [token, request] = build();
      expect(await probe({ label, token, request, mustRefuse: true })).toBe(status);
      expect(failures).toEqual([]);
    });
  });

  describe("calls a game's state refuses (LOT-DRAW-2), by the shop, its upline, an admin and outsiders", () => {
    const UPLINE_CANNOT_START = 'Only the shop that runs a game can start its draw';
    const SHOP_CANNOT_VOID =
      'The draw has started, so its outcome is fixed: this game can no longer be voided by its shop. Ask your agent or an admin to finish or void it';
    const draw = (id: number, position: unknown) => json('POST', `/api/games/${id}/draws`, { position });
    const stop = (id: number, reason: unknown) => json('POST', `/api/games/${id}/void`, { reason });
    const enter = (id: number) => json('PUT', `/api/games/${id}/entries`, { entries: participants([4, 5]) });
    /** Label, who, the request, the status it must get and, where it matters, the message. */
    const refusals = (): [string, string, InjectOptions, number, string?][] => [
      // Open (U3's, under A2 and S1): the upline and the admin may not start its draw.
      ['agent starts the draw', h.A2.token, draw(games.draws.id, 1), 403, UPLINE_CANNOT_START],
      ['super agent starts the draw', h.S1.token, draw(games.draws.id, 1), 403, UPLINE_CANNOT_START],
      ['admin starts the draw', t.adminToken, draw(games.draws.id, 1), 403, UPLINE_CANNOT_START],
      ['an agent outside the scope draws', h.A1.token, draw(games.draws.id, 1), 404],
      ['an agent outside the scope discards', h.A1.token, stop(games.draws.id, 'not mine'), 404],
      ['the shop draws position 2 first', h.U3.token, draw(games.draws.id, 2), 409],
      // Frozen, waiting for R (shop_waiting's, under A1 and S1).
      ['the shop voids', shops.waiting.token, stop(games.waiting.id, 'changed my mind'), 403, SHOP_CANNOT_VOID],
      ['the shop changes the entries', shops.waiting.token, enter(games.waiting.id), 409],
      ['the agent changes the entries', h.A1.token, enter(games.waiting.id), 403],
      ['the agent draws position 2', h.A1.token, draw(games.waiting.id, 2), 409],
      ['the admin draws position 1000', t.adminToken, draw(games.waiting.id, 1000), 409],
      ['another shop draws', h.U1.token, draw(games.waiting.id, 1), 404],
      ['another super agent voids', h.S2.token, stop(games.waiting.id, 'not mine'), 404],
      ['another agent draws', h.A2.token, draw(games.waiting.id, 1), 404],
      ['the agent voids with a blank reason', h.A1.token, stop(games.waiting.id, '   '), 400],
      ['the agent voids with a NUL reason', h.A1.token, stop(games.waiting.id, 'a\u0000b'), 400],
      ['the agent voids with 501 characters', h.A1.token, stop(games.waiting.id, 'x'.repeat(501)), 400],
      ['the agent voids with a number', h.A1.token, stop(games.waiting.id, 12), 400],
      ['the agent draws position 0', h.A1.token, draw(games.waiting.id, 0), 400],
      ['the agent draws position 1.5', h.A1.token, draw(games.waiting.id, 1.5), 400],
      ['the agent draws position "1"', h.A1.token, draw(games.waiting.id, '1'), 400],
      ['the agent draws position 1001', h.A1.token, draw(games.waiting.id, 1001), 400],
      // Frozen, R known, position 1 drawn (under A1).
      ['the drawing shop voids', shops.drawing.token, stop(games.drawing.id, 'changed'), 403, SHOP_CANNOT_VOID],
      ['the drawing shop changes the entries', shops.drawing.token, enter(games.drawing.id), 409],
      ['the drawing shop draws position 3', shops.drawing.token, draw(games.drawing.id, 3), 409],
      ['the agent draws position 3', h.A1.token, draw(games.drawing.id, 3), 409],
      ['another agent finishes it', h.A2.token, draw(games.drawing.id, 2), 404],
      ['another shop finishes it', h.U1.token, draw(games.drawing.id, 2), 404],
      ['another agent voids it', h.A3.token, stop(games.drawing.id, 'not mine'), 404],
      // Voided by its agent after its freeze.
      ['a voided game drawn by its shop', shops.voided.token, draw(games.voided.id, 1), 409],
      ['a voided game drawn by its agent', h.A1.token, draw(games.voided.id, 1), 409],
      ['a voided game voided again by its agent', h.A1.token, stop(games.voided.id, 'again'), 409],
      ['a voided game voided by the admin', t.adminToken, stop(games.voided.id, 'again'), 409],
      ['a voided game voided by its shop', shops.voided.token, stop(games.voided.id, 'again'), 409],
      // Settled (U1's).
      ['a settled game voided by its agent', h.A1.token, stop(settled.id, 'too late'), 409],
      ['a settled game voided by the admin', t.adminToken, stop(settled.id, 'too late'), 409],
      ['a settled game voided by its shop', h.U1.token, stop(settled.id, 'too late'), 409],
      ['a settled game drawn past its prizes', h.A1.token, draw(settled.id, 3), 409],
    ];

    it('each is refused with its status (and message) and changes nothing', async () => {
      for (const [label, token, request, status, message] of refusals()) {
        const got = await probe({ label, token, request, mustRefuse: true });
        if (got !== status) failures.push(`${label}: ${got}, not ${status}`);
        if (message) {
          const response = await t.request(token, request);
          const said = response.json<{ message?: string }>().message;
          if (said !== message) failures.push(`${label}: said ${JSON.stringify(said)}`);
        }
      }
      // What the same callers may do changes nothing on a waiting game, and answers the position drawn again.
      for (const token of [shops.waiting.token, h.A1.token, h.S1.token, t.adminToken])
        await probe({
          label: 'a draw of a waiting game',
          token,
          request: draw(games.waiting.id, 1),
          mustRefuse: false,
          pure: true,
          accepted: stillWaiting,
        });
      for (const token of [shops.drawing.token, h.A1.token, h.S1.token, t.adminToken])
        await probe({
          label: 'position 1 asked again',
          token,
          request: draw(games.drawing.id, 1),
          mustRefuse: false,
          pure: true,
          accepted: (body) =>
            (JSON.parse(body) as DrawResult).number === games.drawing.draws[0]?.number ? undefined : body.slice(0, 200),
        });
      expect(failures).toEqual([]);
    });
  });

  describe('whole bodies', () => {
    it.each(BODY_KINDS.map(({ kind, bodies }) => [kind, bodies] as const))(
      '%s',
      async (_kind, bodies) => {
        for (const target of bodyTargets())
          for (const b of bodies)
            await probe({
              label: b.label,
              token: target.token,
              request: { method: target.method, url: target.url, ...b.body },
              mustRefuse: true,
            });
        expect(failures).toEqual([]);
      },
      LIMIT,
    );

    it(
      'random JSON as whole bodies and as an amount',
      async () => {
        const targets = bodyTargets();
        const samples = fc.sample(fc.jsonValue({ maxDepth: 4 }), { numRuns: RANDOM_BODIES, seed: SEED });
        for (const [i, value] of samples.entries()) {
          const target = targets[i % targets.length] as (typeof targets)[number];
          await probe({
            label: `random ${short(value)}`,
            token: target.token,
            request: json(target.method, target.url, value),
            mustRefuse: false,
          });
          await probe({
            label: `random amount ${short(value)}`,
            token: h.U1.token,
            request: json('POST', '/api/balance/transfer', { receiverId: h.U2.id, amount: value }),
            mustRefuse: false,
          });
        }
        console.log(
          `hostile input (${TEST_DB}): ${samples.length * 2} random JSON bodies tried (HOSTILE_SEED=${SEED})`,
        );
        expect(failures).toEqual([]);
      },
      LIMIT,
    );
  });

  describe('ids, paths, query strings and headers', () => {
    it(
      'bad ids in every path that takes one',
      async () => {
        const urls: { method: InjectOptions['method']; url: (id: string) => string; token: string }[] = [
          { method: 'GET', url: (id) => `/api/users/${id}`, token: t.adminToken },
          { method: 'PUT', url: (id) => `/api/users/${id}`, token: t.adminToken },
          { method: 'DELETE', url: (id) => `/api/users/${id}`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/users/${id}/logo?t=${id}`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/users/role/${id}`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/users/parent/${id}/role/user`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/balance/${id}`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/winners/user/${id}`, token: t.adminToken },
          { method: 'PUT', url: (id) => `/api/winners/${id}`, token: t.adminToken },
          { method: 'DELETE', url: (id) => `/api/winners/${id}`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/sales-history/${id}`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/sales-history/user/${id}`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/sales-history/superagent/${id}`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/games/${id}`, token: t.adminToken },
          { method: 'PUT', url: (id) => `/api/games/${id}/entries`, token: h.U1.token },
          { method: 'POST', url: (id) => `/api/games/${id}/draws`, token: h.U3.token },
          { method: 'POST', url: (id) => `/api/games/${id}/void`, token: h.U4.token },
          { method: 'POST', url: (id) => `/api/games/${id}/draws`, token: h.A1.token },
          { method: 'POST', url: (id) => `/api/games/${id}/void`, token: h.A1.token },
          { method: 'POST', url: (id) => `/api/games/${id}/draws`, token: t.adminToken },
          { method: 'POST', url: (id) => `/api/claims/${id}/pay`, token: h.U1.token },
          { method: 'POST', url: (id) => `/api/claims/${id}/extend`, token: t.adminToken },
          { method: 'POST', url: (id) => `/api/claims/${id}/approve`, token: t.adminToken },
          { method: 'GET', url: (id) => `/api/claims/${id}/receipt`, token: t.adminToken },
          { method: 'POST', url: (id) => `/api/claims/${id}/receipt/prints`, token: h.U1.token },
          { method: 'GET', url: (id) => `/api/shifts/${id}/report`, token: t.adminToken },
          { method: 'POST', url: (id) => `/api/shifts/${id}/movements`, token: shops.shift.token },
          { method: 'POST', url: (id) => `/api/shifts/${id}/close`, token: shops.shift.token },
        ];
        /** A valid body for each kind of call, so that only the id is wrong. */
        const bodyFor = (url: string) =>
          url.endsWith('/entries')
            ? { entries: participants([1]) }
            : url.endsWith('/draws')
              ? { position: 1 }
              : url.endsWith('/void')
                ? { reason: 'fuzz' }
                : url.endsWith('/pay')
                  ? { entryCode: '0123456789abcdef', claimerName: 'Fuzz' }
                  : url.endsWith('/approve')
                    ? { claimerIdNumber: 'ID-1', reason: 'fuzz' }
                    : url.endsWith('/extend')
                      ? { days: 1, reason: 'fuzz' }
                      : url.endsWith('/close')
                        ? { countedCash: '1.00', varianceReason: 'fuzz' }
                        : url.endsWith('/movements')
                          ? { kind: 'paid_in', amount: '1.00', reason: 'fuzz' }
                          : { fullName: 'Changed' };
        for (const u of urls)
          for (const id of BAD_IDS)
            await probe({
              label: `id ${id.slice(0, 20)}`,
              token: u.token,
              request: {
                method: u.method,
                url: u.url(id),
                ...(u.method !== 'GET' && u.method !== 'DELETE' && { payload: bodyFor(u.url(id)) }),
              },
              mustRefuse: true,
            });
        expect(failures).toEqual([]);
      },
      LIMIT,
    );

    it('bad proof codes, signed in or not: anything but a game code is not found or refused', async () => {
      const codes = [
        ...BAD_IDS,
        'A'.repeat(22),
        settled.code.toLowerCase() === settled.code ? settled.code.toUpperCase() : settled.code.toLowerCase(),
        `${settled.code}%20`,
        `%20${settled.code}`,
        `${settled.code}x`,
        settled.code.slice(0, -1),
        `${settled.code}%00`,
        `${settled.code}'--`,
        '*',
        '%25',
        '_'.repeat(22),
        'x'.repeat(64),
        'x'.repeat(65),
        '%E2%80%AE',
        '%ED%A0%80',
        '..%2F..%2Fapi%2Fusers',
        encodeURIComponent(JSON.stringify({ $ne: null })),
      ];
      for (const code of codes)
        for (const token of [null, h.U5.token])
          await probe({
            label: `code ${code.slice(0, 30)}`,
            token,
            request: { method: 'GET', url: `/api/verify/${code}` },
            mustRefuse: true,
          });
      expect(failures).toEqual([]);
    });

    it('bad game log paths, signed in or not: anything but a tile the log holds is not found (decision 081)', async () => {
      const paths = [
        ...BAD_IDS.map((id) => `tile/0/${id}`),
        ...BAD_IDS.map((id) => `tile/${id}/000`),
        ...BAD_IDS.map((id) => `tile/entries/000.p/${id}`),
        'tile/0/000.p/0',
        'tile/0/000.p/256',
        'tile/0/000.p/01',
        'tile/0/x000/001',
        'tile/0/1',
        'tile/64/000',
        'tile/00/000',
        'tile/0/x999/x999/x999/x999/x999/999',
        'tile/0/000%00',
        'tile/0/%2e%2e/%2e%2e/api/users',
        'tile/entries/000.p/1/extra',
        `tile/0/${'x001/'.repeat(40)}001`,
        'tile/0/999',
        'tile/',
        'checkpoint/x',
        'x'.repeat(300),
      ];
      for (const path of paths)
        for (const token of [null, h.U5.token])
          await probe({
            label: `log ${path.slice(0, 30)}`,
            token,
            request: { method: 'GET', url: `/log/${path}` },
            mustRefuse: true,
          });
      expect(failures).toEqual([]);
    });

    it(
      'bad query strings on every list: refused or ignored, never a crash',
      async () => {
        const lists = [
          '/api/users',
          '/api/users/role/user',
          '/api/transactions',
          '/api/winners',
          '/api/sales-history/filter',
          `/api/sales-history/user/${h.U1.id}`,
          `/api/sales-history/superagent/${h.S1.id}`,
          '/api/games',
          '/api/search',
          '/api/notifications',
          '/api/claims',
        ];
        for (const list of lists)
          for (const query of BAD_QUERIES) {
            const status = await probe({
              label: query.slice(0, 40),
              token: t.adminToken,
              request: { method: 'GET', url: `${list}?${query}` },
              mustRefuse: false,
            });
            if (status === 200 && /^(limit=-1|limit=abc|offset=-5|from=not-a-date)$/.test(query))
              failures.push(`${list}?${query}: accepted`);
          }
        // The header search's text, hostile or not, from every role: found or refused, never a crash
        // (a lone surrogate goes as the bytes it would be, which no encoder makes).
        for (const value of STRINGS.filter((v): v is string => typeof v === 'string'))
          for (const token of [t.adminToken, h.S1.token, h.A1.token, h.U1.token])
            await probe({
              label: `search q=${short(value)}`,
              token,
              request: {
                method: 'GET',
                url: `/api/search?q=${value === '\ud800' ? '%ED%A0%80' : encodeURIComponent(value)}`,
              },
              mustRefuse: value.trim() === '' || [...value].length > 64 || value.includes('\u0000'),
              pure: true,
            });
        expect(failures).toEqual([]);
      },
      LIMIT,
    );

    it('bad idempotency keys: empty, blank, too long, not ASCII, control characters', async () => {
      for (const key of ['', ' ', 'x'.repeat(201), 'é', 'a\u0000b', 'a b', 'x'.repeat(8000)]) {
        await probe({
          label: `idempotency-key ${short(key)}`,
          token: h.U1.token,
          request: {
            method: 'POST',
            url: '/api/balance/transfer',
            payload: { receiverId: h.U2.id, amount: '1.00' },
            headers: { 'idempotency-key': key },
          },
          mustRefuse: true,
        });
      }
      expect(failures).toEqual([]);
    });
  });

  describe('uploads', () => {
    it.each(UPLOADS.map((upload) => [upload.label, upload.status.join(' or '), upload] as const))(
      '%s is refused with %s and no logo is stored',
      async (_label, _status, { label, files, status }) => {
        const form = multipart({ fullName: 'User One' }, files());
        const answered = await probe({
          label,
          token: h.U1.token,
          request: { method: 'PUT', url: `/api/users/${h.U1.id}`, ...form },
          mustRefuse: true,
        });
        expect(status).toContain(answered);
        const [row] = await queryRows<{ has_logo: boolean }>(
          t.database.db,
          sql`SELECT has_logo FROM users WHERE id = ${h.U1.id}`,
        );
        expect(row?.has_logo).toBe(false);
        expect(failures).toEqual([]);
      },
    );
  });

  describe('forged tokens', () => {
    it.each(FORGED_TOKENS)('%s: 401 on every call, nothing changed', async (label, make) => {
      const token = make(forgery());
      for (const call of tokenCalls()) {
        const status = await probe({
          label: `token ${label}`,
          token: null,
          request: { ...call, headers: { authorization: `Bearer ${token}` } },
          mustRefuse: true,
        });
        if (status !== 401 && status !== 431) failures.push(`token ${label} ${call.url}: ${status}`);
      }
      expect(failures).toEqual([]);
    });

    it('malformed authorization headers: Basic, no space, another scheme, two tokens', async () => {
      const { valid } = forgery();
      for (const scheme of ['Basic YWRtaW46YWRtaW4=', `bearer${valid}`, `Token ${valid}`, `Bearer ${valid} ${valid}`])
        await probe({
          label: `authorization ${scheme.slice(0, 12)}`,
          token: null,
          request: {
            method: 'POST',
            url: '/api/balance/topup',
            payload: { userId: h.U2.id, amount: '5.00' },
            headers: { authorization: scheme },
          },
          mustRefuse: true,
        });
      expect(failures).toEqual([]);
    });
  });

  afterAll(() => {
    console.log(`hostile input (${TEST_DB}): ${tried.count} inputs tried in all`);
  });
});
