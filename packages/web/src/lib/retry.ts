/**
 * A money action survives a lost answer (decision 056): its Idempotency-Key lives until the server
 * answers, and the client itself sends it again, with the same key, when nothing answered. Pure, so
 * retry.test.ts holds every rule.
 */

/** crypto.randomUUID exists only in secure contexts (https, localhost), hence the fallback. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const hex = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** What the person reads while the client sends a keyed call again by itself. */
export const RETRYING_MESSAGE = 'Cannot reach the server. Trying again…';

/**
 * No answer from the server: the request failed on the way (status 0), or a proxy in front says the
 * process behind it is gone or busy (502, 503, 504). The call may or may not have been applied.
 */
export const isNoAnswer = (status: number) => status === 0 || status === 502 || status === 503 || status === 504;

/** The waits before the automatic resends: three of them, 3.5 s in all, then the person decides. */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1_000, 2_000];

/**
 * The wait before sending a call again after its `failures`-th failure with `status`, or null when
 * it is not sent again: only a keyed call (its key makes a resend apply once), only when nothing
 * answered, at most RETRY_DELAYS_MS.length times. An unkeyed POST is never resent: it might apply
 * twice. (GETs are asked again by the query client, lib/query-client.ts.)
 */
export function retryDelay({ keyed, status, failures }: { keyed: boolean; status: number; failures: number }) {
  if (!keyed || !isNoAnswer(status)) return null;
  return RETRY_DELAYS_MS[failures - 1] ?? null;
}
