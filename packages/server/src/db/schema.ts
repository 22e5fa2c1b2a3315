import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * Users of all four roles. The hierarchy is enforced by the database itself: a parent is
 * referenced together with its role (composite foreign key onto (id, role)), and a CHECK says
 * which parent role each role may have. Roles never change, so the copy of the parent's role
 * cannot go stale. Deletion is soft: history keeps pointing at the row.
 */
export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    /** The username as people read it (decision 047): `usernameKey` in @lot/domain, kept by the database. */
    usernameKey: text('username_key')
      .notNull()
      .generatedAlwaysAs(sql`lot_username_key(username)`),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name').notNull(),
    shopName: text('shop_name'),
    role: text('role', { enum: ['admin', 'superagent', 'agent', 'user'] }).notNull(),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    parentId: integer('parent_id'),
    parentRole: text('parent_role', { enum: ['admin', 'superagent', 'agent', 'user'] }),
    hasLogo: boolean('has_logo').notNull().default(false),
    /** Bumped on password change, deactivation and deletion: tokens carry it and die with it. */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    unique('users_id_role_uq').on(t.id, t.role),
    foreignKey({
      name: 'users_parent_fk',
      columns: [t.parentId, t.parentRole],
      foreignColumns: [t.id, t.role],
    }),
    uniqueIndex('users_username_live_uq')
      .on(t.usernameKey)
      .where(sql`${t.deletedAt} IS NULL`),
    index('users_parent_idx').on(t.parentId, t.role),
    // Lists of live users by role, newest first, counted from the index alone.
    index('users_live_role_idx')
      .on(t.role, t.id)
      .where(sql`${t.deletedAt} IS NULL`),
    // Search by username or full name (ILIKE '%…%') through trigrams.
    index('users_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
    index('users_full_name_trgm_idx').using('gin', t.fullName.op('gin_trgm_ops')),
    // Shop names, for the users lists' and the header's search (decision 022).
    index('users_shop_name_trgm_idx').using('gin', t.shopName.op('gin_trgm_ops')),
    check('users_role_ck', sql`${t.role} IN ('admin', 'superagent', 'agent', 'user')`),
    check('users_status_ck', sql`${t.status} IN ('active', 'inactive')`),
    check('users_parent_pair_ck', sql`(${t.parentId} IS NULL) = (${t.parentRole} IS NULL)`),
    check(
      'users_parent_role_ck',
      sql`CASE ${t.role}
        WHEN 'admin' THEN ${t.parentId} IS NULL
        WHEN 'superagent' THEN ${t.parentId} IS NULL
        WHEN 'agent' THEN ${t.parentRole} = 'superagent'
        ELSE ${t.parentRole} IS NULL OR ${t.parentRole} IN ('superagent', 'agent')
      END`,
    ),
    check('users_not_own_parent_ck', sql`${t.parentId} IS NULL OR ${t.parentId} <> ${t.id}`),
  ],
);

/** Logos live apart from users so that user lists never drag image bytes along. */
export const userLogos = pgTable('user_logos', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  mimeType: text('mime_type').notNull(),
  data: bytea('data').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** One balance row per user, integer cents, never negative. */
export const balances = pgTable(
  'balances',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    amount: bigint('amount', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('balances_amount_ck', sql`${t.amount} >= 0`)],
);

/**
 * The ledger. `userId` is the party whose money leaves (the sender; for a top-up the admin who
 * made it; for a take-back the account it was taken from), `receiverId` the party it reaches. Every balance equals the sum of its rows.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    type: text('type', { enum: ['topup', 'transfer', 'decrease', 'game', 'takeback'] }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    receiverId: integer('receiver_id').references(() => users.id),
    actorId: integer('actor_id')
      .notNull()
      .references(() => users.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** A game's pool is `pending` while the game is drawn, then `completed`, or `voided` (returned). */
    status: text('status', { enum: ['completed', 'pending', 'failed', 'voided'] })
      .notNull()
      .default('completed'),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [
    check('transactions_amount_ck', sql`${t.amount} > 0`),
    check('transactions_type_ck', sql`${t.type} IN ('topup', 'transfer', 'decrease', 'game', 'takeback')`),
    index('transactions_user_idx').on(t.userId, t.createdAt),
    index('transactions_receiver_idx').on(t.receiverId, t.createdAt),
    index('transactions_created_idx').on(t.createdAt),
    // The downline report's money between two instants without the game rows (most of the ledger).
    index('transactions_moves_created_idx')
      .on(t.createdAt)
      .where(sql`${t.type} IN ('topup', 'transfer', 'takeback') AND ${t.status} = 'completed'`),
    // The admin's downline report reads the period's corrections (few) row by row.
    index('transactions_corrections_created_idx')
      .on(t.createdAt)
      .where(sql`${t.type} = 'decrease'`),
  ],
);

/** Replays of money calls: the same key and body answer the first response again. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    response: jsonb('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.userId, t.key] })],
);

/** Failed sign-ins, kept in the database so the limit holds across processes and restarts. */
export const signinFailures = pgTable(
  'signin_failures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('signin_failures_lookup_idx').on(t.username, t.address, t.createdAt)],
);

/** Prize positions and their share of the pool. `userId` null: a global configuration. */
export const winnerConfigs = pgTable(
  'winner_configs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id),
    name: text('name').notNull(),
    percentBps: integer('percent_bps').notNull(),
    position: integer('position').notNull(),
    description: text('description'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    check('winner_configs_percent_ck', sql`${t.percentBps} BETWEEN 0 AND 10000`),
    check('winner_configs_position_ck', sql`${t.position} >= 1`),
    index('winner_configs_user_idx').on(t.userId, t.position),
    // One prize per position: one active configuration per owner (a user, or the global ones as 0)
    // and position (decision 035).
    uniqueIndex('winner_configs_active_position_uq')
      .on(sql`COALESCE(${t.userId}, 0)`, t.position)
      .where(sql`${t.isActive}`),
  ],
);

/**
 * A played game (a sales history entry). The player's parent and superagent are copied at the
 * time of the game, so sales stay with the hierarchy that made them and the screens' filters are
 * single index range scans. pool = total_prize + commission, always.
 */
export const games = pgTable(
  'games',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    parentId: integer('parent_id').references(() => users.id),
    superagentId: integer('superagent_id').references(() => users.id),
    startRange: integer('start_range').notNull(),
    endRange: integer('end_range').notNull(),
    betAmount: bigint('bet_amount', { mode: 'number' }).notNull(),
    pool: bigint('pool', { mode: 'number' }).notNull(),
    totalPrize: bigint('total_prize', { mode: 'number' }).notNull(),
    commission: bigint('commission', { mode: 'number' }).notNull(),
    selectedCount: integer('selected_count').notNull(),
    winnersCount: integer('winners_count').notNull(),
    /** selectedNumbers (participants), winningNumbers (drawn, in order), drawCount. */
    gameData: jsonb('game_data').notNull(),
    transactionId: integer('transaction_id')
      .notNull()
      .unique()
      .references(() => transactions.id),
    /** The shop's game number, copied from its round (null for a sale without one). */
    number: integer('number'),
    createdAt: createdAt(),
  },
  // Ascending indexes: lists read them backwards for ORDER BY created_at DESC, id DESC.
  (t) => [
    check('games_range_ck', sql`${t.startRange} >= 1 AND ${t.startRange} < ${t.endRange} AND ${t.endRange} <= 100`),
    check(
      'games_money_ck',
      sql`${t.betAmount} > 0 AND ${t.totalPrize} >= 0 AND ${t.commission} >= 0 AND ${t.pool} = ${t.totalPrize} + ${t.commission}`,
    ),
    check('games_pool_ck', sql`${t.pool} = ${t.betAmount} * ${t.selectedCount}`),
    index('games_created_idx').on(t.createdAt, t.id),
    index('games_user_idx').on(t.userId, t.createdAt, t.id),
    index('games_parent_idx').on(t.parentId, t.createdAt, t.id),
    index('games_superagent_idx').on(t.superagentId, t.createdAt, t.id),
  ],
);

export const gameWinners = pgTable(
  'game_winners',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id),
    number: integer('number').notNull(),
    name: text('name').notNull(),
    phoneNumber: text('phone_number').notNull(),
    position: integer('position').notNull(),
    prizeAmount: bigint('prize_amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    check('game_winners_prize_ck', sql`${t.prizeAmount} >= 0`),
    index('game_winners_game_idx').on(t.gameId, t.position),
  ],
);

/**
 * Games, numbers sold, pool, prizes and commission per superagent (0: players without one) per UTC
 * day, kept by a trigger on `games` (migrations 0003, 0009) so that every write path keeps it exact.
 * Totals over wide ranges (the sales history's, the admin's downline report) read these rows for
 * whole days and only the partial days at the edges from `games`.
 */
export const salesDaily = pgTable(
  'sales_daily',
  {
    superagentId: integer('superagent_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    games: integer('games').notNull(),
    numbers: bigint('numbers', { mode: 'number' }).notNull().default(0),
    pool: bigint('pool', { mode: 'number' }).notNull().default(0),
    prizes: bigint('prizes', { mode: 'number' }).notNull().default(0),
    commission: bigint('commission', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'sales_daily_pk', columns: [t.superagentId, t.day] }),
    index('sales_daily_day_idx').on(t.day),
  ],
);

/**
 * The same figures one level down, per branch of a superagent per UTC day: the branch is the
 * player's agent, or the player itself when its parent is the superagent (or, under superagent 0,
 * when it has no parent). A superagent's downline report reads its branches' whole days here
 * (migration 0009, decision 023).
 */
export const branchDaily = pgTable(
  'branch_daily',
  {
    superagentId: integer('superagent_id').notNull(),
    branchId: integer('branch_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    games: integer('games').notNull(),
    numbers: bigint('numbers', { mode: 'number' }).notNull(),
    pool: bigint('pool', { mode: 'number' }).notNull(),
    prizes: bigint('prizes', { mode: 'number' }).notNull(),
    commission: bigint('commission', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'branch_daily_pk', columns: [t.superagentId, t.branchId, t.day] })],
);

/**
 * Completed top-ups, transfers and take-backs per UTC day between the top-level subtrees the
 * two accounts stand in now (`top`: the account's superagent, a user without one itself, 0 for
 * the admin). Kept by triggers on `transactions` and on a change of parent in `users`, which moves
 * the account's past rows to its new subtree (migration 0009, decision 023). The admin's downline
 * report reads its whole days here.
 */
export const moneyDaily = pgTable(
  'money_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    fromTop: integer('from_top').notNull(),
    toTop: integer('to_top').notNull(),
    type: text('type', { enum: ['topup', 'transfer', 'takeback'] }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'money_daily_pk', columns: [t.day, t.fromTop, t.toTop, t.type] })],
);

/**
 * Live users per role and status, kept by statement triggers on `users` (migration 0004) so that
 * every write path keeps it exact. The admin's user lists take their total from here: counting
 * 100,000 users costs tens of milliseconds, reading four rows does not.
 */
export const userCounts = pgTable(
  'user_counts',
  {
    role: text('role', { enum: ['admin', 'superagent', 'agent', 'user'] }).notNull(),
    status: text('status', { enum: ['active', 'inactive'] }).notNull(),
    users: integer('users').notNull(),
  },
  (t) => [primaryKey({ name: 'user_counts_pk', columns: [t.role, t.status] })],
);

/**
 * A BOCH BOCH game run by the server (decision 013, docs/lot-draw-1.md), from the moment it opens:
 * the prizes snapshotted from the player's effective winner settings, the secret seed and its
 * commitment, the participants, the draws so far. The first draw holds the pool (`transaction_id`,
 * a pending ledger row); the last one settles it into a sales-history record (`sale_id`). A void
 * returns the hold and keeps everything on record. The player's parent and superagent are copied
 * when it opens, as for sales.
 */
export const gameRounds = pgTable(
  'game_rounds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** Public and unguessable (128 random bits, base64url): the verify page's address. */
    code: text('code').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /**
     * The shop's game number: 1, 2, 3… per shop without gaps, given by a trigger from
     * `shop_counters` in the inserting transaction (migration 0014, decision 037), whatever the
     * insert says (so inserts leave it out: the 0 here is replaced).
     */
    number: integer('number')
      .notNull()
      .$defaultFn(() => 0),
    parentId: integer('parent_id').references(() => users.id),
    superagentId: integer('superagent_id').references(() => users.id),
    /** The shop's shift that was open when the game froze (its bets are that shift's cash). */
    shiftId: integer('shift_id').references(() => shifts.id),
    status: text('status', { enum: ['open', 'drawing', 'settled', 'voided', 'discarded'] })
      .notNull()
      .default('open'),
    startRange: integer('start_range').notNull(),
    endRange: integer('end_range').notNull(),
    betAmount: bigint('bet_amount', { mode: 'number' }).notNull(),
    /** [{ position, percentBps, name }] ascending by position, as the game opened. */
    prizes: jsonb('prizes').notNull(),
    /**
     * The secret seed, sealed with SEED_KEY (lib/seed-box.ts, decision 034): AES-256-GCM with the
     * game's code as associated data. Rows from before the seal (`seed_sealed` false) are sealed
     * when the server starts.
     */
    seed: bytea('seed').notNull(),
    seedSealed: boolean('seed_sealed').notNull().default(false),
    commitment: text('commitment').notNull(),
    /** LOT-DRAW-2 (public randomness after the freeze, decision 033) or LOT-DRAW-1; fixed at open. */
    protocol: text('protocol', { enum: ['LOT-DRAW-1', 'LOT-DRAW-2'] })
      .notNull()
      .default('LOT-DRAW-1'),
    /** LOT-DRAW-2: the beacon pinned at open, { chainHash, publicKey, genesisTime, period }. */
    beacon: jsonb('beacon'),
    /** [{ number, name, phoneNumber, nonce }] in the order the operator entered them. */
    entries: jsonb('entries').notNull().default([]),
    /** Fixed by the first draw. */
    entriesDigest: text('entries_digest'),
    /** When the first draw froze the entries and held the pool. */
    frozenAt: timestamp('frozen_at', { withTimezone: true, mode: 'date' }),
    /**
     * LOT-DRAW-2: round R, named at the freeze after L (decision 076); its signature once fetched and
     * verified.
     */
    beaconRound: bigint('beacon_round', { mode: 'number' }),
    /** L: the latest round public at the freeze (null on games frozen before it was recorded, migration 0023). */
    beaconLatestRound: bigint('beacon_latest_round', { mode: 'number' }),
    beaconSignature: text('beacon_signature'),
    beaconRandomness: text('beacon_randomness'),
    /**
     * A witnessed freeze (decision 080): the index of its `frozen` leaf in the game log, and the
     * checkpoint that holds it as a signed note with the witnesses' cosignatures.
     */
    logIndex: bigint('log_index', { mode: 'number' }),
    logCheckpoint: text('log_checkpoint'),
    /** [{ number, drawnAt }] in draw order. */
    draws: jsonb('draws').notNull().default([]),
    transactionId: integer('transaction_id')
      .unique()
      .references(() => transactions.id),
    saleId: integer('sale_id')
      .unique()
      .references(() => games.id),
    voidReason: text('void_reason'),
    voidedBy: integer('voided_by').references(() => users.id),
    createdAt: createdAt(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('game_rounds_status_ck', sql`${t.status} IN ('open', 'drawing', 'settled', 'voided', 'discarded')`),
    check(
      'game_rounds_range_ck',
      sql`${t.startRange} >= 1 AND ${t.startRange} < ${t.endRange} AND ${t.endRange} <= 100`,
    ),
    check('game_rounds_bet_ck', sql`${t.betAmount} > 0`),
    // A LOT-DRAW-2 game names its beacon; once frozen it has its round; no draw before the round's signature.
    check(
      'game_rounds_beacon_ck',
      sql`(${t.protocol} = 'LOT-DRAW-2') = (${t.beacon} IS NOT NULL)
        AND (${t.protocol} = 'LOT-DRAW-1' OR (${t.frozenAt} IS NULL) = (${t.beaconRound} IS NULL))
        AND (${t.beaconSignature} IS NULL OR ${t.beaconRound} IS NOT NULL)
        AND (${t.protocol} = 'LOT-DRAW-1' OR jsonb_array_length(${t.draws}) = 0 OR ${t.beaconSignature} IS NOT NULL)`,
    ),
    // L is recorded with R, and R is after it.
    check(
      'game_rounds_latest_round_ck',
      sql`${t.beaconLatestRound} IS NULL OR (${t.beaconRound} IS NOT NULL AND ${t.beaconLatestRound} >= 1 AND ${t.beaconLatestRound} < ${t.beaconRound})`,
    ),
    // From the first draw on the pool is held; a settled game has its record.
    check(
      'game_rounds_hold_ck',
      sql`(${t.status} IN ('open', 'discarded')) = (${t.transactionId} IS NULL) AND (${t.status} = 'settled') = (${t.saleId} IS NOT NULL)`,
    ),
    // One game in progress per player.
    uniqueIndex('game_rounds_in_progress_uq')
      .on(t.userId)
      .where(sql`${t.status} IN ('open', 'drawing')`),
    index('game_rounds_user_idx').on(t.userId, t.status, t.createdAt),
    index('game_rounds_parent_idx').on(t.parentId, t.status, t.createdAt),
    index('game_rounds_superagent_idx').on(t.superagentId, t.status, t.createdAt),
    index('game_rounds_status_idx').on(t.status, t.createdAt),
    unique('game_rounds_user_number_uq').on(t.userId, t.number),
    // The header's search (decision 022): a code by its first characters (LIKE 'abcd%' in byte
    // order), and the participants' names and phone digits through a trigram index on the text
    // `game_entries_search_text` makes of the entries (a function of the migration that adds it).
    index('game_rounds_code_prefix_idx').on(t.code.op('text_pattern_ops')),
    index('game_rounds_entries_search_idx').using('gin', sql`game_entries_search_text(${t.entries}) gin_trgm_ops`),
    index('game_rounds_shift_idx')
      .on(t.shiftId)
      .where(sql`${t.shiftId} IS NOT NULL`),
  ],
);

/**
 * One row: a value sealed with SEED_KEY when the database first met a key (decision 034). A server
 * whose key does not open it refuses to start, instead of sealing new seeds with another key or
 * failing on every game it reads.
 */
export const seedKeyCheck = pgTable(
  'seed_key_check',
  {
    id: integer('id').primaryKey().default(1),
    checkValue: bytea('check_value').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('seed_key_check_one_row_ck', sql`${t.id} = 1`)],
);

/**
 * A value sealed with each key that seals data in this database but lives outside it (decision
 * 042): `totp-key` (TOTP_KEY, the two-factor secrets). Written on the first start with the key; a
 * server whose key does not open it refuses to start, instead of answering 500 on every code.
 * The seed key has its own older check row (`seed_key_check`, decision 034).
 */
export const keyCanaries = pgTable('key_canaries', {
  name: text('name').primaryKey(),
  sealed: text('sealed').notNull(),
  createdAt: createdAt(),
});

/**
 * How many times each slip of a game was printed (decision 014): one row per game, kind and
 * participant number (0 for the result slip), counted up in one statement so that concurrent
 * prints are each counted once. A slip printed a second time is a COPY.
 */
export const slipPrints = pgTable(
  'slip_prints',
  {
    gameId: integer('game_id')
      .notNull()
      .references(() => gameRounds.id),
    kind: text('kind', { enum: ['entry', 'result'] }).notNull(),
    /** The participant's number of an entry slip; 0 for the result slip. */
    number: integer('number').notNull(),
    printCount: integer('print_count').notNull(),
    firstPrintedAt: timestamp('first_printed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastPrintedAt: timestamp('last_printed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'slip_prints_pk', columns: [t.gameId, t.kind, t.number] }),
    check('slip_prints_kind_ck', sql`${t.kind} IN ('entry', 'result')`),
    check(
      'slip_prints_number_ck',
      sql`CASE ${t.kind} WHEN 'result' THEN ${t.number} = 0 ELSE ${t.number} BETWEEN 1 AND 100 END`,
    ),
    check('slip_prints_count_ck', sql`${t.printCount} >= 1`),
  ],
);

/**
 * Sign-in sessions (decision 028): one row per sign-in, its id in the token. An ended session
 * (signed out, ended from another session, or by a password or two-factor change) is refused on
 * every process: a trigger announces the change (migration 0011). `last_used_at` moves at most
 * once a minute. `enrol_required`: the role requires two-factor sign-in and the user had none at
 * sign-in, so the session reaches the set-up calls only.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When its latest token expires; a session past it is no longer listed. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    userAgent: text('user_agent'),
    address: text('address').notNull(),
    enrolRequired: boolean('enrol_required').notNull().default(false),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('sessions_user_live_idx')
      .on(t.userId, t.expiresAt)
      .where(sql`${t.endedAt} IS NULL`),
  ],
);

/**
 * A user's TOTP secret (RFC 6238), encrypted with TOTP_KEY (AES-256-GCM). `enabled_at` is null
 * while the set-up waits for its first code. `last_step`: the time step of the last code taken,
 * so a code is taken once (a replay is refused).
 */
export const userTwoFactor = pgTable('user_two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true, mode: 'date' }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** One-time recovery codes: only a SHA-256 of each (they are random, over 79 bits), each taken once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [unique('recovery_codes_user_hash_uq').on(t.userId, t.codeHash)],
);

/** The roles whose users must sign in with two factors (the admin's policy). */
export const twoFactorRoles = pgTable(
  'two_factor_roles',
  { role: text('role', { enum: ['admin', 'superagent', 'agent', 'user'] }).primaryKey() },
  (t) => [check('two_factor_roles_role_ck', sql`${t.role} IN ('admin', 'superagent', 'agent', 'user')`)],
);

/**
 * Backup keys (decision 041): what `npm run backup` signs the copy's call with when nobody can type
 * a code. Only a SHA-256 of each key is kept (the key is 256 random bits); a revoked key stays
 * listed. Names are unique among the keys not revoked, so the audit trail's name means one key.
 */
export const backupKeys = pgTable(
  'backup_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** SHA-256 of the whole key, hex. */
    keyHash: text('key_hash').notNull(),
    /** The key's first characters, to tell keys apart in the list (`lotbk_AbCd`). */
    hint: text('hint').notNull(),
    createdAt: createdAt(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    lastUsedAddress: text('last_used_address'),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    revokedBy: integer('revoked_by').references(() => users.id),
  },
  (t) => [
    unique('backup_keys_key_hash_uq').on(t.keyHash),
    uniqueIndex('backup_keys_live_name_uq')
      .on(sql`lower(${t.name})`)
      .where(sql`${t.revokedAt} IS NULL`),
    check('backup_keys_name_ck', sql`char_length(${t.name}) BETWEEN 1 AND 60`),
    check('backup_keys_revoked_ck', sql`(${t.revokedAt} IS NULL) = (${t.revokedBy} IS NULL)`),
  ],
);

/**
 * The audit trail (decision 029): one append-only row per change made through the API. A BEFORE
 * INSERT trigger (in the migration) gives every row its chain (the actor's id, 0 without one),
 * its place in that chain and its hash: SHA-256 of the previous row's hash and the row's own
 * canonical content. Other triggers refuse UPDATE, DELETE and TRUNCATE. Callers insert
 * everything but `chain`, `seq`, `prev_hash` and `hash`, which the trigger sets.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    chain: integer('chain').notNull().default(0),
    seq: integer('seq').notNull().default(0),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorId: integer('actor_id'),
    address: text('address'),
    action: text('action').notNull(),
    targetKind: text('target_kind'),
    targetId: bigint('target_id', { mode: 'number' }),
    /** The user the action is about: what the hierarchy's view of the trail is scoped by. */
    targetUserId: integer('target_user_id'),
    details: jsonb('details').notNull().default({}),
    /**
     * Who above the actor, and above the target user, may read the row: their parent and super
     * agent as the row's rule takes them (decision 048), set by the trigger `audit_log_scope`. Not
     * part of the hashed content: a reading index of the record, not the record.
     */
    actorScope: integer('actor_scope').array(),
    targetScope: integer('target_scope').array(),
    prevHash: bytea('prev_hash')
      .notNull()
      .default(sql`'\\x'::bytea`),
    hash: bytea('hash')
      .notNull()
      .default(sql`'\\x'::bytea`),
  },
  (t) => [
    unique('audit_log_chain_seq_uq').on(t.chain, t.seq),
    index('audit_log_actor_idx').on(t.actorId, t.id),
    index('audit_log_target_user_idx').on(t.targetUserId, t.id),
  ],
);

/** The newest row of each audit chain: what the next row chains onto, and what a verify checks the tail against. */
export const auditHeads = pgTable('audit_heads', {
  chain: integer('chain').primaryKey(),
  seq: integer('seq').notNull(),
  hash: bytea('hash').notNull(),
  /** The hash the newest row links to: the trigger moves the head on in one UPDATE and reads it back. */
  prevHash: bytea('prev_hash').notNull(),
});

/**
 * Where `audit:verify` starts comparing the ledger with the audit trail (decision 044): ledger rows
 * up to `ledgerFrom` were written before the trail existed. One row, set once by migration 0021 (`poolsFrom` by 0022).
 */
export const auditBaseline = pgTable(
  'audit_baseline',
  {
    id: integer('id').primaryKey().default(1),
    ledgerFrom: integer('ledger_from').notNull().default(0),
    /**
     * Game pools (ledger rows of type `game`) up to this id were held before `game.frozen` audit
     * rows existed (before LOT-DRAW-2): none is expected for them; their settlement or void still
     * is (decision 059).
     */
    poolsFrom: integer('pools_from').notNull().default(0),
  },
  (t) => [check('audit_baseline_one_ck', sql`${t.id} = 1`)],
);

/**
 * The signed checkpoints of the audit chains written so far (decision 045): the file itself is
 * kept outside the database; this row lets the server show the latest digest (admin, Z reports).
 */
export const auditCheckpoints = pgTable(
  'audit_checkpoints',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    madeAt: timestamp('made_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** SHA-256 of the checkpoint's signed payload, hex. */
    digest: text('digest').notNull(),
    chains: integer('chains').notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
    /** The file or URL it was written to. */
    target: text('target').notNull(),
  },
  (t) => [index('audit_checkpoints_made_idx').on(t.madeAt)],
);

/**
 * Per shop: the last game number and the last Z report number given (decision 037). Each is moved
 * on by one in the transaction that uses it, so a number is never skipped or given twice.
 */
export const shopCounters = pgTable(
  'shop_counters',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id),
    games: integer('games').notNull().default(0),
    zReports: integer('z_reports').notNull().default(0),
  },
  (t) => [check('shop_counters_ck', sql`${t.games} >= 0 AND ${t.zReports} >= 0`)],
);

/** The admin's business settings: one row. */
export const businessSettings = pgTable(
  'business_settings',
  {
    id: integer('id').primaryKey().default(1),
    /** Days a prize may be claimed after its game settled. */
    claimPeriodDays: integer('claim_period_days').notNull().default(90),
    /** Whether any shop of the same agent may pay a prize (else only the shop that ran the game). */
    claimsAnyShopOfAgent: boolean('claims_any_shop_of_agent').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id),
  },
  (t) => [
    check('business_settings_one_row_ck', sql`${t.id} = 1`),
    check('business_settings_claim_period_ck', sql`${t.claimPeriodDays} BETWEEN 1 AND 3650`),
  ],
);

/**
 * A shop's shift: opened with a float, closed with the counted cash. The close gives it the shop's
 * next Z number and its Z report (what was computed at the close, kept as it was); a trigger refuses
 * any change to a closed shift and any delete (migration 0014). One open shift per shop.
 */
export const shifts = pgTable(
  'shifts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    parentId: integer('parent_id').references(() => users.id),
    superagentId: integer('superagent_id').references(() => users.id),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    openedBy: integer('opened_by')
      .notNull()
      .references(() => users.id),
    openingFloat: bigint('opening_float', { mode: 'number' }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    closedBy: integer('closed_by').references(() => users.id),
    expectedCash: bigint('expected_cash', { mode: 'number' }),
    countedCash: bigint('counted_cash', { mode: 'number' }),
    /** counted − expected: positive over, negative short. */
    variance: bigint('variance', { mode: 'number' }),
    varianceReason: text('variance_reason'),
    zNumber: integer('z_number'),
    /** The Z report as computed at the close. */
    zReport: jsonb('z_report'),
  },
  (t) => [
    check('shifts_float_ck', sql`${t.openingFloat} >= 0`),
    check(
      'shifts_close_ck',
      sql`(${t.closedAt} IS NULL) = (${t.zNumber} IS NULL)
        AND (${t.closedAt} IS NULL) = (${t.countedCash} IS NULL)
        AND (${t.closedAt} IS NULL) = (${t.expectedCash} IS NULL)
        AND (${t.closedAt} IS NULL) = (${t.zReport} IS NULL)
        AND (${t.countedCash} IS NULL OR (${t.countedCash} >= 0 AND ${t.variance} = ${t.countedCash} - ${t.expectedCash}))
        AND (${t.variance} IS NULL OR ${t.variance} = 0 OR ${t.varianceReason} IS NOT NULL)`,
    ),
    unique('shifts_user_z_uq').on(t.userId, t.zNumber),
    uniqueIndex('shifts_one_open_uq')
      .on(t.userId)
      .where(sql`${t.closedAt} IS NULL`),
    index('shifts_user_idx').on(t.userId, t.openedAt),
    index('shifts_parent_idx').on(t.parentId, t.openedAt),
    index('shifts_superagent_idx').on(t.superagentId, t.openedAt),
    index('shifts_opened_idx').on(t.openedAt),
  ],
);

/**
 * Cash moved in or out of a shift's drawer other than by a game or a prize (decision 091): a pickup,
 * a drop to the safe, paid in, paid out. Each is recorded while the shift is open and counted in its
 * expected cash; a trigger refuses one for a closed shift and any change or delete (migration 0026).
 * A pickup made by a take-back "from the drawer" names its ledger row, once.
 */
export const shiftCashMovements = pgTable(
  'shift_cash_movements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    shiftId: integer('shift_id')
      .notNull()
      .references(() => shifts.id),
    kind: text('kind', { enum: ['pickup', 'drop', 'paid_in', 'paid_out'] }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    /** Who took the cash: a pickup's or a drop's. */
    takenBy: text('taken_by'),
    recordedBy: integer('recorded_by')
      .notNull()
      .references(() => users.id),
    /** The take-back that took the cash from the drawer. */
    transactionId: integer('transaction_id').references(() => transactions.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('shift_cash_movements_amount_ck', sql`${t.amount} > 0`),
    check('shift_cash_movements_kind_ck', sql`${t.kind} IN ('pickup', 'drop', 'paid_in', 'paid_out')`),
    check(
      'shift_cash_movements_taken_by_ck',
      sql`(${t.kind} IN ('pickup', 'drop')) = (${t.takenBy} IS NOT NULL)
        AND (${t.transactionId} IS NULL OR ${t.kind} = 'pickup')`,
    ),
    index('shift_cash_movements_shift_idx').on(t.shiftId, t.createdAt),
    uniqueIndex('shift_cash_movements_transaction_uq')
      .on(t.transactionId)
      .where(sql`${t.transactionId} IS NOT NULL`),
  ],
);

/**
 * Every prize of a settled game is a claim (decision 038): unpaid until paid once — when, at which
 * shop, by whom, to whom — or expired after the claim period. The game's shop, its parent and
 * superagent are copied for the hierarchy's lists, as for sales.
 */
export const prizeClaims = pgTable(
  'prize_claims',
  {
    winnerId: integer('winner_id')
      .primaryKey()
      .references(() => gameWinners.id),
    gameId: integer('game_id')
      .notNull()
      .references(() => gameRounds.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    parentId: integer('parent_id').references(() => users.id),
    superagentId: integer('superagent_id').references(() => users.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The winner's entry code (the nonce on its entry slip; null for entries from before codes). */
    entryCode: text('entry_code'),
    /** `before_claims`: won before prize claims existed, never payable; `paid_before_claims`: so marked by the admin (decision 060). */
    status: text('status', { enum: ['unpaid', 'paid', 'expired', 'before_claims', 'paid_before_claims'] })
      .notNull()
      .default('unpaid'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    /** The shop (its operator's account) that paid. */
    paidBy: integer('paid_by').references(() => users.id),
    /** The paying shop's shift open at the payout. */
    shiftId: integer('shift_id').references(() => shifts.id),
    claimerName: text('claimer_name'),
    claimerIdNumber: text('claimer_id_number'),
    /** Payout receipts printed: the second and later are COPY. */
    receiptPrints: integer('receipt_prints').notNull().default(0),
    /**
     * A prize whose entry has no entry code is paid only once the admin approved it for one claimer
     * ID (decision 086): who approved, when, and the ID number the payout must name.
     */
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }),
    approvedBy: integer('approved_by').references(() => users.id),
    approvedClaimerId: text('approved_claimer_id'),
  },
  (t) => [
    check('prize_claims_amount_ck', sql`${t.amount} > 0`),
    check(
      'prize_claims_status_ck',
      sql`${t.status} IN ('unpaid', 'paid', 'expired', 'before_claims', 'paid_before_claims')`,
    ),
    check(
      'prize_claims_paid_ck',
      sql`(${t.status} = 'paid') = (${t.paidAt} IS NOT NULL)
        AND (${t.paidAt} IS NULL) = (${t.paidBy} IS NULL)
        AND (${t.paidAt} IS NULL) = (${t.claimerName} IS NULL)`,
    ),
    index('prize_claims_game_idx').on(t.gameId),
    index('prize_claims_entry_code_idx').on(t.entryCode),
    index('prize_claims_user_idx').on(t.userId, t.status, t.createdAt),
    index('prize_claims_parent_idx').on(t.parentId, t.status, t.createdAt),
    index('prize_claims_superagent_idx').on(t.superagentId, t.status, t.createdAt),
    index('prize_claims_status_idx').on(t.status, t.expiresAt),
    index('prize_claims_shift_idx')
      .on(t.shiftId)
      .where(sql`${t.shiftId} IS NOT NULL`),
    check(
      'prize_claims_approved_ck',
      sql`(${t.approvedAt} IS NULL) = (${t.approvedBy} IS NULL)
        AND (${t.approvedAt} IS NULL) = (${t.approvedClaimerId} IS NULL)
        AND (${t.approvedAt} IS NULL OR ${t.entryCode} IS NULL)`,
    ),
  ],
);

/**
 * Wrong entry codes (or claimer IDs) given to pay a prize, per paying shop and prize (decision 086):
 * 5 within a minute block the pair for 1 minute, each later block twice as long (at most 60). The
 * pay statement writes the row of every attempt with `INSERT … ON CONFLICT DO UPDATE`, which waits
 * for a concurrent attempt and works on the row as it is now, not as the statement's snapshot saw it.
 */
export const claimCodeFailures = pgTable(
  'claim_code_failures',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    winnerId: integer('winner_id')
      .notNull()
      .references(() => prizeClaims.winnerId),
    /** Wrong codes since `windowAt` (the first of the current minute); 0 after a block. */
    failures: integer('failures').notNull().default(0),
    windowAt: timestamp('window_at', { withTimezone: true, mode: 'date' }),
    /** Blocks so far: the next lasts 2^strikes minutes. */
    strikes: integer('strikes').notNull().default(0),
    blockedUntil: timestamp('blocked_until', { withTimezone: true, mode: 'date' }),
    /** What the latest attempt was: `proven`, `wrong_code`, `wrong_id` or `throttled` (the statement's answer). */
    lastOutcome: text('last_outcome').notNull(),
  },
  (t) => [primaryKey({ name: 'claim_code_failures_pk', columns: [t.userId, t.winnerId] })],
);

/**
 * The game log's head (docs/lot-draw-2.md#the-game-log, decision 081): one row, locked by every
 * append, so appends from any process take their turn. `edge` is the tree's right edge — the
 * hashes of the perfect subtrees that make up `size` leaves, largest first, 32 bytes each — from
 * which an append computes its new nodes and the root without reading anything else. `origin` and
 * `vkey`: the name and verifier key the log was last served under (a change is recorded).
 */
export const gameLog = pgTable(
  'game_log',
  {
    id: integer('id').primaryKey().default(1),
    origin: text('origin'),
    vkey: text('vkey'),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    edge: bytea('edge')
      .notNull()
      .default(sql`'\\x'::bytea`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * A witness answered 422 (decision 080): the log is not the one it saw, so every freeze is
     * refused until an admin names a new log (LOG_ORIGIN). When and why, as the refusals say it.
     */
    forkedAt: timestamp('forked_at', { withTimezone: true, mode: 'date' }),
    forkedReason: text('forked_reason'),
  },
  (t) => [check('game_log_one_row_ck', sql`${t.id} = 1`)],
);

/**
 * The game log's leaves, in order (decision 081): one per game event, written in the event's own
 * transaction. `data` is the leaf's exact bytes (docs/lot-draw-2.md#the-game-log); `gameId` and
 * `kind` repeat what it says, for the audit's comparison. No foreign key: the log outlives any
 * change to the games it names.
 */
export const gameLogEntries = pgTable(
  'game_log_entries',
  {
    idx: bigint('idx', { mode: 'number' }).primaryKey(),
    gameId: integer('game_id').notNull(),
    kind: text('kind', { enum: ['opened', 'frozen', 'settled', 'voided', 'discarded'] }).notNull(),
    data: bytea('data').notNull(),
    /** A witnessed freeze that did not stand (decision 080): the leaf stays, the game stayed open. */
    attempt: boolean('attempt').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('game_log_entries_game_idx').on(t.gameId, t.idx)],
);

/**
 * Every complete subtree's hash of the game log (RFC 6962), by level (0: the leaves) and index
 * at that level: what the tiles under /log/ serve and proofs are built from. Written once, never
 * changed.
 */
export const gameLogHashes = pgTable(
  'game_log_hashes',
  {
    level: integer('level').notNull(),
    idx: bigint('idx', { mode: 'number' }).notNull(),
    hash: bytea('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.level, t.idx] })],
);
