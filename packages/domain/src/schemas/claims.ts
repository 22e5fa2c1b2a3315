import { z } from 'zod';
import { idSchema, moneyAmountSchema, pageNumberSchema, pageSizeSchema } from './common.ts';
import { CLAIM_STATUSES, DRAW_PROTOCOL_VALUES } from './games.ts';
import { exportFields } from './exports.ts';
import { MESSAGES } from '../messages.ts';

/**
 * Prize claims (decision 038, docs/product/money.md#prize-claims): every prize above zero of a
 * settled game is paid out once, in cash, by a shop — or expires after the claim period.
 */

export { CLAIM_STATUSES, claimStatusSchema, type ClaimStatus, type ClaimStatusInfo } from './games.ts';

/** The 16 hex characters of an entry code (the nonce on an entry slip): case, spaces and dashes ignored. */
export const ENTRY_CODE_INVALID = 'An entry code is 16 characters, 0-9 and a-f';
export const entryCodeSchema = z
  .string({ error: ENTRY_CODE_INVALID })
  .max(64, ENTRY_CODE_INVALID)
  .transform((value) => value.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[0-9a-f]{16}$/, ENTRY_CODE_INVALID));

/**
 * GET /api/claims/lookup: a scanned QR gives the game code and the entry code (`code` + `n`); a
 * typed entry code comes alone (`entry`).
 */
export const claimLookupQuerySchema = z
  .strictObject({
    code: z.string().trim().min(1).max(64).optional(),
    n: entryCodeSchema.optional(),
    entry: entryCodeSchema.optional(),
  })
  .refine((q) => (q.entry !== undefined) !== (q.code !== undefined && q.n !== undefined), {
    message: 'Give the entry code, or the game code and entry code of a scanned slip',
    path: ['entry'],
  });
export type ClaimLookupQuery = z.infer<typeof claimLookupQuerySchema>;

/** A prize and where its claim stands, as the shop's hierarchy sees it. */
export const prizeClaimSchema = z.object({
  winnerId: z.number(),
  gameId: z.number(),
  gameCode: z.string(),
  /** The shop's game number (1, 2, 3… per shop). */
  gameNumber: z.number().nullable(),
  shopName: z.string(),
  position: z.number(),
  prizeName: z.string(),
  /** The winning number. */
  number: z.number(),
  amount: moneyAmountSchema,
  status: z.enum(CLAIM_STATUSES),
  createdAt: z.string(),
  expiresAt: z.string(),
  paidAt: z.string().nullable(),
  /** The name of the shop that paid it. */
  paidAtShop: z.string().nullable(),
  claimerName: z.string().nullable(),
  claimerIdNumber: z.string().nullable(),
  /** Whether its entry has an entry code; one without is paid only once the admin approved it (decision 086). */
  hasEntryCode: z.boolean(),
  /** When the admin approved paying a prize without an entry code, or null. */
  approvedAt: z.string().nullable(),
  /** Whether the caller may pay it now (a shop allowed to pay, the claim unpaid and not expired). */
  mayPay: z.boolean(),
  /** Why the caller may not pay it (already paid, expired, another shop), or null. */
  refusal: z.string().nullable(),
});
export type PrizeClaim = z.infer<typeof prizeClaimSchema>;

const maskedWinner = z.object({ name: z.string(), phoneNumber: z.string() });

/** GET /api/claims/lookup: the entry's game, the winner masked, and its prizes. */
export const claimLookupSchema = z.object({
  game: z.object({
    id: z.number(),
    code: z.string(),
    number: z.number().nullable(),
    shopName: z.string(),
    settledAt: z.string().nullable(),
    protocol: z.enum(DRAW_PROTOCOL_VALUES),
  }),
  /** The entry's holder, masked; null when the entry won nothing. */
  winner: maskedWinner.nullable(),
  /** Empty when the entry won nothing: a losing slip is a 200 with `noPrize`, not an error. */
  prizes: z.array(prizeClaimSchema),
  /** 'This entry won no prize' when `prizes` is empty, else null. */
  noPrize: z.string().nullable(),
});
export type ClaimLookup = z.infer<typeof claimLookupSchema>;

export const CLAIMER_NAME_REQUIRED = "The claimer's name is required";

const claimerIdNumberSchema = z
  .string({ error: 'ID number must be text' })
  .trim()
  .max(50, 'ID number must be at most 50 characters');

/**
 * POST /api/claims/{winnerId}/pay: the entry code printed on the winner's slip (decision 086) and who
 * collects the prize. A prize whose entry has no code (from before entry codes) is paid without one,
 * to the claimer ID number the admin approved.
 */
export const claimPayInputSchema = z.strictObject({
  entryCode: entryCodeSchema.optional(),
  claimerName: z
    .string({ error: CLAIMER_NAME_REQUIRED })
    .trim()
    .min(1, CLAIMER_NAME_REQUIRED)
    .max(100, 'Name must be at most 100 characters'),
  claimerIdNumber: claimerIdNumberSchema.optional(),
});
export type ClaimPayInput = z.infer<typeof claimPayInputSchema>;

/** The Pay prizes form: every prize it finds was found by its slip's entry code, which it must send. */
export const claimPayFormSchema = claimPayInputSchema.extend({
  entryCode: z
    .string({ error: MESSAGES.entryCodeRequired })
    .trim()
    .min(1, MESSAGES.entryCodeRequired)
    .pipe(entryCodeSchema),
});

/**
 * POST /api/claims/{winnerId}/approve (admin): a prize whose entry has no entry code may be paid to
 * the claimer with this ID number (decision 086); why goes into the audit trail.
 */
export const claimApproveInputSchema = z.strictObject({
  claimerIdNumber: z
    .string({ error: MESSAGES.claimerIdRequired })
    .trim()
    .min(1, MESSAGES.claimerIdRequired)
    .max(50, 'ID number must be at most 50 characters'),
  reason: z
    .string({ error: MESSAGES.approvalReasonRequired })
    .trim()
    .min(1, MESSAGES.approvalReasonRequired)
    .max(200, 'Reason must be at most 200 characters'),
});
export type ClaimApproveInput = z.infer<typeof claimApproveInputSchema>;

/** Paying a prize the admin approved without an entry code: the claimer's ID number is required. */
export const claimPayApprovedSchema = claimPayInputSchema
  .omit({ entryCode: true })
  .extend({ claimerIdNumber: claimApproveInputSchema.shape.claimerIdNumber });

export const winnerIdParamsSchema = z.strictObject({ winnerId: idSchema });

/** GET /api/claims/{winnerId}/receipt: what the payout receipt prints. */
export const payoutReceiptSchema = z.object({
  claim: prizeClaimSchema,
  game: z.object({
    code: z.string(),
    number: z.number().nullable(),
    shopName: z.string(),
    settledAt: z.string().nullable(),
  }),
  winner: maskedWinner,
  /** Receipts printed so far: a print after the first is a COPY. */
  printCount: z.number(),
});
export type PayoutReceipt = z.infer<typeof payoutReceiptSchema>;

/** 200 from POST /api/claims/{winnerId}/pay. */
export const claimPaidSchema = z.object({ claim: prizeClaimSchema, receipt: payoutReceiptSchema });
export type ClaimPaid = z.infer<typeof claimPaidSchema>;

/** POST /api/claims/{winnerId}/receipt/prints: counted on the server. */
export const receiptPrintSchema = z.object({ printCount: z.number(), copy: z.boolean() });
export type ReceiptPrint = z.infer<typeof receiptPrintSchema>;

const REASON_REQUIRED = 'A reason is required';
const DAYS_INVALID = 'Days must be a whole number from 1 to 3650';
const daysSchema = z.number({ error: DAYS_INVALID }).int(DAYS_INVALID).min(1, DAYS_INVALID).max(3650, DAYS_INVALID);

/** POST /api/claims/{winnerId}/extend (admin): more days to claim, and why. */
export const claimExtendInputSchema = z.strictObject({
  days: daysSchema,
  reason: z
    .string({ error: REASON_REQUIRED })
    .trim()
    .min(1, REASON_REQUIRED)
    .max(200, 'Reason must be at most 200 characters'),
});
export type ClaimExtendInput = z.infer<typeof claimExtendInputSchema>;

const claimsFilterFields = {
  status: z
    .enum([...CLAIM_STATUSES, 'all'], {
      error: 'status must be unpaid, paid, expired, before_claims, paid_before_claims or all',
    })
    .default('unpaid'),
  userId: idSchema.optional(),
  /** One settled game's claims: those whose winner row belongs to this sale (the winners page). */
  saleId: idSchema.optional(),
  from: z.iso.datetime({ offset: true, error: 'from must be an ISO date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be an ISO date-time' }).optional(),
};

/** GET /api/claims: the Unpaid prizes list (scoped; newest first; from/to bound the settlement time; saleId picks one game). */
export const claimsQuerySchema = z.strictObject({
  ...claimsFilterFields,
  page: pageNumberSchema,
  pageSize: pageSizeSchema(200, 50),
});
export type ClaimsQuery = z.infer<typeof claimsQuerySchema>;

/** GET /api/claims/export: the same filters, as CSV or XLSX. */
export const claimsExportQuerySchema = z.strictObject({ ...claimsFilterFields, ...exportFields });
export type ClaimsExportQuery = z.infer<typeof claimsExportQuerySchema>;

export const claimsListSchema = z.object({
  items: z.array(prizeClaimSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  /** Over every row the filters match, not just the page. */
  totals: z.object({ count: z.number(), amount: moneyAmountSchema }),
});
export type ClaimsList = z.infer<typeof claimsListSchema>;

/** POST /api/claims/before-claims/paid (admin): the prizes from before claims marked paid, how many and their sum. */
export const beforeClaimsMarkedSchema = z.object({ marked: z.number(), amount: moneyAmountSchema });
export type BeforeClaimsMarked = z.infer<typeof beforeClaimsMarkedSchema>;

/** GET/PUT /api/admin/business-settings. */
export const businessSettingsSchema = z.strictObject({
  claimPeriodDays: z
    .number({ error: 'Claim period must be a whole number of days from 1 to 3650' })
    .int('Claim period must be a whole number of days from 1 to 3650')
    .min(1, 'Claim period must be a whole number of days from 1 to 3650')
    .max(3650, 'Claim period must be a whole number of days from 1 to 3650'),
  claimsAnyShopOfAgent: z.boolean({ error: 'claimsAnyShopOfAgent must be true or false' }),
});
export type BusinessSettings = z.infer<typeof businessSettingsSchema>;
