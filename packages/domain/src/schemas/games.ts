import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { moneyAmountSchema, offsetSchema, pageSizeSchema } from './common.ts';
import { exportFields } from './exports.ts';
import { betSchema, endSchema, participantSchema, startSchema } from './sales-history.ts';

/**
 * The server-run BOCH BOCH game (docs/lot-draw-1.md, decision 013): opened, filled with
 * participants, drawn one position at a time by the server, settled by its last draw or voided.
 */

export const GAME_STATUSES = ['open', 'drawing', 'settled', 'voided', 'discarded'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

/** POST /api/games: the range and the bet (docs/product/validation-and-errors.md#game-inputs, same messages as the play screen). */
export const openGameInputSchema = z
  .strictObject({ startRange: startSchema, endRange: endSchema, betAmount: betSchema })
  .refine((game) => game.startRange < game.endRange, { message: MESSAGES.rangeEndInvalid, path: ['endRange'] });
export type OpenGameInput = z.infer<typeof openGameInputSchema>;

/** PUT /api/games/{id}/entries: the participants, each number once (range checked by the server). */
export const gameEntriesInputSchema = z.strictObject({
  entries: z
    .array(participantSchema)
    .max(100)
    .refine((entries) => new Set(entries.map((e) => e.number)).size === entries.length, {
      message: 'Each number can be chosen only once',
    }),
});
export type GameEntriesInput = z.infer<typeof gameEntriesInputSchema>;

/** POST /api/games/{id}/draws: the position to draw, which must be the next one (1 for the first). */
export const drawInputSchema = z.strictObject({
  position: z
    .number({ error: 'Position must be a whole number from 1' })
    .int('Position must be a whole number from 1')
    .min(1, 'Position must be a whole number from 1')
    .max(1000, 'Position must be a whole number from 1'),
});
export type DrawInput = z.infer<typeof drawInputSchema>;

export const VOID_REASON_REQUIRED = 'A reason is required';

/**
 * POST /api/games/{id}/void. `afterWinner`: the voider saw that a draw already named a winner (the
 * dialog said so) and gives the reason for voiding after it; required (true) when one did, refused
 * without it (decision 094).
 */
export const voidGameInputSchema = z.strictObject({
  reason: z
    .string({ error: VOID_REASON_REQUIRED })
    .trim()
    .min(1, VOID_REASON_REQUIRED)
    .max(500, 'Reason must be at most 500 characters'),
  afterWinner: z.boolean({ error: 'afterWinner must be true or false' }).optional(),
});
export type VoidGameInput = z.infer<typeof voidGameInputSchema>;

const person = z.object({ id: z.number(), username: z.string(), fullName: z.string() });
const entry = z.object({ number: z.number(), name: z.string(), phoneNumber: z.string() });
/** An entry as its shop sees it: with the nonce printed on the person's slip (null on games before LOT-DRAW-2). */
const ownEntry = entry.extend({ nonce: z.string().nullable() });

export const DRAW_PROTOCOL_VALUES = ['LOT-DRAW-1', 'LOT-DRAW-2'] as const;

/**
 * A LOT-DRAW-2 game's beacon (docs/lot-draw-2.md): the drand chain pinned when the game opened, and
 * from the freeze on the round R its draws wait for; R's signature and randomness once fetched and
 * verified.
 */
export const gameBeaconSchema = z.object({
  chainHash: z.string(),
  publicKey: z.string(),
  genesisTime: z.number(),
  period: z.number(),
  /** R: named at the freeze, after `latestRound` (docs/lot-draw-2.md section 4); null while the game is open. */
  round: z.number().nullable(),
  /**
   * L: the latest public round at the freeze, as the relays answered it; R is after it. Null while
   * open, and on games frozen before it was recorded (R is then the first round after `frozenAt`).
   */
  latestRound: z.number().nullable(),
  /** When R is published (ISO), null while the game is open. */
  expectedAt: z.string().nullable(),
  signature: z.string().nullable(),
  randomness: z.string().nullable(),
});
export type GameBeacon = z.infer<typeof gameBeaconSchema>;

/** A prize position as the game snapshotted it when it opened. */
export const gamePrizeSchema = z.object({
  position: z.number(),
  name: z.string(),
  percent: z.string(),
  percentBps: z.number(),
  /** floor(pool × percent / 100) for the pool as it stands. */
  prizeAmount: moneyAmountSchema,
});
export type GamePrize = z.infer<typeof gamePrizeSchema>;

/**
 * Where a prize's claim stands (decision 038). `before_claims`: a prize won before prize claims
 * existed (nobody recorded whether it was paid), never payable; `paid_before_claims`: the admin
 * marked it paid (decision 060).
 */
export const CLAIM_STATUSES = ['unpaid', 'paid', 'expired', 'before_claims', 'paid_before_claims'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/**
 * A prize's claim as the public proof, the result slip and the display show it: no claimer, no ID.
 * Null for a draw without a prize to claim (no winner, a prize of zero, a game not settled).
 */
export const claimStatusSchema = z.object({
  status: z.enum(CLAIM_STATUSES),
  paidAt: z.string().nullable(),
  /** The shop that paid it. */
  shopName: z.string().nullable(),
  expiresAt: z.string(),
});
export type ClaimStatusInfo = z.infer<typeof claimStatusSchema>;

export const gameDrawSchema = z.object({
  /** The draw's place in order, 1 for the first: it pays the prize at the same place in `prizes`. */
  position: z.number(),
  number: z.number(),
  drawnAt: z.string(),
  winner: entry.nullable(),
  prizeAmount: moneyAmountSchema,
  /** The prize's claim once the game is settled (absent or null otherwise). */
  claim: claimStatusSchema.nullable().optional(),
});
export type GameDraw = z.infer<typeof gameDrawSchema>;

/** A game as its player (or someone above them) sees it: names and phones in full. */
export const gameSchema = z.object({
  id: z.number(),
  /** The shop's game number (1, 2, 3… per shop, without gaps; decision 037): what people read as "Game #N". */
  number: z.number(),
  code: z.string(),
  status: z.enum(GAME_STATUSES),
  userId: z.number(),
  user: person.extend({ shopName: z.string().nullable() }),
  startRange: z.number(),
  endRange: z.number(),
  betAmount: moneyAmountSchema,
  pool: moneyAmountSchema,
  prizes: z.array(gamePrizeSchema),
  /** LOT-DRAW-2: public randomness after the freeze; LOT-DRAW-1: server randomness only. */
  protocol: z.enum(DRAW_PROTOCOL_VALUES),
  beacon: gameBeaconSchema.nullable(),
  commitment: z.string(),
  entries: z.array(ownEntry),
  /** When the first draw froze the entries and held the pool; null while open. */
  frozenAt: z.string().nullable(),
  draws: z.array(gameDrawSchema),
  /** A voided game after its freeze: the draws it would have made had it been finished, none paid. */
  unplayedDraws: z.array(gameDrawSchema),
  /** Known once settled. */
  totalPrize: moneyAmountSchema.nullable(),
  commission: moneyAmountSchema.nullable(),
  /** The sales-history record of a settled game. */
  saleId: z.number().nullable(),
  /** The ledger row that holds the pool from the first draw on. */
  transactionId: z.number().nullable(),
  openedAt: z.string(),
  endedAt: z.string().nullable(),
  voidReason: z.string().nullable(),
  voidedBy: person.extend({ role: z.string() }).nullable(),
  /** Revealed once the game has ended (settled, voided or discarded). */
  serverSeed: z.string().nullable(),
});
export type Game = z.infer<typeof gameSchema>;

export const drawResultSchema = z.object({
  position: z.number(),
  number: z.number(),
  winner: entry.nullable(),
  prizeAmount: moneyAmountSchema,
  game: gameSchema,
});
export type DrawResult = z.infer<typeof drawResultSchema>;

/**
 * 202 from POST /api/games/{id}/draws on a frozen LOT-DRAW-2 game whose beacon round R is not
 * published yet (or no relay could be reached): nothing was drawn; ask again at `expectedAt`
 * (or after `retryAfterMs`).
 */
export const drawWaitingSchema = z.object({
  waitingForRound: z.number(),
  expectedAt: z.string(),
  /** How long to wait before asking again. */
  retryAfterMs: z.number(),
  /** R's time has passed but no relay answered it (yet). */
  beaconUnreachable: z.boolean(),
  game: gameSchema,
});
export type DrawWaiting = z.infer<typeof drawWaitingSchema>;

/** A row of the games lists (voided games for the upline, the admin and the player). */
export const gameSummarySchema = z.object({
  id: z.number(),
  /** The shop's game number (1, 2, 3… per shop, without gaps; decision 037): what people read as "Game #N". */
  number: z.number(),
  code: z.string(),
  status: z.enum(GAME_STATUSES),
  openedAt: z.string(),
  endedAt: z.string().nullable(),
  startRange: z.number(),
  endRange: z.number(),
  betAmount: moneyAmountSchema,
  pool: moneyAmountSchema,
  entriesCount: z.number(),
  drawsCount: z.number(),
  /** How many of the draws so far named a winner, and their prizes' total: announced, and taken back by a void. */
  winnersAnnounced: z.number(),
  prizesAnnounced: moneyAmountSchema,
  prizesCount: z.number(),
  protocol: z.enum(DRAW_PROTOCOL_VALUES),
  voidReason: z.string().nullable(),
  voidedBy: person.nullable(),
  user: person.extend({ parent: z.object({ id: z.number(), fullName: z.string() }).nullable() }),
});
export type GameSummary = z.infer<typeof gameSummarySchema>;

/** GET /api/games: the caller's scope (admin all, upline by the hierarchy recorded with the game). */
export const gamesQuerySchema = z.strictObject({
  status: z.enum(['settled', 'voided', 'open', 'drawing']).optional(),
  limit: pageSizeSchema(1000, 1000),
  offset: offsetSchema,
  from: z.iso.datetime({ offset: true, error: 'from must be an ISO date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be an ISO date-time' }).optional(),
});
export type GamesQuery = z.infer<typeof gamesQuerySchema>;

/** GET /api/games/export: the list's filters (the Voided games tab's), as CSV or XLSX. */
export const gamesExportQuerySchema = gamesQuerySchema.omit({ limit: true, offset: true }).extend(exportFields);
export type GamesExportQuery = z.infer<typeof gamesExportQuerySchema>;

/**
 * A game's evidence in the game log (docs/lot-draw-2.md#the-game-log): its `frozen` leaf, where it is,
 * and a checkpoint of the log that holds it, so a verifier who pins the log's key (and the
 * witnesses' keys) checks the freeze without trusting the server.
 */
export const gameLogEvidenceSchema = z.object({
  /** The log's origin, the checkpoint's first line (LOG_ORIGIN). */
  origin: z.string(),
  freeze: z.object({
    /** The leaf's index in the log. */
    index: z.number(),
    /** The leaf's text, exactly the bytes the log hashed (UTF-8). */
    data: z.string(),
    /** The RFC 6962 inclusion proof of the leaf in the checkpoint's tree, leaf to root, base64 hashes. */
    inclusion: z.array(z.string()),
    /**
     * The checkpoint as the full C2SP signed-note text: signed by the log's key and, for a
     * witnessed freeze, cosigned (cosignature/v1) by the witnesses at the freeze.
     */
    checkpoint: z.string(),
  }),
});
export type GameLogEvidence = z.infer<typeof gameLogEvidenceSchema>;

/** GET /api/verify/{code}: everything needed to re-check a game, names and phones masked. */
export const gameProofSchema = z.object({
  /** LOT-DRAW-1 or LOT-DRAW-2. */
  algorithm: z.string(),
  code: z.string(),
  shopName: z.string(),
  /** The shop's game number ("Game #N" at shopName; decision 037). */
  number: z.number(),
  status: z.enum(GAME_STATUSES),
  openedAt: z.string(),
  endedAt: z.string().nullable(),
  startRange: z.number(),
  endRange: z.number(),
  betAmount: moneyAmountSchema,
  betCents: z.number(),
  prizes: z.array(z.object({ position: z.number(), name: z.string(), percentBps: z.number(), percent: z.string() })),
  entries: z.array(z.object({ number: z.number(), name: z.string(), phoneNumber: z.string(), entryHash: z.string() })),
  entriesDigest: z.string(),
  commitment: z.string(),
  /** LOT-DRAW-2 only (null for LOT-DRAW-1). */
  beacon: gameBeaconSchema.nullable(),
  /** When the first draw froze the entries; null while open (and on LOT-DRAW-1 games from before it was recorded). */
  frozenAt: z.string().nullable(),
  /** Winners masked like the entries. */
  draws: z.array(gameDrawSchema),
  /** A voided game after its freeze: the draws it would have made, none paid (winners masked). */
  unplayedDraws: z.array(gameDrawSchema),
  pool: moneyAmountSchema,
  /** Known once settled. */
  totalPrize: moneyAmountSchema.nullable(),
  commission: moneyAmountSchema.nullable(),
  voidReason: z.string().nullable(),
  /** Who voided or discarded it: their role and masked name. */
  voidedBy: z.object({ role: z.string(), name: z.string() }).nullable(),
  serverSeed: z.string().nullable(),
  /**
   * The freeze in the game log: absent while the game is open, and for games frozen before the
   * log existed.
   */
  log: gameLogEvidenceSchema.optional(),
});
export type GameProof = z.infer<typeof gameProofSchema>;

/**
 * POST /api/display/{code}/tickets: a signed-in caller who may read the game gets a ticket that opens
 * one stream of its customer display from the signed-in displays' own capacity (decision 046).
 */
export const displayTicketSchema = z.object({
  /** Good for opening a stream of this game only, until expiresAt (a minute). */
  ticket: z.string(),
  expiresAt: z.string(),
});
export type DisplayTicket = z.infer<typeof displayTicketSchema>;

/** GET /api/display/{code}/events: without a ticket the stream is anonymous (limited per address). */
export const displayStreamQuerySchema = z.strictObject({
  ticket: z.string().max(200).optional(),
});

/** The slips of a game (docs/product/game.md#slips): an entry slip per participant, one result slip. */
export const SLIP_KINDS = ['entry', 'result'] as const;
export type SlipKind = (typeof SLIP_KINDS)[number];

/** POST /api/games/{id}/slips/prints: an entry slip names its participant's number; a result slip none. */
export const slipPrintInputSchema = z
  .strictObject({
    kind: z.enum(SLIP_KINDS, { error: "Kind must be 'entry' or 'result'" }),
    number: z
      .number({ error: 'Number must be a whole number' })
      .int('Number must be a whole number')
      .min(1, 'Number must be a whole number')
      .max(100, 'Number must be a whole number')
      .optional(),
  })
  .refine((slip) => (slip.kind === 'entry') === (slip.number !== undefined), {
    message: 'An entry slip needs the number of its participant; a result slip has none',
    path: ['number'],
  });
export type SlipPrintInput = z.infer<typeof slipPrintInputSchema>;

/** How many times a slip was printed, counted on the server: a print after the first is a COPY. */
export const slipPrintSchema = z.object({
  kind: z.enum(SLIP_KINDS),
  /** The participant's number of an entry slip; null for the result slip. */
  number: z.number().nullable(),
  printCount: z.number(),
  copy: z.boolean(),
  lastPrintedAt: z.string(),
});
export type SlipPrint = z.infer<typeof slipPrintSchema>;

/** GET /api/games/participants: this shop's past participants, most recent first. */
export const participantsQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
  limit: pageSizeSchema(50, 10),
});
export type ParticipantsQuery = z.infer<typeof participantsQuerySchema>;

export const rememberedParticipantSchema = z.object({
  name: z.string(),
  phoneNumber: z.string(),
  lastUsedAt: z.string(),
});
export type RememberedParticipant = z.infer<typeof rememberedParticipantSchema>;
