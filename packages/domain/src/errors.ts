import { z } from 'zod';

/**
 * One error type with a code, mapped to an HTTP status in one place (the server's error
 * plugin) and parsed back into the same shape by the web client.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  /** A session of a role that requires two-factor sign-in, before the user has set it up. */
  TWO_FACTOR_ENROLMENT_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /**
   * Shifts (docs/product/shifts.md): a second open, a close of a closed shift, a close with a game in
   * progress, a take-back from the drawer of a shop with no open shift.
   */
  SHIFT_OPEN: 409,
  SHIFT_CLOSED: 409,
  GAME_IN_PROGRESS: 409,
  NO_OPEN_SHIFT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  /** Prize claims (decision 038): a prize paid already; expired; another shop's. */
  ALREADY_PAID: 409,
  CLAIM_EXPIRED: 409,
  OTHER_SHOP: 403,
  /** Decision 086: a payout without its entry slip's code (or, for an entry from before codes, the approved claimer ID). */
  WRONG_ENTRY_CODE: 422,
  WRONG_CLAIMER_ID: 422,
  APPROVAL_REQUIRED: 409,
  /** Decision 094: a void of a game whose draws named a winner, without `afterWinner`. */
  WINNER_ANNOUNCED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type FieldErrors = Record<string, string>;

export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
  /** The request's id (the `x-request-id` header), so a report can be found in the server's log. */
  requestId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors: FieldErrors | undefined;
  /** Seconds, for RATE_LIMITED: sent as Retry-After. */
  readonly retryAfter: number | undefined;
  /** More of the body a client acts on (an ALREADY_PAID refusal carries the claim); the route's schema declares it. */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { fieldErrors?: FieldErrors; retryAfter?: number; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fieldErrors = options.fieldErrors;
    this.retryAfter = options.retryAfter;
    this.extra = options.extra;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = this.fieldErrors
      ? { message: this.message, code: this.code, fieldErrors: this.fieldErrors }
      : { message: this.message, code: this.code };
    return this.extra ? { ...this.extra, ...body } : body;
  }

  /** A field-level validation failure: the message is the field's message. */
  static field(field: string, message: string): AppError {
    return new AppError('VALIDATION_ERROR', message, { fieldErrors: { [field]: message } });
  }
}
