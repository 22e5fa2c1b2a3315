import type { ErrorBody, FieldErrors } from '@lot/domain/errors';
import { API_BASE } from './config.ts';
import { newIdempotencyKey, retryDelay, RETRYING_MESSAGE } from './retry.ts';
import { storage } from './storage.ts';

/** A failed call, in the server's one error shape. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldErrors | undefined;

  constructor(status: number, message: string, code: string, fieldErrors?: FieldErrors) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The server's one error shape (errorBodySchema), checked by hand: every screen loads this module,
 * and zod here would put 30 kB gzip before each first screen (the bench's 150 kB budget). It accepts
 * exactly what the schema accepts (a property test in api-client.test.ts holds it to that).
 */
export function readErrorBody(body: unknown): ErrorBody | null {
  if (!isRecord(body) || Array.isArray(body) || typeof body.message !== 'string' || typeof body.code !== 'string')
    return null;
  const { fieldErrors, requestId } = body;
  if (requestId !== undefined && typeof requestId !== 'string') return null;
  const ids = requestId === undefined ? {} : { requestId };
  if (fieldErrors === undefined) return { message: body.message, code: body.code, ...ids };
  if (!isRecord(fieldErrors) || Array.isArray(fieldErrors)) return null;
  if (!Object.values(fieldErrors).every((text) => typeof text === 'string')) return null;
  return { message: body.message, code: body.code, fieldErrors: fieldErrors as FieldErrors, ...ids };
}

/** Set by the auth provider: what to do when the server says the session is over (with its reason). */
let onSessionEnded: ((message: string) => void) | undefined;
export function setSessionEndedHandler(handler: ((message: string) => void) | undefined) {
  onSessionEnded = handler;
}

/** Set by the auth provider: the server says this session must set up two-factor sign-in first. */
let onTwoFactorSetupRequired: (() => void) | undefined;
export function setTwoFactorSetupHandler(handler: (() => void) | undefined) {
  onTwoFactorSetupRequired = handler;
}

/**
 * Who hears that the client sends a keyed call again by itself (decision 056): the toast provider,
 * and a money dialog while its call runs (its notices sit under the dialog). Returns the unsubscribe.
 */
const retryingListeners = new Set<(message: string) => void>();
export function onRetrying(listener: (message: string) => void): () => void {
  retryingListeners.add(listener);
  return () => retryingListeners.delete(listener);
}

export type ApiOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  headers?: Record<string, string>;
  /** Sign-in and its kin: a 401 there is a wrong password, not an ended session. */
  anonymous?: boolean;
  /**
   * A money call: true sends a fresh Idempotency-Key, so the server applies a resent request once;
   * a string is a key fixed earlier (an ActionKey's, kept until an answer). Either way the key stays
   * the same for the client's own resends when nothing answered (decision 056).
   */
  idempotent?: boolean | string;
};

export type Paged<T> = { items: T[]; total: number; headers: Headers };

/**
 * One call: a keyed one is sent again with its key after no answer (a network error, a 502, 503 or
 * 504), after the waits of RETRY_DELAYS_MS, telling the person once (decision 056).
 */
async function send(path: string, options: ApiOptions): Promise<Response> {
  const key =
    typeof options.idempotent === 'string' ? options.idempotent : options.idempotent ? newIdempotencyKey() : null;
  for (let failures = 1; ; failures++) {
    try {
      return await sendOnce(path, options, key);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : -1;
      const wait = retryDelay({ keyed: key !== null, status, failures });
      if (wait === null) throw error;
      if (failures === 1) for (const listener of retryingListeners) listener(RETRYING_MESSAGE);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

async function sendOnce(path: string, options: ApiOptions, key: string | null): Promise<Response> {
  const url = new URL(`${API_BASE}${path}`, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  const token = storage.getToken();
  const isForm = options.body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        ...(options.body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
        ...(token && !options.anonymous ? { authorization: `Bearer ${token}` } : {}),
        ...(key === null ? {} : { 'idempotency-key': key }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : isForm ? (options.body as FormData) : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.', 'NETWORK');
  }
  if (response.ok) return response;
  const body: unknown = await response.json().catch(() => null);
  const parsed = readErrorBody(body);
  const error = parsed
    ? new ApiError(response.status, parsed.message, parsed.code, parsed.fieldErrors)
    : // Not the server's error shape (a proxy's 502 page, an empty 500): no message of its own, so
      // each screen says its own fallback rather than the HTTP status text.
      new ApiError(response.status, '', 'UNKNOWN');
  if (response.status === 401 && !options.anonymous) onSessionEnded?.(error.message);
  if (error.code === 'TWO_FACTOR_ENROLMENT_REQUIRED') onTwoFactorSetupRequired?.();
  throw error;
}

/** JSON call; throws ApiError with the server's message. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const response = await send(path, options);
  return (await response.json()) as T;
}

/**
 * A list call with its paging and totals headers: the one list shape, a JSON array with
 * `X-Total-Count` (decision 072). `Prefer: list=array` asks the lists whose `{ items, total }` body
 * is deprecated for the array too; the others ignore it.
 */
export async function apiPage<T>(path: string, options: ApiOptions = {}): Promise<Paged<T>> {
  const response = await send(path, { ...options, headers: { prefer: 'list=array', ...options.headers } });
  const items = (await response.json()) as T[];
  return { items, total: Number(response.headers.get('x-total-count') ?? items.length), headers: response.headers };
}

/** A binary resource (a logo) as a blob. */
export async function apiBlob(path: string, options: ApiOptions = {}): Promise<Blob> {
  return (await send(path, options)).blob();
}

/** The raw response of a call (lib/download.ts streams an export from it). */
export function apiResponse(path: string, options: ApiOptions = {}): Promise<Response> {
  return send(path, options);
}

/**
 * The message to show for a failed call: the server's, else the fallback
 * (docs/product/validation-and-errors.md#write-fallbacks).
 */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
