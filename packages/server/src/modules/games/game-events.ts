import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Database, Db } from '../../db/client.ts';

/**
 * Changes of games, across processes (decision 014): the games service calls `gameChanged` after a
 * change committed; every process with a display open on that game hears of it. On PostgreSQL a
 * change is `NOTIFY lot_games, '<code>'` and each process keeps one dedicated LISTEN connection
 * (reconnected with backoff when it drops; then every open display re-reads its game, since a
 * notification may have been missed). PGlite is one process's database: an in-process emitter.
 */

export const GAMES_CHANNEL = 'lot_games';
/** The payload that tells every listener to re-read (after a lost LISTEN connection). */
const EVERY_GAME = Symbol('every game');

type Log = { warn: (object: object, message: string) => void };

export class GameEvents {
  private readonly emitter = new EventEmitter();
  private client: pg.Client | null = null;
  private connectedOnce = false;
  private closed = false;
  private retryDelay = 100;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Database,
    private readonly log: Log,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Starts listening (PostgreSQL); resolves once the first LISTEN is in place or has been retried. */
  async start(): Promise<void> {
    if (this.database.newClient) await this.connect();
  }

  /** A change of the game with this code committed: tell every process. Never throws. */
  publish(code: string): void {
    if (this.closed) return;
    if (!this.database.newClient) {
      queueMicrotask(() => this.emitter.emit(code));
      return;
    }
    this.database.db
      .execute(sql`SELECT pg_notify(${GAMES_CHANNEL}, ${code})`)
      .catch((error: unknown) => this.log.warn({ err: error }, 'game change not published'));
  }

  /** Calls `listener` on every change of the game (and after a lost connection); answers the unsubscribe. */
  subscribe(code: string, listener: () => void): () => void {
    this.emitter.on(code, listener);
    this.emitter.on(EVERY_GAME, listener);
    return () => {
      this.emitter.off(code, listener);
      this.emitter.off(EVERY_GAME, listener);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.emitter.removeAllListeners();
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const newClient = this.database.newClient;
    if (!newClient || this.closed) return;
    const client = newClient();
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
      this.retry();
    };
    client.on('error', (error) => {
      if (!this.closed) this.log.warn({ err: error }, 'game changes: LISTEN connection lost');
      onLost();
    });
    client.on('end', onLost);
    client.on('notification', (message) => {
      if (message.channel === GAMES_CHANNEL && message.payload) this.emitter.emit(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${GAMES_CHANNEL}`);
    } catch (error) {
      if (!this.closed) this.log.warn({ err: error }, 'game changes: LISTEN failed, retrying');
      onLost();
      return;
    }
    if (this.closed || lost) {
      lost = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelay = 100;
    if (this.connectedOnce) this.emitter.emit(EVERY_GAME);
    this.connectedOnce = true;
  }

  private retry(): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const delay = this.retryDelay;
    this.retryDelay = Math.min(delay * 2, 5_000);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }
}

const publishers = new WeakMap<Db, GameEvents>();

/** Binds a database to the process's game events (buildApp does it once per app). */
export function bindGameEvents(db: Db, events: GameEvents): void {
  publishers.set(db, events);
}

export function unbindGameEvents(db: Db, events: GameEvents): void {
  if (publishers.get(db) === events) publishers.delete(db);
}

/** The games service's publish hook: after a change of the game `code` committed. */
export function gameChanged(db: Db, code: string): void {
  publishers.get(db)?.publish(code);
}
