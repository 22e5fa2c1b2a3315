import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import type { FastifyBaseLogger } from 'fastify';
import { firstRoundAfter, parseChainInfo, QUICKNET, roundTimeMs, type BeaconChain } from '@lot/domain/beacon';
import type { BeaconPin } from '@lot/domain/draw';
import { AppError } from '@lot/domain/errors';
import { FREEZE_MARGIN_MS, freezeRound, type FreezeRefusal } from '@lot/domain/freeze-round';
import { unpinnedChainText } from '@lot/domain/unpinned-chain';
import { BeaconClient, type BeaconRound } from './beacon-client.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Job } from './jobs.ts';

/**
 * The public randomness a LOT-DRAW-2 game waits for (docs/lot-draw-2.md, decision 033): which
 * beacon a new game names, the round R after a freeze, and R's verified signature once it exists.
 *
 * Modes (DRAW_BEACON): `required` — a game opens only as LOT-DRAW-2, and opening is refused while
 * the beacon cannot be reached; `auto` — while the beacon cannot be reached, new games open as
 * LOT-DRAW-1, labelled "Server randomness only" everywhere (a newcomer's machine without internet
 * still plays) — until the database has played a LOT-DRAW-2 game, after which `auto` refuses like
 * `required` unless an admin has turned LOT-DRAW-1 on (decision 061: the caller of `pinForNewGame`
 * answers that); `off` — every game is LOT-DRAW-1. A game opened as LOT-DRAW-2 stays LOT-DRAW-2
 * whatever happens: it waits for its round, never for another one.
 *
 * While the mode is not `off`, a heartbeat asks the relays every 30 s — the newest round while the
 * beacon answers, the chain's info while it does not — so `status()` (GET /api/ready, GET /metrics,
 * decision 062) tells the truth even when no game is played, and the log says once when the beacon
 * goes down and once when it is back.
 */
export type DrawBeaconMode = 'required' | 'auto' | 'off';

export type DrawBeaconOptions = {
  mode: DrawBeaconMode;
  /** Relays of the chain, tried in turn. */
  urls: string[];
  /** The pinned chain hash; its info (public key, period, genesis) is checked against it. */
  chainHash: string;
  /** The app's clock (its context's); the machine's when none is given. */
  clock?: Clock;
  log?: FastifyBaseLogger;
  /** How long one relay may take to answer. */
  timeoutMs?: number;
  /** How often the heartbeat asks the relays (default 30 s; tests shorten it). */
  heartbeatMs?: number;
  /**
   * DRAW_FREEZE_MARGIN_MS: the room a freeze leaves before round R is published (decision 076);
   * a freeze waits a quarter of it for slower relays. Default FREEZE_MARGIN_MS.
   */
  freezeMarginMs?: number;
};

/** What GET /api/ready and GET /metrics say of the beacon (decision 062). */
export type BeaconStatus = {
  mode: DrawBeaconMode;
  /** The pinned chain (empty with mode off). */
  chainHash: string;
  /** Whether it is drand quicknet, the chain the verify page trusts without a pin. */
  quicknet: boolean;
  /** Whether the relays answered the last question (never with mode off). */
  up: boolean;
  /** The newest round verified so far and its time (unix ms), or null before the first. */
  lastRound: { round: number; at: number } | null;
};

/** How long the first open of a game waits for the start-up check of the beacon. */
const START_CHECK_MS = 3_000;
/** The heartbeat: the newest round (beacon up) or the chain's info (down) is asked for this often. */
const HEARTBEAT_MS = 30_000;
/** The heartbeat asks for the newest round published at least this long ago (relays lag a little). */
const PUBLISHED_FOR_MS = 1_000;
/** A round's time has passed but no relay had it: ask again after this long (the client backs off too). */
const UNREACHABLE_RETRY_MS = 1_000;
/** A round this late that no relay answers means the beacon is down, not slow. */
const OVERDUE_MS = 10_000;
/** Relays publish a round a moment after its time. */
const PUBLISH_MARGIN_MS = 150;

/** Round R for a freeze, after the latest public round L; or why the game may not freeze now. */
export type FreezeEvidence =
  { kind: 'freeze'; round: number; latest: number } | { kind: 'no freeze'; reason: FreezeRefusal };

type LatestAsk = {
  client: BeaconClient;
  /** When it was asked (performance.now(): a duration, not a time of day). */
  startedAt: number;
  latest: Promise<BeaconRound | undefined>;
  /** Whether a relay has round r already, asked once per round. */
  has: Map<number, Promise<boolean>>;
};

export type RoundState =
  | { ready: true; round: BeaconRound }
  | { ready: false; expectedAt: number; retryAfterMs: number; unreachable: boolean };

export class DrawBeacon {
  readonly mode: DrawBeaconMode;
  readonly now: Clock;
  private chain: BeaconChain | undefined;
  private client: BeaconClient | undefined;
  private reachable = false;
  /** What the log last said: a change is logged once, not every heartbeat. */
  private said: 'up' | 'down' | undefined;
  private lastRound: { round: number; at: number } | null = null;
  /** The start-up check: asked when the app is ready (`job`), at once when the mode is off. */
  private checked: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private closed = false;
  /** The latest round being asked for a freeze (`askLatest`). */
  private asking: LatestAsk | undefined;

  constructor(private readonly options: DrawBeaconOptions) {
    this.mode = options.mode;
    this.now = options.clock ?? systemClock;
    if (options.chainHash === QUICKNET.chainHash) this.chain = QUICKNET;
    if (options.mode === 'off') {
      this.checked = Promise.resolve();
      return;
    }
    // Named once at start-up: every LOT-DRAW-2 game shows "not drand quicknet" on its verify page.
    if (options.chainHash !== QUICKNET.chainHash)
      options.log?.warn({ chainHash: options.chainHash }, unpinnedChainText(options.chainHash));
  }

  /**
   * The beacon as one of the app's background jobs (lib/jobs.ts): started, it checks the relays
   * (and re-checks them while they fail) and beats every heartbeat; stopped, it ends the heartbeat,
   * the re-checks and every prefetch of a round games wait for.
   */
  job(): Job {
    return {
      name: 'the public randomness beacon',
      start: () => {
        if (this.checked) return;
        this.checked = this.check().then(() => {
          // The newest round at once, so its age is known before the first heartbeat.
          if (this.reachable) void this.beat();
        });
        this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs ?? HEARTBEAT_MS);
        this.heartbeat.unref();
      },
      stop: () => this.close(),
    };
  }

  /** The beacon as GET /api/ready and GET /metrics report it. */
  status(): BeaconStatus {
    return {
      mode: this.mode,
      chainHash: this.options.chainHash,
      quicknet: this.options.chainHash === QUICKNET.chainHash,
      up: this.mode !== 'off' && this.reachable,
      lastRound: this.lastRound,
    };
  }

  /**
   * Up or down, logged only when it changes: one short line when the beacon goes down (what that
   * means for new games, and why, in a few words) and one when it answers again.
   */
  private setReachable(up: boolean, reason?: string): void {
    this.reachable = up;
    if (this.closed || this.said === (up ? 'up' : 'down')) return;
    const before = this.said;
    this.said = up ? 'up' : 'down';
    if (up) {
      if (before === 'down') this.options.log?.info('the public randomness beacon answers again');
      return;
    }
    this.options.log?.warn(
      { reason: reason?.slice(0, 160) },
      this.mode === 'required'
        ? 'the public randomness beacon cannot be reached: no game can open until it answers'
        : 'the public randomness beacon cannot be reached: new games open as LOT-DRAW-1 (server randomness only) until it answers, unless a LOT-DRAW-2 game was played here',
    );
  }

  /** Keeps the newest verified round (for its age in GET /metrics). */
  private noteRound(round: number): void {
    if (!this.chain || (this.lastRound && this.lastRound.round >= round)) return;
    this.lastRound = { round, at: roundTimeMs(this.chain, round) };
  }

  /**
   * One heartbeat, shared by whoever asks meanwhile: the newest round while a client is had, else
   * the chain's info.
   */
  private beat(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.beating ??= (this.client ? this.probe(this.client) : this.check()).finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  private async probe(client: BeaconClient): Promise<void> {
    if (!this.chain) return;
    const newest = firstRoundAfter(this.chain, this.now() - PUBLISHED_FOR_MS) - 1;
    if (newest < 1) return;
    const got = client.cached(newest) ?? (await client.round(newest));
    if (this.closed || client !== this.client) return;
    this.setReachable(got !== undefined, got ? undefined : `no relay answered round ${newest}`);
  }

  /**
   * A chain other than quicknet is pinned by its hash alone: its info is learnt from a relay and
   * taken only if its fields hash to the pinned chain hash (parseChainInfo checks the hash).
   */
  private async learn(): Promise<BeaconChain> {
    const failures: string[] = [];
    for (const url of this.options.urls) {
      try {
        const answer = await fetch(`${url}/${this.options.chainHash}/info`, {
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
        });
        if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
        const chain = parseChainInfo(await answer.json());
        if (chain.chainHash !== this.options.chainHash) throw new Error(`serves chain ${chain.chainHash}`);
        return chain;
      } catch (error) {
        failures.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    throw new Error(`no beacon relay answered the info of chain ${this.options.chainHash}: ${failures.join('; ')}`);
  }

  /** Asks the relays for the chain's info (checked against the pin); retried while it fails. */
  private async check(): Promise<void> {
    try {
      const pinned = this.chain ?? (await this.learn());
      const client = new BeaconClient({
        urls: this.options.urls,
        chain: pinned,
        clock: this.now,
        timeoutMs: this.options.timeoutMs,
        log: this.options.log,
        onRound: (round) => this.noteRound(round.round),
      });
      const chain = await client.checkInfo();
      if (this.closed) return client.close();
      this.client?.close();
      this.chain = chain;
      this.client = client;
      this.setReachable(true);
    } catch (error) {
      this.setReachable(false, error instanceof Error ? error.message : String(error));
    }
  }

  /** The start-up check of the beacon, waited for at most START_CHECK_MS. */
  private started(): Promise<unknown> {
    // Not started (an app never made ready): nothing was checked, the beacon is not reachable.
    if (!this.checked) return Promise.resolve();
    return this.within(this.checked);
  }

  /** `work`, waited for at most START_CHECK_MS. */
  private within(work: Promise<unknown>): Promise<unknown> {
    return Promise.race([work, new Promise((resolve) => setTimeout(resolve, START_CHECK_MS).unref())]);
  }

  /** The client of the game's beacon: none for a chain other than the one checked (or none yet). */
  private clientFor(pin: BeaconPin): BeaconClient | undefined {
    return pin.chainHash === this.chain?.chainHash ? this.client : undefined;
  }

  /**
   * The beacon a game opening now names, or null for LOT-DRAW-1 (mode off, or auto while the beacon
   * is unreachable and `serverRandomnessAllowed` says yes). A beacon marked down is asked once more
   * first (at most START_CHECK_MS), so a relay's passing failure does not refuse games until the next
   * heartbeat. Required (or auto refused) and unreachable: 503.
   */
  async pinForNewGame(serverRandomnessAllowed: () => Promise<boolean> = async () => true): Promise<BeaconPin | null> {
    if (this.mode === 'off') return null;
    await this.started();
    if (!this.reachable) await this.within(this.beat());
    if (this.reachable && this.chain) {
      const { chainHash, publicKey, genesisTime, period } = this.chain;
      return { chainHash, publicKey, genesisTime, period };
    }
    if (this.mode === 'required' || !(await serverRandomnessAllowed()))
      throw new AppError('UNAVAILABLE', SERVER_MESSAGES.beaconUnreachable);
    return null;
  }

  /**
   * Round R for a freeze now, from evidence (decision 076, `freezeRound`): the latest round L every
   * relay is asked for at once (fresh, verified under the game's pinned key; once one answered, the
   * others get a quarter of the margin more), the request's clock, and the margin plus the time the
   * answer took; then every relay is asked, for at most a quarter of the margin, whether it has R
   * already, and the freeze is refused if that took over half of it (a server that stalled). The
   * caller takes the freeze's time after this answers.
   */
  async freezeEvidence(pin: BeaconPin, clock: Clock): Promise<FreezeEvidence> {
    const refused = (reason: FreezeRefusal): FreezeEvidence => ({ kind: 'no freeze', reason });
    await this.started();
    if (this.mode !== 'off' && !this.clientFor(pin)) await this.within(this.beat());
    const client = this.clientFor(pin);
    if (!client) return refused('no latest round');
    const marginMs = this.options.freezeMarginMs ?? FREEZE_MARGIN_MS;
    const ask = this.askLatest(client, marginMs / 4);
    const latest = await ask.latest;
    if (!latest) return refused('no latest round');
    if (client === this.client) this.setReachable(true);
    // L is as old as the question: R keeps the whole margin after the time it took.
    const chosenAt = performance.now();
    const room = marginMs + (chosenAt - ask.startedAt);
    const named = freezeRound(pin, { latest: latest.round, now: clock(), marginMs: room });
    if ('refused' in named) return refused(named.refused);
    let has = ask.has.get(named.round);
    if (!has) ask.has.set(named.round, (has = client.anyHas(named.round, AbortSignal.timeout(marginMs / 4))));
    if (await has) return refused('round public');
    // At most a quarter of the margin to ask about R: more than half is a server that stalled.
    if (performance.now() - chosenAt > marginMs / 2) return refused('too slow');
    return { kind: 'freeze', round: named.round, latest: latest.round };
  }

  /**
   * The freezes' question for the latest round, shared by every freeze that starts while it runs
   * (one verification for a burst of freezes), and the questions about R asked after it. A freeze
   * that joins it counts its time from when it was asked.
   */
  private askLatest(client: BeaconClient, graceMs: number): LatestAsk {
    if (this.asking?.client === client) return this.asking;
    const ask: LatestAsk = { client, startedAt: performance.now(), latest: client.latest(graceMs), has: new Map() };
    this.asking = ask;
    void ask.latest.finally(() => {
      if (this.asking === ask) this.asking = undefined;
    });
    return ask;
  }

  /** Starts fetching round R in the background once its time comes (retried with backoff). */
  prefetch(pin: BeaconPin, round: number): void {
    this.clientFor(pin)?.prefetch(round);
  }

  /**
   * Round R of the game's beacon, verified, or why not yet: its time has not come (ask again at
   * expectedAt), or no relay answered it (ask again shortly; the game waits, never takes another round).
   */
  async round(pin: BeaconPin, round: number): Promise<RoundState> {
    await this.started();
    const expectedAt = roundTimeMs(pin, round);
    const now = this.now();
    if (now < expectedAt) {
      return { ready: false, expectedAt, retryAfterMs: expectedAt - now + PUBLISH_MARGIN_MS, unreachable: false };
    }
    const client = this.clientFor(pin);
    const got = client ? (client.cached(round) ?? (await client.round(round))) : undefined;
    if (got) {
      if (client === this.client) this.setReachable(true);
      return { ready: true, round: got };
    }
    // A round long overdue: the beacon is unreachable, so new games follow the mode (refused when
    // required, LOT-DRAW-1 when auto and allowed) until the heartbeat hears it again.
    if (client && now - expectedAt > OVERDUE_MS && this.reachable)
      this.setReachable(false, `round ${round} is overdue by ${Math.round((now - expectedAt) / 1000)} s`);
    return { ready: false, expectedAt, retryAfterMs: UNREACHABLE_RETRY_MS, unreachable: true };
  }

  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.client?.close();
  }
}
