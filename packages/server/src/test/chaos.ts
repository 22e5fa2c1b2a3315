import { createHash, randomInt } from 'node:crypto';
import { expect, onTestFinished } from 'vitest';
import { formatCents } from '@lot/domain/money';
import { exitOf, type Started } from './server-process.ts';

/**
 * The harness of the chaos suites (suites/cluster.test.ts, suites/race-crash.test.ts): a seeded
 * generator for every random choice, a client that keeps asking until it is answered, the world
 * both build, and the loop that kills a server and starts it again.
 *
 * Replaying a run: each suite prints `CHAOS_SEED=<n>` as it starts; set it to run the same
 * choices again (CHAOS_TRACE=1 prints the operations each actor chose, and a failed run prints
 * them too). A client's n-th operation takes its choices from its own generator, named by the
 * seed, the client and n, so it chooses the same whatever the timing made of the operations
 * before it: two runs of one seed print the same operations for each client, one run's list a
 * prefix of the other's (how many a client gets through depends on the machine).
 */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const MAX_SEED = 0xffff_ffff;

/** CHAOS_SEED when set (a whole number from 0 to 4294967295), else a fresh one. */
export function chaosSeed(env: Record<string, string | undefined> = process.env): number {
  const given = env.CHAOS_SEED?.trim();
  if (!given) return randomInt(0, MAX_SEED);
  if (!/^\d{1,10}$/.test(given) || Number(given) > MAX_SEED)
    throw new Error(`CHAOS_SEED must be a whole number from 0 to ${MAX_SEED}, not "${given}"`);
  return Number(given);
}

/** A generator (mulberry32) whose state comes from the seed and its name alone. */
export class Rng {
  #state: number;

  constructor(
    readonly seed: number,
    readonly name: string,
  ) {
    this.#state = createHash('sha256').update(`${seed}/${name}`).digest().readUInt32BE(0);
  }

  /** The next number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /**
   * A generator of its own for one choice inside an operation (the third attempt at a draw): the
   * same for that name however much of this one was used before.
   */
  fork(name: string): Rng {
    return new Rng(this.seed, `${this.name}/${name}`);
  }
}

/** One run's seed, its generators, and the operations each actor chose, in order. */
export class Chaos {
  readonly seed: number;
  readonly #operations = new Map<string, string[]>();
  readonly #begun = new Map<string, number>();

  constructor(
    readonly suite: string,
    seed: number = chaosSeed(),
  ) {
    this.seed = seed;
    console.log(`${suite}: CHAOS_SEED=${seed} (set it to replay this run's choices; CHAOS_TRACE=1 prints them)`);
  }

  /** Made inside a test: its report is printed when the test ends, with every operation if it failed. */
  static inTest(suite: string): Chaos {
    const chaos = new Chaos(suite);
    onTestFinished(({ task }) => console.log(chaos.report(task.result?.state === 'fail')));
    return chaos;
  }

  /** A generator for waits and other choices that are not an actor's operations (retry pauses). */
  stream(name: string): Rng {
    return new Rng(this.seed, name);
  }

  /** The generator of `actor`'s next operation (its n-th: the same under one seed, whatever came before). */
  next(actor: string): Rng {
    const n = this.#begun.get(actor) ?? 0;
    this.#begun.set(actor, n + 1);
    return new Rng(this.seed, `${actor}#${n}`);
  }

  /** Records what `actor`'s operation chose, for the trace. */
  chose(actor: string, what: string): void {
    const done = this.#operations.get(actor) ?? [];
    done.push(what);
    this.#operations.set(actor, done);
  }

  /** Every actor's operations in order, one line per actor. */
  trace(): string {
    return [...this.#operations]
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([actor, done]) => `  ${actor}: ${done.map((what, i) => `#${i} ${what}`).join('; ')}`)
      .join('\n');
  }

  /** The seed and how many operations; every one of them when CHAOS_TRACE=1 or the run failed. */
  report(failed: boolean): string {
    const count = [...this.#operations.values()].reduce((sum, done) => sum + done.length, 0);
    const head = `${this.suite}: CHAOS_SEED=${this.seed}, ${count} operations`;
    return failed || process.env.CHAOS_TRACE === '1' ? `${head}:\n${this.trace()}` : head;
  }
}

/** One client's operation in a storm: a transfer, or a whole game. */
export type Operation =
  | { kind: 'transfer'; to: number; cents: number }
  | {
      kind: 'game';
      betCents: number;
      /** The number each entry plays (from 1 to 20). */
      entries: number[];
      /** Once frozen, the agent asks for the draws. */
      byAgent: boolean;
      /** Once frozen, the agent voids it before its round comes. */
      voidWhileWaiting: boolean;
      /** Ended by the agent after its first draw. */
      endAfterFirst: boolean;
    };

export type Storm = {
  players: number;
  maxCents: number;
  entries: [min: number, max: number];
  /** Whether the agent takes part: draws a frozen game, voids one while it waits, ends one after a draw. */
  agent: boolean;
};

/** Player `me`'s operation, from its generator: transfers 6 times in 10, else a game. */
export function chooseOperation(rng: Rng, me: number, storm: Storm): Operation {
  if (rng.chance(0.6)) {
    const others = Array.from({ length: storm.players }, (_, i) => i).filter((i) => i !== me);
    return { kind: 'transfer', to: others[rng.int(0, others.length - 1)] as number, cents: rng.int(1, storm.maxCents) };
  }
  const betCents = rng.int(1, 5) * 100;
  const count = rng.int(...storm.entries);
  return {
    kind: 'game',
    betCents,
    entries: Array.from({ length: count }, (_, i) => rng.int(1, 4) * 5 - i),
    byAgent: storm.agent && rng.chance(0.25),
    voidWhileWaiting: storm.agent && rng.chance(0.1),
    endAfterFirst: storm.agent && rng.chance(0.15),
  };
}

/** An operation as the trace prints it: the same choices print the same words. */
export function describeOperation(op: Operation): string {
  if (op.kind === 'transfer') return `transfer ${formatCents(op.cents)} to player ${op.to}`;
  const also = [
    op.byAgent && 'drawn by the agent',
    op.voidWhileWaiting && 'voided while waiting',
    op.endAfterFirst && 'ended after one draw',
  ].filter(Boolean);
  return `game ${formatCents(op.betCents)} × [${op.entries.join(' ')}]${also.length > 0 ? `, ${also.join(', ')}` : ''}`;
}

export type Answer = { status: number; body: Record<string, unknown>; replayed: boolean };
/** A 5xx answer: LOT's own (JSON with a request id) or the balancer's (its HTML page). */
export type FiveHundred = {
  status: number;
  path: string;
  sentAt: number;
  answeredAt: number;
  fromLot: boolean;
  /** LOT's error code (UNAVAILABLE, INTERNAL…) and message. */
  code?: string;
  message?: string;
};
/** A call that got no answer: its connection broke, was refused, or it timed out. */
export type Lost = {
  method: string;
  path: string;
  base: string;
  sentAt: number;
  failedAt: number;
  cause: string;
  /** The client's end of the broken connection (undici names it): the balancer's log has its port. */
  localPort?: number;
};

/**
 * Calls to a server (or a balancer), each retried by `untilAnswered` as a client would: the same
 * call, with the same Idempotency-Key, until answered below 500, after a pause from `retries`.
 * Every 5xx and every call without an answer is kept, for the suite to account for.
 */
export function chaosClient(base: string, retries: Rng) {
  const fiveHundreds: FiveHundred[] = [];
  const lost: Lost[] = [];

  /** One HTTP call to `to` (the client's base by default); null when no answer came. */
  async function call(
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
    key?: string,
    to = base,
  ): Promise<Answer | null> {
    const sentAt = performance.now();
    try {
      const response = await fetch(`${to}${path}`, {
        method,
        headers: {
          ...(body !== undefined && { 'content-type': 'application/json' }),
          ...(token && { authorization: `Bearer ${token}` }),
          ...(key && { 'idempotency-key': key }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await response.text();
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      if (response.status >= 500)
        fiveHundreds.push({
          status: response.status,
          path,
          sentAt,
          answeredAt: performance.now(),
          fromLot: typeof json?.requestId === 'string',
          code: typeof json?.code === 'string' ? json.code : undefined,
          message: typeof json?.message === 'string' ? json.message : undefined,
        });
      return {
        status: response.status,
        body: json ?? {},
        replayed: response.headers.get('idempotent-replayed') === 'true',
      };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; socket?: { localPort?: number } } }).cause;
      lost.push({
        method,
        path,
        base: to,
        sentAt,
        failedAt: performance.now(),
        cause: cause?.code ?? String(error),
        localPort: cause?.socket?.localPort,
      });
      return null;
    }
  }

  /** A client's persistence: the same call (the same key) until it is answered below 500. */
  async function untilAnswered(
    method: string,
    path: string,
    token: string,
    body?: unknown,
    key?: string,
  ): Promise<Answer> {
    for (;;) {
      const answer = await call(method, path, token, body, key);
      if (answer && answer.status < 500) return answer;
      await sleep(retries.int(20, 150));
    }
  }

  return { call, untilAnswered, fiveHundreds, lost };
}

export type ChaosClient = ReturnType<typeof chaosClient>;
export type ChaosPlayer = { id: number; username: string; token: string };

/**
 * The world of a storm: two global prizes (50 % and 25 %, so a game is in progress between its
 * first and last draw), a super agent, an agent under it, and `players` shops (role user) under
 * the agent with `start` cents each, all signed in. Names start with `prefix`.
 */
export async function chaosWorld(
  client: ChaosClient,
  options: { prefix: string; adminPassword: string; userPassword: string; players: number; start: number },
): Promise<{ admin: string; agent: ChaosPlayer; players: ChaosPlayer[] }> {
  const { prefix, userPassword } = options;
  const { untilAnswered } = client;
  const signin = async (username: string, password: string) =>
    String((await untilAnswered('POST', '/api/auth/signin', '', { username, password })).body.accessToken);
  const admin = await signin('admin', options.adminPassword);
  for (const [position, name, percent] of [
    [1, 'First', '50.00'],
    [2, 'Second', '25.00'],
  ] as const) {
    const winner = await untilAnswered('POST', '/api/winners', admin, {
      name,
      percent,
      position,
      isActive: true,
      userId: null,
    });
    expect(winner.status, JSON.stringify(winner.body)).toBe(201);
  }
  const title = prefix.charAt(0).toUpperCase() + prefix.slice(1);
  const create = async (username: string, fullName: string, role: string, parentId?: unknown) => {
    const created = await untilAnswered('POST', '/api/users', admin, {
      username,
      password: userPassword,
      fullName,
      role,
      ...(parentId !== undefined && { parentId }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return Number(created.body.id);
  };
  const superagent = await create(`${prefix}_super`, `${title} Super`, 'superagent');
  const agentId = await create(`${prefix}_agent`, `${title} Agent`, 'agent', superagent);
  const agent = { id: agentId, username: `${prefix}_agent`, token: await signin(`${prefix}_agent`, userPassword) };
  const players = await Promise.all(
    Array.from({ length: options.players }, async (_, i) => {
      const username = `${prefix}_${i}`;
      const id = await create(username, `${title} ${i}`, 'user', agentId);
      const topup = await untilAnswered(
        'POST',
        '/api/balance/topup',
        admin,
        { userId: id, amount: formatCents(options.start) },
        `start-${id}`,
      );
      expect(topup.status, JSON.stringify(topup.body)).toBe(200);
      return { id, username, token: await signin(username, userPassword) };
    }),
  );
  return { admin, agent, players };
}

/** One kill (or stop): the signal sent, the process gone, its successor listening (ms, performance.now()). */
export type Kill = { index: number; at: number; gone: number; up: number };

/**
 * Kills `servers[i % servers.length]` `count` times with `signal`, one at a time, each after
 * `pause(i)` ms, and starts it again with `start(index)` (which replaces it in `servers`); then
 * waits `pause(count)` ms. Answers each kill's times, for telling calls in flight at a kill.
 */
export async function killLoop(options: {
  servers: Started[];
  count: number;
  signal: 'SIGKILL' | 'SIGTERM';
  pause: (i: number) => number;
  start: (index: number) => Promise<Started>;
  /** After the i-th restart, before the next pause. */
  after?: (i: number) => Promise<void>;
}): Promise<Kill[]> {
  const { servers } = options;
  const kills: Kill[] = [];
  for (let i = 0; i < options.count; i += 1) {
    await sleep(options.pause(i));
    const index = i % servers.length;
    const dying = servers[index] as Started;
    const at = performance.now();
    dying.child.kill(options.signal);
    await exitOf(dying.child);
    const gone = performance.now();
    servers[index] = await options.start(index);
    kills.push({ index, at, gone, up: performance.now() });
    await options.after?.(i);
  }
  await sleep(options.pause(options.count));
  return kills;
}

/**
 * Whether a call without an answer is explained by a kill: sent before the process was gone
 * (`until: 'gone'`: behind a balancer, which sends later calls to the other processes) or before
 * its successor listened (`'up'`: one process, refused until then), and failed after the signal.
 */
export function lostToKill(call: Lost, kills: Kill[], until: 'gone' | 'up'): boolean {
  return kills.some((kill) => call.sentAt <= kill[until] && call.failedAt >= kill.at);
}
