import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, errorBodySchema, type ErrorCode, type FieldErrors } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';

/** What fastify-type-provider-zod makes of a zod issue: its code as keyword, its other fields as params. */
/** Route schemas' error responses: every one has the same body. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<S, typeof errorBodySchema>;
}

type ValidationItem = {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { keys?: string[] };
};

/** Turns a schema failure into the one error shape: the first field's message leads. */
function fromValidation(items: ValidationItem[], context: string | undefined): AppError {
  const fieldErrors: FieldErrors = {};
  for (const item of items) {
    const keys = item.params?.keys;
    if (item.keyword === 'unrecognized_keys' && keys) {
      for (const key of keys) fieldErrors[key] ??= `Field '${key}' is not allowed`;
      continue;
    }
    const field = (item.instancePath ?? '').split('/').filter(Boolean).join('.') || context || 'body';
    fieldErrors[field] ??= item.message ?? 'Invalid value';
  }
  const message = Object.values(fieldErrors)[0] ?? 'Invalid request';
  return new AppError('VALIDATION_ERROR', message, { fieldErrors });
}

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
};

/** Maps framework and plugin errors (bad JSON, body too large, multipart limits) to AppError. */
function toAppError(error: FastifyError): AppError | null {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    return fromValidation(error.validation as ValidationItem[], error.validationContext);
  }
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', MESSAGES.logoTooLarge, { fieldErrors: { logo: MESSAGES.logoTooLarge } });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('BAD_REQUEST', SERVER_MESSAGES.bodyNotJson);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', SERVER_MESSAGES.unsupportedContentType);
  }
  const status = error.statusCode ?? 500;
  const code = STATUS_CODES[status];
  if (code) return new AppError(code, error.message || code);
  if (status >= 400 && status < 500) return new AppError('BAD_REQUEST', error.message || SERVER_MESSAGES.badRequest);
  return null;
}

/** Requests that got past parsing and validation into their handler (see the multipart case below). */
const handled = new WeakSet<FastifyRequest>();

/**
 * One error handler: every failure leaves as { message, code, fieldErrors?, requestId }; 5xx details
 * stay in the log, under the same request id.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preHandler', async (request) => {
    handled.add(request);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A malformed multipart body (no boundary, cut short, bad part header) fails inside the form
    // parser with a bare Error and no status: it is the client's bad input, not our 500.
    const unreadableForm =
      error.statusCode === undefined && !(error instanceof AppError) && !handled.has(request) && request.isMultipart();
    const appError = unreadableForm
      ? new AppError('BAD_REQUEST', SERVER_MESSAGES.formDataUnreadable)
      : toAppError(error);
    if (!appError) {
      request.log.error({ err: error }, 'unhandled error');
      return reply
        .status(500)
        .send({ message: SERVER_MESSAGES.internalError, code: 'INTERNAL', requestId: request.id });
    }
    if (appError.status >= 500) request.log.error({ err: error }, 'server error');
    if (appError.retryAfter !== undefined) reply.header('Retry-After', String(appError.retryAfter));
    return reply.status(appError.status).send({ ...appError.toBody(), requestId: request.id });
  });
  app.setNotFoundHandler(() => {
    throw new AppError('NOT_FOUND', SERVER_MESSAGES.notFound);
  });
});
