import { claimAlreadyPaid, claimCodesThrottled, claimExpired, SERVER_MESSAGES } from '@lot/domain/server-messages';
import { AppError } from '@lot/domain/errors';
import { formatDateTimeIn } from '@lot/domain/dates';
import { receiptNumber } from '@lot/domain/game';
import { MESSAGES } from '@lot/domain/messages';
import { maskName, maskPhone } from '@lot/domain/mask';
import { formatCents } from '@lot/domain/money';
import type {
  BeforeClaimsMarked,
  BusinessSettings,
  ClaimApproveInput,
  ClaimExtendInput,
  ClaimLookup,
  ClaimLookupQuery,
  ClaimPaid,
  ClaimPayInput,
  ClaimsExportQuery,
  ClaimsList,
  ClaimsQuery,
  PayoutReceipt,
  PrizeClaim,
  ReceiptPrint,
} from '@lot/domain/schemas/claims';
import { keysetPages, type ExportColumn } from '../../lib/export.ts';
import type { Caller } from '../../lib/caller.ts';
import { claimOf, storedAnswer, type Idempotent } from '../../lib/idempotency.ts';
import type { AppContext, Context } from '../../lib/context.ts';
import { allowedToPay, everyClaim, mayPaySql, payableShops, readable } from './claims.access.ts';
import {
  claimsOfEntry,
  countReceiptPrint,
  exportPage,
  extendClaim,
  findClaim,
  gameOfEntry,
  listClaims,
  markBeforeClaimsPaid,
  readSettings,
  writeSettings,
  type BusinessSettingsRow,
  type ClaimRow,
  type ListFilter,
} from './claims.repository.ts';
import { approveClaim, auditRefusal, payClaim, type PayResult } from './claim-payment.repository.ts';

/**
 * Prize claims (decision 038, docs/product/money.md#prize-claims): a shop finds a winning entry by
 * its slip's code, pays the prize in cash once, prints the payout receipt; the hierarchy lists what
 * is unpaid; the admin extends a claim and sets the claim period and who may pay.
 */

const iso = (value: Date | string) => new Date(value).toISOString();
/**
 * A time as a refusal names it: as the caller's screens show times, on the wall clock of the zone
 * their browser says it is in (the `Time-Zone` header), else in UTC, saying so (decision 090).
 */
const timeFor = (caller: Caller, value: Date | string, year = false) =>
  caller.timeZone
    ? formatDateTimeIn(value, caller.timeZone, { year })
    : `${formatDateTimeIn(value, 'UTC', { year })} UTC`;

const alreadyPaidMessage = (caller: Caller, shop: string, at: Date | string) =>
  claimAlreadyPaid(shop, timeFor(caller, at));
const expiredMessage = (caller: Caller, at: Date | string) => claimExpired(timeFor(caller, at, true));

function toPrizeClaim(row: ClaimRow, caller: Caller): PrizeClaim {
  const { status } = row;
  const allowed = allowedToPay(caller, row);
  // An entry without an entry code is paid only once the admin approved it (decision 086).
  const proofless = !row.has_entry_code && row.approved_at === null;
  const refusal =
    status === 'paid'
      ? alreadyPaidMessage(caller, row.paid_at_shop ?? '', row.paid_at ?? row.created_at)
      : status === 'expired'
        ? expiredMessage(caller, row.expires_at)
        : status === 'before_claims' || status === 'paid_before_claims'
          ? SERVER_MESSAGES.claimBeforeClaims
          : caller.role === 'user' && !allowed
            ? SERVER_MESSAGES.claimOtherShop
            : caller.role === 'user' && proofless
              ? SERVER_MESSAGES.claimNeedsApproval
              : null;
  // The claimer is the business of the game's shop, the paying shop and the hierarchy above them.
  const seesClaimer = caller.role !== 'user' || row.user_id === caller.id || row.paid_by === caller.id;
  return {
    winnerId: row.winner_id,
    gameId: row.game_id,
    gameCode: row.game_code,
    gameNumber: row.game_number === null ? null : Number(row.game_number),
    shopName: row.shop_name,
    position: Number(row.position),
    prizeName: row.prize_name,
    number: Number(row.number),
    amount: formatCents(Number(row.amount)),
    status,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    paidAt: row.paid_at === null ? null : iso(row.paid_at),
    paidAtShop: row.paid_at_shop,
    claimerName: seesClaimer ? row.claimer_name : null,
    claimerIdNumber: seesClaimer ? row.claimer_id_number : null,
    hasEntryCode: row.has_entry_code,
    approvedAt: row.approved_at === null ? null : iso(row.approved_at),
    mayPay: allowed && status === 'unpaid' && !proofless,
    refusal,
  };
}

const settledAt = (row: Pick<ClaimRow, 'settled_at'>) => (row.settled_at === null ? null : iso(row.settled_at));

function toReceipt(row: ClaimRow, caller: Caller): PayoutReceipt {
  return {
    claim: toPrizeClaim(row, caller),
    game: {
      code: row.game_code,
      number: row.game_number === null ? null : Number(row.game_number),
      shopName: row.shop_name,
      settledAt: settledAt(row),
    },
    winner: { name: maskName(row.winner_name), phoneNumber: maskPhone(row.winner_phone) },
    printCount: Number(row.receipt_prints),
  };
}

/**
 * GET /api/claims/lookup (a shop): the prizes of an entry, found by a scanned slip (game code and
 * entry code) or a typed entry code, among the games of the shops the caller may pay for. An entry
 * that won nothing is an answer ('This entry won no prize'), not a 404.
 */
export async function lookupClaims(ctx: Context, query: ClaimLookupQuery): Promise<ClaimLookup> {
  const { caller } = ctx;
  const entryCode = query.entry ?? query.n;
  if (entryCode === undefined) throw AppError.field('entry', SERVER_MESSAGES.claimUnknownEntry);
  const game = await gameOfEntry(
    ctx.db,
    entryCode,
    query.entry === undefined ? (query.code ?? null) : null,
    payableShops(caller, 'u'),
  );
  if (!game) throw new AppError('NOT_FOUND', SERVER_MESSAGES.claimUnknownEntry);
  if (game.status === 'open' || game.status === 'drawing')
    throw new AppError('CONFLICT', SERVER_MESSAGES.claimNotDrawn);
  const rows = await claimsOfEntry(ctx.db, entryCode, game.id, payableShops(caller, 'shop'));
  const first = rows[0];
  const gameView = {
    id: game.id,
    code: game.game_code,
    number: game.game_number === null ? null : Number(game.game_number),
    shopName: game.shop_name,
    settledAt: settledAt(game),
    protocol: game.protocol,
  };
  // A losing slip is an answer, not a failure: the customer is told, nothing is wrong.
  if (!first) return { game: gameView, winner: null, prizes: [], noPrize: SERVER_MESSAGES.claimNoPrize };
  return {
    game: gameView,
    winner: { name: maskName(first.winner_name), phoneNumber: maskPhone(first.winner_phone) },
    prizes: rows.map((row) => toPrizeClaim(row, caller)),
    noPrize: null,
  };
}

/** The refusal of a claim the pay statement did not pay: paid already (audited), expired, or not payable. */
async function refusalOf(ctx: Context, row: ClaimRow) {
  const { caller } = ctx;
  const claim = toPrizeClaim(row, caller);
  if (claim.status === 'paid') {
    await auditRefusal(ctx.db, { actorId: caller.id, address: caller.address ?? null, claim: row });
    return new AppError('ALREADY_PAID', alreadyPaidMessage(caller, claim.paidAtShop ?? '', claim.paidAt ?? ''), {
      extra: { claim },
    });
  }
  if (claim.status === 'expired') return new AppError('CLAIM_EXPIRED', expiredMessage(caller, row.expires_at));
  if (claim.status === 'before_claims' || claim.status === 'paid_before_claims')
    return new AppError('CONFLICT', SERVER_MESSAGES.claimBeforeClaims);
  return undefined;
}

function paidAnswer(row: ClaimRow, caller: Caller): ClaimPaid {
  const receipt = toReceipt(row, caller);
  return { claim: receipt.claim, receipt };
}

/** Why the pay statement paid nothing though the claim was the caller's to pay (decision 086). */
function proofRefusal(result: PayResult, input: ClaimPayInput): AppError | undefined {
  switch (result.outcome) {
    case 'throttled': {
      const seconds = Math.max(1, result.wait ?? 1);
      return new AppError('RATE_LIMITED', claimCodesThrottled(Math.ceil(seconds / 60)), { retryAfter: seconds });
    }
    case 'wrong_code': {
      const message = input.entryCode === undefined ? MESSAGES.entryCodeRequired : SERVER_MESSAGES.claimWrongEntryCode;
      return new AppError('WRONG_ENTRY_CODE', message, { fieldErrors: { entryCode: message } });
    }
    case 'wrong_id': {
      const message = SERVER_MESSAGES.claimWrongClaimerId;
      return new AppError('WRONG_CLAIMER_ID', message, { fieldErrors: { claimerIdNumber: message } });
    }
    case 'unapproved':
      return new AppError('APPROVAL_REQUIRED', SERVER_MESSAGES.claimNeedsApproval);
    default:
      return undefined;
  }
}

/**
 * POST /api/claims/{winnerId}/pay (a shop): pays the prize once (decision 038) to whoever holds
 * its entry slip (decision 086). Who may pay is checked first (another agent's game is a 404, a
 * sibling shop's a 403 unless the setting allows it); the payout is one statement, which checks the
 * slip's entry code (or the approved claimer ID) and counts and audits a wrong one. With an
 * Idempotency-Key a replay answers the payout again; any other second claim is refused with the
 * first payout's shop and time (and audited).
 */
export async function payPrize(
  ctx: Context,
  winnerId: number,
  input: ClaimPayInput,
  key: string | undefined,
): Promise<Idempotent<ClaimPaid>> {
  const { caller } = ctx;
  const claim = key === undefined ? undefined : claimOf(caller.id, key, { op: 'claim.pay', winnerId, ...input });
  const result = await payClaim(ctx.db, {
    winnerId,
    mayPay: mayPaySql(caller),
    payerId: caller.id,
    address: caller.address ?? null,
    entryCode: input.entryCode ?? null,
    claimerName: input.claimerName,
    claimerIdNumber: input.claimerIdNumber || null,
    claim,
  });
  const { paid } = result;
  if (paid) {
    // Customer displays and open proofs of the game show the prize paid.
    ctx.events.gameChanged(paid.game_code);
    return { result: paidAnswer(paid, caller), replayed: false };
  }
  const unproven = proofRefusal(result, input);
  if (unproven) throw unproven;
  // Not paid by this call: why (outside the scope 404, a sibling's 403, a replay, paid, expired).
  const row = await findClaim(ctx.db, winnerId, payableShops(caller, 'shop'));
  if (!row) throw new AppError('NOT_FOUND', SERVER_MESSAGES.claimNotFound);
  if (!allowedToPay(caller, row)) throw new AppError('OTHER_SHOP', SERVER_MESSAGES.claimOtherShop);
  if (claim && (await storedAnswer<{ winnerId: number }>(ctx.db, claim))) {
    return { result: paidAnswer(row, caller), replayed: true };
  }
  // A due claim the statement refused reads as expired (this read's now() is not earlier): CLAIM_EXPIRED.
  const refusal = await refusalOf(ctx, row);
  if (refusal) throw refusal;
  throw new Error('the pay statement neither paid nor found the claim paid or expired');
}

/** GET /api/claims/{winnerId}/receipt: a paid prize's receipt (its shop, the payer, their hierarchy). */
export async function getReceipt(ctx: Context, winnerId: number): Promise<PayoutReceipt> {
  const { caller } = ctx;
  const row = await findClaim(ctx.db, winnerId, readable(caller, true));
  if (!row) throw new AppError('NOT_FOUND', SERVER_MESSAGES.claimNotFound);
  if (row.status !== 'paid') throw new AppError('CONFLICT', SERVER_MESSAGES.claimNotPaid);
  return toReceipt(row, caller);
}

/** POST /api/claims/{winnerId}/receipt/prints: counted in one statement; a print after the first is a COPY. */
export async function printReceipt(ctx: Context, winnerId: number): Promise<ReceiptPrint> {
  const { caller } = ctx;
  const row = await findClaim(ctx.db, winnerId, readable(caller, true));
  if (!row) throw new AppError('NOT_FOUND', SERVER_MESSAGES.claimNotFound);
  const printCount = await countReceiptPrint(ctx.db, winnerId);
  if (printCount === undefined) throw new AppError('CONFLICT', SERVER_MESSAGES.claimNotPaid);
  return { printCount, copy: printCount > 1 };
}

/** POST /api/claims/{winnerId}/extend (admin): more days for an unpaid or expired claim. */
export async function extendPrize(ctx: Context, winnerId: number, input: ClaimExtendInput): Promise<PrizeClaim> {
  const { caller } = ctx;
  const outcome = await extendClaim(ctx.db, {
    winnerId,
    days: input.days,
    reason: input.reason,
    actorId: caller.id,
    address: caller.address ?? null,
  });
  if (!outcome.found) throw new AppError('NOT_FOUND', SERVER_MESSAGES.claimNotFound);
  const row = await findClaim(ctx.db, winnerId, everyClaim);
  if (!outcome.extended)
    throw new AppError(
      'CONFLICT',
      row?.status === 'paid' ? SERVER_MESSAGES.claimPaidCannotExtend : SERVER_MESSAGES.claimBeforeClaims,
    );
  if (!row) throw new Error('an extended claim could not be read back');
  ctx.events.gameChanged(row.game_code);
  return toPrizeClaim(row, caller);
}

/**
 * POST /api/claims/{winnerId}/approve (admin): a prize whose entry has no entry code may be paid to
 * the claimer with this ID number (decision 086), recorded on the claim and audited.
 */
export async function approvePrize(ctx: Context, winnerId: number, input: ClaimApproveInput): Promise<PrizeClaim> {
  const { caller } = ctx;
  const approved = await approveClaim(ctx.db, {
    winnerId,
    claimerIdNumber: input.claimerIdNumber,
    reason: input.reason,
    actorId: caller.id,
    address: caller.address ?? null,
  });
  const row = await findClaim(ctx.db, winnerId, everyClaim);
  if (!row) throw new AppError('NOT_FOUND', SERVER_MESSAGES.claimNotFound);
  if (!approved)
    throw new AppError(
      'CONFLICT',
      row.has_entry_code ? SERVER_MESSAGES.claimApproveHasCode : SERVER_MESSAGES.claimApproveNotUnpaid,
    );
  return toPrizeClaim(row, caller);
}

const filterOf = (caller: Caller, query: Omit<ClaimsQuery, 'page' | 'pageSize'>): ListFilter => ({
  scope: readable(caller, false),
  status: query.status,
  userId: query.userId,
  saleId: query.saleId,
  from: query.from,
  to: query.to,
});

/** GET /api/claims: the Unpaid prizes list (by default), scoped, newest first, with totals. */
export async function listPrizeClaims(ctx: Context, query: ClaimsQuery): Promise<ClaimsList> {
  const { caller } = ctx;
  const list = await listClaims(ctx.db, filterOf(caller, query), {
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    items: list.rows.map((row) => toPrizeClaim(row, caller)),
    total: list.count,
    page: query.page,
    pageSize: query.pageSize,
    totals: { count: list.count, amount: formatCents(list.amount) },
  };
}

export const CLAIM_EXPORT_COLUMNS: ExportColumn<ClaimRow>[] = [
  { header: 'Settled', type: 'time', value: (row) => row.created_key },
  { header: 'Shop', type: 'text', value: (row) => row.shop_name },
  { header: 'Game no.', type: 'integer', value: (row) => row.game_number },
  { header: 'Game code', type: 'text', value: (row) => row.game_code },
  { header: 'Position', type: 'integer', value: (row) => row.position },
  { header: 'Prize', type: 'text', value: (row) => row.prize_name },
  { header: 'Number', type: 'integer', value: (row) => row.number },
  { header: 'Amount', type: 'money', value: (row) => row.amount },
  { header: 'Status', type: 'text', value: (row) => row.status },
  { header: 'Expires', type: 'time', value: (row) => new Date(row.expires_at) },
  { header: 'Paid at', type: 'time', value: (row) => (row.paid_at === null ? null : new Date(row.paid_at)) },
  { header: 'Paid at shop', type: 'text', value: (row) => row.paid_at_shop },
  {
    header: 'Receipt no.',
    type: 'text',
    value: (row) => (row.status === 'paid' ? receiptNumber(row.winner_id) : null),
  },
  { header: 'Claimer', type: 'text', value: (row) => row.claimer_name },
];

/** GET /api/claims/export: the same rows as the list, every one, a keyset page at a time. */
export async function exportPrizeClaims(
  ctx: Context,
  query: Omit<ClaimsExportQuery, 'format' | 'tz'>,
): Promise<AsyncIterable<ClaimRow[]>> {
  const { caller } = ctx;
  const filter = filterOf(caller, query);
  return keysetPages(
    (after: { at: string; id: number } | undefined, limit) => exportPage(ctx.db, filter, after, limit),
    (row) => ({ at: row.created_key, id: row.winner_id }),
  );
}

const settingsOf = (row: BusinessSettingsRow): BusinessSettings => ({
  claimPeriodDays: Number(row.claim_period_days),
  claimsAnyShopOfAgent: row.claims_any_shop_of_agent,
});

export async function getBusinessSettings(ctx: AppContext): Promise<BusinessSettings> {
  return settingsOf(await readSettings(ctx.db));
}

/** PUT /api/admin/business-settings: new claims take the period in force when their game settles. */
export async function putBusinessSettings(ctx: Context, input: BusinessSettings): Promise<BusinessSettings> {
  const { caller } = ctx;
  return settingsOf(await writeSettings(ctx.db, { ...input, actorId: caller.id, address: caller.address ?? null }));
}

/**
 * POST /api/claims/before-claims/paid (admin): every prize won before prize claims existed and not
 * yet marked becomes "paid before claims", in one audited statement (decision 060). None of them
 * was ever payable; this records that the shops paid them in cash at the time.
 */
export async function markPrizesBeforeClaimsPaid(ctx: Context): Promise<BeforeClaimsMarked> {
  const { caller } = ctx;
  const marked = await markBeforeClaimsPaid(ctx.db, { actorId: caller.id, address: caller.address ?? null });
  return { marked: marked.count, amount: formatCents(Number(marked.amount)) };
}
