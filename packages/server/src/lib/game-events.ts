import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import type { PgListener } from './listener.ts';

/**
 * Changes of games, across processes (decision 014): a service calls `ctx.events.gameChanged` after
 * a change committed; every process with a display open on that game hears of it. On PostgreSQL a
 * change is `NOTIFY lot_games, '<code>'`, heard on the process's LISTEN connection (`PgListener`;
 * when it drops and comes back, every open display re-reads its game, since a notification may have
 * been missed). PGlite is one process's database: an in-process emitter.
 */

export const GAMES_CHANNEL = 'lot_games';
/** The payload that tells every listener to re-read (after a lost LISTEN connection). */
const EVERY_GAME = Symbol('every game');

type Log = { warn: (object: object, message: string) => void };

export class GameEvents {
  private readonly emitter = new EventEmitter();
  private closed = false;

  /** `listener`: the process's LISTEN connection on PostgreSQL (it hears GAMES_CHANNEL); none on PGlite. */
  constructor(
    private readonly database: Database,
    private readonly listener: PgListener | undefined,
    private readonly log: Log,
  ) {
    this.emitter.setMaxListeners(0);
    listener?.on(GAMES_CHANNEL, (code) => this.emitter.emit(code));
    listener?.onGap(() => this.emitter.emit(EVERY_GAME));
  }

  /** A change of the game with this code committed: tell every process. Never throws. */
  publish(code: string): void {
    if (this.closed) return;
    if (!this.listener) {
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

  close(): void {
    this.closed = true;
    this.emitter.removeAllListeners();
  }
}
