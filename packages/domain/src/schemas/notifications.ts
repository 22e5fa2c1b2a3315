import { z } from 'zod';
import { moneyAmountSchema } from './common.ts';

/** How far back the bell looks (docs/product/screens.md#header, decision 022). */
export const NOTIFICATION_DAYS = 7;
/** The most it lists: the newest first. */
export const NOTIFICATION_LIMIT = 20;

/** GET /api/notifications takes no parameters: an unknown one is refused, never ignored. */
export const notificationsQuerySchema = z.strictObject({});

const personSchema = z.object({ id: z.number(), username: z.string(), fullName: z.string() });

/**
 * One event of the last days that concerns the caller: money that reached them (a top-up or a
 * transfer), money taken back from them, money an admin's correction took off, a game voided in their scope, a failed sign-in on their
 * account still on record.
 */
export const notificationSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('received'),
    /** Unique across kinds, for a list key. */
    key: z.string(),
    at: z.string(),
    type: z.enum(['topup', 'transfer']),
    amount: moneyAmountSchema,
    from: personSchema.nullable(),
  }),
  z.object({
    kind: z.literal('takenBack'),
    key: z.string(),
    at: z.string(),
    amount: moneyAmountSchema,
    by: personSchema.nullable(),
    reason: z.string().nullable(),
  }),
  /** An admin's correction took money off the caller's balance (docs/product/money.md#corrections). */
  z.object({
    kind: z.literal('corrected'),
    key: z.string(),
    at: z.string(),
    amount: z.string(),
    by: personSchema.nullable(),
    reason: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('voided'),
    key: z.string(),
    at: z.string(),
    code: z.string(),
    /** The shop's game number of the voided game ("Game #N"; decision 037). */
    gameNumber: z.number(),
    player: personSchema,
    reason: z.string().nullable(),
    /** Voided after its draws named a winner: the prizes announced (decision 094); null otherwise. */
    prizesAnnounced: moneyAmountSchema.nullable(),
  }),
  /**
   * The admin's one notice of the prizes won before prize claims existed that nobody has marked
   * paid (decision 060): how many and their sum; it stays until they are marked.
   */
  z.object({
    kind: z.literal('beforeClaims'),
    key: z.string(),
    at: z.string(),
    count: z.number(),
    amount: moneyAmountSchema,
  }),
  /**
   * To admins, while it lasts: a witness said the game log is not the one it saw (decision 080),
   * so every freeze is refused; the cause as the refusals name it.
   */
  z.object({
    kind: z.literal('logForked'),
    key: z.string(),
    at: z.string(),
    reason: z.string(),
  }),
  z.object({
    kind: z.literal('signinFailed'),
    key: z.string(),
    at: z.string(),
    address: z.string(),
  }),
  /**
   * To admins: an admin allowed or stopped new games falling back to LOT-DRAW-1 (server randomness
   * only) while the beacon cannot be reached (decision 061).
   */
  z.object({
    kind: z.literal('serverRandomness'),
    key: z.string(),
    at: z.string(),
    allowed: z.boolean(),
    by: personSchema.nullable(),
  }),
]);
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsSchema = z.object({ items: z.array(notificationSchema) });
export type Notifications = z.infer<typeof notificationsSchema>;
