import {
  type BeaconChain,
  chainHashOf,
  parseChainInfo,
  randomnessOf,
  roundTimeMs,
  verifyBeaconRound,
} from '@lot/domain/beacon';
import { systemClock, type Clock } from './clock.ts';

/**
 * The drand rounds the games draw with (decision 033), from public relays, never trusted: every
 * round is checked against the pinned chain's key before anything else sees it. Relays are asked
 * in turn; one that is down, slow, or answers anything but the verified round is passed over.
 */

export type BeaconRound = { round: number; signature: string; randomness: string };

type LogFn = (object: object, message: string) => void;
export type BeaconLog = { warn: LogFn; debug?: LogFn };

export type BeaconClientOptions = {
  /** Relay base URLs, asked in this order: https://api.drand.sh, or one that already ends in /{chainHash}. */
  urls: string[];
  /** The chain, pinned: only rounds signed by its key are accepted, only its /info is. */
  chain: BeaconChain;
  fetch?: typeof fetch;
  /** Per request, default 5 s. */
  timeoutMs?: number;
  /** Unix ms, the machine's clock by default: decides when a prefetched round is due. */
  clock?: Clock;
  log?: BeaconLog;
  /** Called once for each round that enters the cache (fetched by `round` or `prefetch`). */
  onRound?: (round: BeaconRound) => void;
  /** Rounds kept in memory, default 1,000 (the oldest had goes first). */
  cacheSize?: number;
  /** Prefetch retry delays: the first, doubling up to the last. Default 250 ms to 10 s. */
  retry?: { firstMs?: number; maxMs?: number };
};

/** A relay's answer is a few hundred bytes; more is refused unread. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** A prefetch waiting for a far round looks at the clock again at least this often. */
const MAX_WAIT_MS = 60_000;

type Answer = { round: BeaconRound } | { missing: string } | { refused: string };

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {}
}

function assertRound(r: number): void {
  if (!Number.isSafeInteger(r) || r < 1) throw new RangeError(`not a beacon round: ${r}`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const reasonOf = (error: unknown) =>
  error instanceof Error
    ? error.cause instanceof Error
      ? `${error.message}: ${error.cause.message}`
      : error.message
    : String(error);

export class BeaconClient {
  private readonly urls: string[];
  private readonly chain: BeaconChain;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly log: BeaconLog | undefined;
  private readonly onRound: ((round: BeaconRound) => void) | undefined;
  private readonly cacheSize: number;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;

  private readonly cache = new Map<number, BeaconRound>();
  private readonly inFlight = new Map<number, Promise<BeaconRound | undefined>>();
  /** Rounds being prefetched, with the timer of their next step (undefined while a fetch runs). */
  private readonly prefetching = new Map<number, NodeJS.Timeout | undefined>();
  private readonly stop = new AbortController();

  constructor(options: BeaconClientOptions) {
    if (options.urls.length === 0) throw new Error('BeaconClient: no relay URL');
    if (chainHashOf(options.chain) !== options.chain.chainHash) {
      throw new Error(`BeaconClient: the pinned chain's hash ${options.chain.chainHash} is not the hash of its fields`);
    }
    this.urls = options.urls.map((url) => url.replace(/\/+$/, ''));
    this.chain = options.chain;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.clock = options.clock ?? systemClock;
    this.log = options.log;
    this.onRound = options.onRound;
    this.cacheSize = options.cacheSize ?? 1_000;
    this.firstRetryMs = options.retry?.firstMs ?? 250;
    this.maxRetryMs = options.retry?.maxMs ?? 10_000;
  }

  /**
   * GET {url}/{chainHash}/info (or {url}/info for a URL that names the chain) from the relays in
   * turn, until one answers. Throws if that relay serves a chain other than the pinned one (hash or
   * any field), or if no relay answers; a relay that is down or answers garbage is passed over.
   */
  async checkInfo(): Promise<BeaconChain> {
    const failures: string[] = [];
    for (const url of this.urls) {
      let answer: HttpAnswer;
      try {
        answer = await this.get(`${url}/${this.chain.chainHash}/info`);
        if (answer.status === 404) answer = await this.get(`${url}/info`);
      } catch (error) {
        failures.push(`${url}: ${reasonOf(error)}`);
        continue;
      }
      if (answer.status !== 200) {
        failures.push(`${url}: HTTP ${answer.status}`);
        continue;
      }
      let info: BeaconChain;
      try {
        info = parseChainInfo(JSON.parse(answer.text));
      } catch (error) {
        this.log?.warn({ relay: url, reason: reasonOf(error) }, 'beacon relay /info refused');
        failures.push(`${url}: ${reasonOf(error)}`);
        continue;
      }
      const differ = (Object.keys(this.chain) as (keyof BeaconChain)[]).filter((key) => info[key] !== this.chain[key]);
      if (differ.length > 0) {
        throw new Error(
          `beacon relay ${url} serves chain ${info.chainHash}, not the pinned ${this.chain.chainHash} (${differ.join(', ')} differ)`,
        );
      }
      return this.chain;
    }
    throw new Error(`no beacon relay answered /info: ${failures.join('; ')}`);
  }

  /**
   * Round `r`, verified, from the cache or else from the relays in turn; undefined when none has
   * it yet or none answered it correctly. Concurrent calls for one round share one fetch.
   */
  round(r: number): Promise<BeaconRound | undefined> {
    assertRound(r);
    const had = this.cache.get(r);
    if (had) return Promise.resolve(had);
    if (this.stop.signal.aborted) return Promise.resolve(undefined);
    let pending = this.inFlight.get(r);
    if (!pending) {
      pending = this.fromRelays(r).finally(() => this.inFlight.delete(r));
      this.inFlight.set(r, pending);
    }
    return pending;
  }

  cached(r: number): BeaconRound | undefined {
    return this.cache.get(r);
  }

  /**
   * The latest round, asked of every relay at once ({url}/{chainHash}/public/latest, never from a
   * cache: `no-cache` is asked of any cache on the way) and verified under the pinned key: the
   * highest round a relay answered with a valid signature, undefined when none did (decision 076: a
   * freeze names its round R after it). Once one relay has answered, the others get `graceMs` more.
   */
  async latest(graceMs: number): Promise<BeaconRound | undefined> {
    const grace = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let newest: BeaconRound | undefined;
    await Promise.all(
      this.urls.map(async (url) => {
        const answer = await this.latestOf(url, grace.signal);
        if (!answer) return;
        if (answer.round > (newest?.round ?? 0)) newest = answer;
        timer ??= setTimeout(() => grace.abort(), graceMs);
      }),
    );
    clearTimeout(timer);
    return newest;
  }

  /**
   * Whether any relay already serves round `r`, its signature verified: every relay asked at once,
   * the cache first. A relay that does not answer before `signal` ends is no evidence either way.
   */
  async anyHas(r: number, signal?: AbortSignal): Promise<boolean> {
    assertRound(r);
    if (this.cache.has(r)) return true;
    const answers = await Promise.all(this.urls.map((url) => this.fromRelay(url, r, signal)));
    const had = answers.find((answer) => 'round' in answer);
    if (had) this.keep(had.round);
    return had !== undefined;
  }

  private async latestOf(url: string, signal?: AbortSignal): Promise<BeaconRound | undefined> {
    let answer: HttpAnswer;
    try {
      answer = await this.get(`${url}/${this.chain.chainHash}/public/latest`, signal);
      if (answer.status === 404) answer = await this.get(`${url}/public/latest`, signal);
    } catch (error) {
      this.log?.warn({ relay: url, reason: reasonOf(error) }, 'beacon relay did not answer its latest round');
      return undefined;
    }
    const checked = answer.status === 200 ? this.checkedRound(answer.text) : { refused: `HTTP ${answer.status}` };
    if ('round' in checked) {
      if (!this.cache.has(checked.round.round)) this.keep(checked.round);
      return checked.round;
    }
    this.log?.warn(
      { relay: url, reason: 'refused' in checked ? checked.refused : checked.missing },
      'beacon relay latest round refused',
    );
    return undefined;
  }

  /**
   * Fetches round `r` in the background once its time has come by the clock, retrying with
   * backoff until it is had or `close()` is called. Returns at once; one pending fetch per round.
   */
  prefetch(r: number): void {
    assertRound(r);
    if (this.stop.signal.aborted || this.cache.has(r) || this.prefetching.has(r)) return;
    this.prefetching.set(r, undefined);
    void this.prefetchStep(r, this.firstRetryMs);
  }

  /** Stops every prefetch and aborts the requests in flight; later calls answer from the cache only. */
  close(): void {
    this.stop.abort();
    for (const timer of this.prefetching.values()) clearTimeout(timer);
    this.prefetching.clear();
  }

  private async prefetchStep(r: number, retryMs: number): Promise<void> {
    if (this.stop.signal.aborted) return;
    const wait = roundTimeMs(this.chain, r) - this.clock();
    if (wait > 0) return this.later(r, Math.min(wait, MAX_WAIT_MS), retryMs);
    if (await this.round(r)) {
      this.prefetching.delete(r);
      return;
    }
    this.later(r, retryMs, Math.min(retryMs * 2, this.maxRetryMs));
  }

  private later(r: number, delayMs: number, nextRetryMs: number): void {
    if (this.stop.signal.aborted) return;
    const timer = setTimeout(() => {
      this.prefetching.set(r, undefined);
      void this.prefetchStep(r, nextRetryMs);
    }, delayMs);
    timer.unref();
    this.prefetching.set(r, timer);
  }

  private async fromRelays(r: number): Promise<BeaconRound | undefined> {
    for (const url of this.urls) {
      const answer = await this.fromRelay(url, r);
      if (this.stop.signal.aborted) return undefined;
      if ('round' in answer) {
        this.keep(answer.round);
        return answer.round;
      }
      if ('refused' in answer)
        this.log?.warn({ relay: url, round: r, reason: answer.refused }, 'beacon relay answer refused');
      else this.log?.debug?.({ relay: url, round: r, reason: answer.missing }, 'beacon relay has no such round yet');
    }
    return undefined;
  }

  /** drand's two forms: {url}/{chainHash}/public/{r}, then, if that is a 404, {url}/public/{r}. */
  private async fromRelay(url: string, r: number, signal?: AbortSignal): Promise<Answer> {
    let answer: HttpAnswer;
    try {
      answer = await this.get(`${url}/${this.chain.chainHash}/public/${r}`, signal);
      if (answer.status === 404) answer = await this.get(`${url}/public/${r}`, signal);
    } catch (error) {
      return { refused: reasonOf(error) };
    }
    if (answer.status === 404 || answer.status === 425) return { missing: `HTTP ${answer.status}` };
    if (answer.status !== 200) return { refused: `HTTP ${answer.status}` };
    return this.checkedRound(answer.text, r);
  }

  /** A relay's answer of a round (round `r`, or the latest one when `r` is not given), verified. */
  private checkedRound(text: string, r?: number): Answer {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { refused: 'not JSON' };
    }
    if (!isObject(body)) return { refused: 'not a JSON object' };
    const round = body.round;
    if (typeof round !== 'number' || !Number.isSafeInteger(round) || round < 1 || (r !== undefined && round !== r))
      return { refused: `answered round ${JSON.stringify(round)}` };
    const { signature, randomness } = body;
    // A round verified before is not verified again: a burst of freezes reads the same latest round.
    const known = typeof signature === 'string' && this.cache.get(round)?.signature === signature;
    if (typeof signature !== 'string' || (!known && !verifyBeaconRound(this.chain, round, signature))) {
      return { refused: 'signature does not verify under the pinned key' };
    }
    const computed = randomnessOf(signature);
    if (randomness !== undefined && randomness !== computed) {
      return { refused: 'randomness is not sha256 of the signature' };
    }
    return { round: { round, signature, randomness: computed } };
  }

  /**
   * One GET, bounded by timeoutMs, close() and `deadline`, its body read up to MAX_ANSWER_BYTES.
   * `no-cache` asks any cache on the way (a CDN before drand's relays) for a fresh answer: Node's
   * fetch keeps none itself, and the latest round must be the relay's own.
   */
  private async get(url: string, deadline?: AbortSignal): Promise<HttpAnswer> {
    const signals = [this.stop.signal, AbortSignal.timeout(this.timeoutMs), ...(deadline ? [deadline] : [])];
    const response = await this.fetch(url, {
      signal: AbortSignal.any(signals),
      headers: { accept: 'application/json', 'cache-control': 'no-cache' },
    });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return new HttpAnswer(response.status, '');
    }
    if (Number(response.headers.get('content-length')) > MAX_ANSWER_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error('answer too large');
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        await reader?.cancel().catch(() => undefined);
        throw new Error('answer too large');
      }
      chunks.push(chunk.value);
    }
    return new HttpAnswer(200, Buffer.concat(chunks).toString('utf8'));
  }

  private keep(round: BeaconRound): void {
    this.cache.set(round.round, round);
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= this.cacheSize) break;
      this.cache.delete(oldest);
    }
    try {
      this.onRound?.(round);
    } catch (error) {
      this.log?.warn({ round: round.round, reason: reasonOf(error) }, 'beacon onRound listener threw');
    }
  }
}
