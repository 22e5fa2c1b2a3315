import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@lot/domain/errors';
import {
  beforeClaimsMarkedSchema,
  businessSettingsSchema,
  claimApproveInputSchema,
  claimExtendInputSchema,
  claimLookupQuerySchema,
  claimLookupSchema,
  claimPaidSchema,
  claimPayInputSchema,
  claimsExportQuerySchema,
  claimsListSchema,
  claimsQuerySchema,
  payoutReceiptSchema,
  prizeClaimSchema,
  receiptPrintSchema,
  winnerIdParamsSchema,
} from '@lot/domain/schemas/claims';
import { exportFileName, sendExport } from '../../lib/export.ts';
import { sendPage } from '../../lib/page.ts';
import {
  envelopeSunsetHeaders,
  exportHeaders,
  exportResponse,
  moneyHeader,
  replayedHeader,
} from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import {
  approvePrize,
  CLAIM_EXPORT_COLUMNS,
  exportPrizeClaims,
  extendPrize,
  getBusinessSettings,
  getReceipt,
  listPrizeClaims,
  lookupClaims,
  markPrizesBeforeClaimsPaid,
  payPrize,
  printReceipt,
  putBusinessSettings,
} from './claims.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422);
/** The caller's zone: a refusal names a time on its wall clock, else in UTC (decision 090). */
const zoneHeaders = z.object({
  'time-zone': z
    .string()
    .optional()
    .describe(
      "The caller's IANA time zone (Europe/Berlin): a time in a message is written on its clock; unknown or absent, in UTC",
    ),
});
const idempotencyHeaders = zoneHeaders.extend({
  'idempotency-key': z.string().optional().describe('Replays of the same request with this key pay once'),
});
/** A second claim's refusal carries the claim as paid, so the client can print the COPY receipt. */
const refusalSchema = errorBodySchema.extend({ claim: prizeClaimSchema.optional() });

/** Prize claims (decision 038, docs/product/money.md#prize-claims) and the admin's business settings. */
export const claimsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/claims/lookup',
    {
      preValidation: app.requireRole('user'),
      schema: {
        tags: ['claims'],
        operationId: 'lookUpClaim',
        description:
          "An entry's prizes, by a scanned slip (code + n) or a typed entry code (entry), among the games of the shops the caller may pay for. An entry that won nothing is a 200 with no prizes, `winner` null and `noPrize` 'This entry won no prize'; a code no slip of those games has is a 404, a game not drawn yet a 409.",
        querystring: claimLookupQuerySchema,
        headers: zoneHeaders,
        response: { 200: claimLookupSchema, ...errors },
      },
    },
    (request) => lookupClaims(request.ctx, request.query),
  );

  app.post(
    '/api/claims/:winnerId/pay',
    {
      preValidation: app.requireRole('user'),
      schema: {
        tags: ['claims'],
        operationId: 'payClaim',
        responseHeaders: { 200: replayedHeader },
        description:
          "Pays a prize once, in cash (no balance moves), to whoever gives the entry code printed on the winner's slip (decision 086): a wrong or missing code is a 422 WRONG_ENTRY_CODE, audited; 5 in a minute block the shop for that prize (429, Retry-After), for 1, 2, 4 … up to 60 minutes. An entry without a code is paid only to the claimer ID number the admin approved (409 APPROVAL_REQUIRED before, 422 WRONG_CLAIMER_ID for another). A second claim is a 409 naming the first payout.",
        params: winnerIdParamsSchema,
        headers: idempotencyHeaders,
        body: claimPayInputSchema,
        response: { 200: claimPaidSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 429), 409: refusalSchema },
      },
    },
    async (request, reply) => {
      const outcome = await payPrize(
        request.ctx,
        request.params.winnerId,
        request.body,
        request.headers['idempotency-key'],
      );
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      return outcome.result;
    },
  );

  app.get(
    '/api/claims/:winnerId/receipt',
    {
      schema: {
        tags: ['claims'],
        operationId: 'getPayoutReceipt',
        params: winnerIdParamsSchema,
        headers: zoneHeaders,
        response: { 200: payoutReceiptSchema, ...errors },
      },
    },
    (request) => getReceipt(request.ctx, request.params.winnerId),
  );

  app.post(
    '/api/claims/:winnerId/receipt/prints',
    {
      schema: {
        tags: ['claims'],
        operationId: 'recordReceiptPrint',
        description: 'Counts a print of the payout receipt: a print after the first is a COPY.',
        params: winnerIdParamsSchema,
        response: { 200: receiptPrintSchema, ...errors },
      },
    },
    (request) => printReceipt(request.ctx, request.params.winnerId),
  );

  app.post(
    '/api/claims/:winnerId/extend',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['claims'],
        operationId: 'extendClaim',
        params: winnerIdParamsSchema,
        body: claimExtendInputSchema,
        response: { 200: prizeClaimSchema, ...errors },
      },
    },
    (request) => extendPrize(request.ctx, request.params.winnerId, request.body),
  );

  app.post(
    '/api/claims/:winnerId/approve',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['claims'],
        operationId: 'approveClaim',
        summary: 'Approve paying a prize without an entry code',
        description:
          'A prize whose entry has no entry code (from before entry codes) may then be paid to the claimer with this ID number (decision 086); audited with the reason. 409 when the entry has a code, or the prize is not unpaid.',
        params: winnerIdParamsSchema,
        body: claimApproveInputSchema,
        response: { 200: prizeClaimSchema, ...errors },
      },
    },
    (request) => approvePrize(request.ctx, request.params.winnerId, request.body),
  );

  app.post(
    '/api/claims/before-claims/paid',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['claims'],
        operationId: 'markBeforeClaimsPaid',
        summary: 'Mark the prizes from before claims paid',
        description:
          'Every prize won before prize claims existed (status before_claims, never payable) becomes paid_before_claims, with one audit row; answers how many and their sum (0 when none is left).',
        body: z.strictObject({}),
        response: { 200: beforeClaimsMarkedSchema, ...errors },
      },
    },
    (request) => markPrizesBeforeClaimsPaid(request.ctx),
  );

  app.get(
    '/api/claims',
    {
      schema: {
        tags: ['claims'],
        operationId: 'listClaims',
        description:
          "The Unpaid prizes list (status unpaid by default) of the caller's scope, newest first. With `Prefer: list=array`, the page as an array; otherwise the deprecated `{ items, total, … }` until its sunset (decision 072).",
        querystring: claimsQuerySchema,
        response: { 200: z.union([z.array(prizeClaimSchema), claimsListSchema]), ...errors },
        responseHeaders: {
          200: { ...envelopeSunsetHeaders, 'X-Total-Amount': moneyHeader('Every prize of the filtered set added up.') },
        },
      },
    },
    async (request, reply) => {
      const list = await listPrizeClaims(request.ctx, request.query);
      return sendPage(reply, list, { totals: { 'X-Total-Amount': list.totals.amount }, envelope: list });
    },
  );

  app.get(
    '/api/claims/export',
    {
      schema: {
        tags: ['claims'],
        operationId: 'exportClaims',
        description: 'The prize claims list as a CSV or Excel file, every row (docs/product/reports.md#exports).',
        querystring: claimsExportQuerySchema,
        response: { ...exportResponse, ...errors },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, tz, ...query } = request.query;
      const pages = await exportPrizeClaims(request.ctx, query);
      const fileName = exportFileName(`prizes-${query.status}`, query, tz, request.ctx.clock());
      return sendExport(reply, format, tz ?? 'UTC', { fileName, columns: CLAIM_EXPORT_COLUMNS, pages });
    },
  );

  app.get(
    '/api/admin/business-settings',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['admin'],
        operationId: 'getBusinessSettings',
        response: { 200: businessSettingsSchema, ...errors },
      },
    },
    (request) => getBusinessSettings(request.ctx),
  );

  app.put(
    '/api/admin/business-settings',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['admin'],
        operationId: 'setBusinessSettings',
        body: businessSettingsSchema,
        response: { 200: businessSettingsSchema, ...errors },
      },
    },
    (request) => putBusinessSettings(request.ctx, request.body),
  );
};
