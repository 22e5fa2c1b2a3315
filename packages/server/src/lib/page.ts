import type { FastifyReply } from 'fastify';

/**
 * One page of a list: its rows and how many rows the whole filtered set has.
 */
export type Page<T> = { items: T[]; total: number };

/** Whole-set totals a list sends beside its count, by header name (X-Total-Amount, X-Total-Commission, …). */
export type PageTotals = Readonly<Record<`X-Total-${string}`, string>>;

/**
 * The `{ items, total, … }` body of `GET /api/claims` and `GET /api/shifts` is deprecated since
 * 2026-11-29 and answered until its sunset (decision 072); a client asks for the one shape with
 * `Prefer: list=array`.
 */
export const ENVELOPE_SUNSET = {
  deprecation: '@1795910400',
  sunset: 'Mon, 31 May 2027 00:00:00 GMT',
} as const;

/** The request preference (RFC 7240) that asks a deprecated envelope list for the one shape. */
export const ARRAY_PREFERENCE = 'list=array';

type PageOptions = {
  /** More whole-set totals for the headers. */
  totals?: PageTotals;
};

function prefersArray(reply: FastifyReply): boolean {
  const prefer = reply.request.headers.prefer;
  const values = Array.isArray(prefer) ? prefer : [prefer ?? ''];
  return values.some((value) => value.split(/[,;]/).some((token) => token.trim() === ARRAY_PREFERENCE));
}

/**
 * Sends one page of a list in the one list shape (decision 072): the rows as a JSON array, the
 * whole filtered set's count in `X-Total-Count` and any other totals in their `X-Total-*` headers.
 * Every list route answers through here; none sets those headers by hand.
 *
 * Two bodies other than the array: `body`, a document whose page is one of its parts (a
 * statement's movements), and `envelope`, the deprecated `{ items, total, … }` of claims and
 * shifts, answered with `Deprecation` and `Sunset` unless the client sends `Prefer: list=array`.
 */
export function sendPage<T>(reply: FastifyReply, page: Page<T>, options?: PageOptions): T[];
export function sendPage<T, B>(reply: FastifyReply, page: Page<T>, options: PageOptions & { body: B }): B;
export function sendPage<T, B>(reply: FastifyReply, page: Page<T>, options: PageOptions & { envelope: B }): T[] | B;
export function sendPage<T, B>(
  reply: FastifyReply,
  page: Page<T>,
  options: PageOptions & { body?: B; envelope?: B } = {},
): T[] | B {
  reply.header('X-Total-Count', String(page.total));
  for (const [name, value] of Object.entries(options.totals ?? {})) reply.header(name, value);
  if (options.body !== undefined) return options.body;
  if (options.envelope === undefined) return page.items;
  reply.header('Vary', 'Prefer');
  if (prefersArray(reply)) {
    reply.header('Preference-Applied', ARRAY_PREFERENCE);
    return page.items;
  }
  reply.header('Deprecation', ENVELOPE_SUNSET.deprecation);
  reply.header('Sunset', ENVELOPE_SUNSET.sunset);
  return options.envelope;
}
