import { ApiError } from './api-client.ts';
import { newIdempotencyKey } from './retry.ts';

/*
 * A money action's key (decision 056), apart from lib/retry.ts so that only the screens that move
 * money load it, not every first screen.
 */

/** The request as text with its keys sorted, so the same input reads the same whatever its order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * One kind of action's key (a transfer, a top-up, a take-back): the same key for every send of
 * the same input until the server answers it, so a re-click after "Cannot reach the server" or a 502
 * replays the first call instead of making a second. Other input is another action, with a new key.
 */
export class ActionKey {
  #pending: { input: string; key: string } | null = null;
  readonly #make: () => string;

  constructor(make: () => string = newIdempotencyKey) {
    this.#make = make;
  }

  /** The key to send this input with. */
  keyFor(input: unknown): string {
    const text = canonical(input);
    if (this.#pending?.input !== text) this.#pending = { input: text, key: this.#make() };
    return this.#pending.key;
  }

  /**
   * After a send: `status` is what answered (200 for a success, 0 when nothing did). A success or a
   * refusal (4xx) ends the action; no answer or a server fault (5xx) keeps the key for the next send.
   */
  settle(status: number): void {
    if (status !== 0 && status < 500) this.#pending = null;
  }
}

/**
 * A call made for one action (a transfer, a top-up, a take-back) with the action's key: the same key
 * for a re-click of the same input until the server answered (decision 056).
 */
export async function keyedCall<T>(action: ActionKey, input: unknown, call: (key: string) => Promise<T>): Promise<T> {
  try {
    const result = await call(action.keyFor(input));
    action.settle(200);
    return result;
  } catch (error) {
    action.settle(error instanceof ApiError ? error.status : 0);
    throw error;
  }
}
