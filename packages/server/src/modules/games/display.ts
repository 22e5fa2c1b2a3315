import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '@lot/domain/errors';
import type { GameProof } from '@lot/domain/schemas/games';
import type { GameEvents } from './game-events.ts';
import { gameProof, type GamesContext } from './games.service.ts';

/**
 * The customer display's live stream (docs/product/game.md#customer-display, decision 014): server-sent
 * events, the first one the game's current public view (the masked proof), then one on every
 * change of the game. Reads are shared per game: one change, one read, written to every stream of
 * that game in this process. A reconnecting EventSource (it retries after `retry` ms by itself and
 * sends Last-Event-ID) gets the current state first, so nothing missed while away is lost.
 */

export const DISPLAY_LIMITS = {
  /** Open streams per game in one process. */
  perGame: 20,
  /** Open streams in one process. */
  total: 2_000,
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: 15_000,
  /** How soon a browser's EventSource reconnects. */
  retryMs: 1_000,
};

type Stream = { raw: ServerResponse; lastId: string | null };
/** A stream allowed to open: its first view, and whether the game changed since it was read. */
export type Admission = { first: GameProof; changed: () => boolean; release: () => void };
type Channel = {
  streams: Set<Stream>;
  unsubscribe: () => void;
  reading: boolean;
  again: boolean;
};

/** The event id: a digest of the view, so an unchanged view is never sent twice to a stream. */
const versionOf = (view: string) => createHash('sha256').update(view).digest('base64url').slice(0, 22);

export class DisplayStreams {
  private readonly channels = new Map<string, Channel>();
  private readonly sockets = new Set<Socket>();
  private total = 0;
  private closing = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly games: GamesContext,
    private readonly events: GameEvents,
    private readonly log: { warn: (object: object, message: string) => void },
  ) {
    this.heartbeat = setInterval(() => this.beat(), DISPLAY_LIMITS.heartbeatMs);
    this.heartbeat.unref();
  }

  /** True once the server is stopping: refusals then close their connection too. */
  get stopping(): boolean {
    return this.closing;
  }

  /**
   * Checks that the game exists and a stream may open (404, 429 otherwise, as JSON); answers the
   * first view, to be written once the response is an event stream. It listens to the game before
   * it reads it: a change committed while the view is read, or before `open`, is not lost (the
   * stream re-reads once it is open).
   */
  async admit(code: string): Promise<Admission> {
    if (this.closing) throw new AppError('RATE_LIMITED', 'The server is stopping', { retryAfter: 1 });
    let changed = false;
    const release = this.events.subscribe(code, () => {
      changed = true;
    });
    try {
      const first = await gameProof(this.games, code);
      const open = this.channels.get(code)?.streams.size ?? 0;
      if (open >= DISPLAY_LIMITS.perGame || this.total >= DISPLAY_LIMITS.total) {
        throw new AppError('RATE_LIMITED', 'Too many displays follow this game', { retryAfter: 5 });
      }
      return { first, changed: () => changed, release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Turns the response into the game's event stream, starting with `first`. */
  open(code: string, raw: ServerResponse, headers: Record<string, string>, admission: Admission): void {
    raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      // The socket closes with the stream, so a stopping server never waits on it as idle keep-alive.
      connection: 'close',
    });
    raw.flushHeaders();
    raw.write(`retry: ${DISPLAY_LIMITS.retryMs}\n\n`);
    const stream: Stream = { raw, lastId: null };
    const socket = raw.socket;
    if (socket) {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    }
    this.send(stream, JSON.stringify(admission.first));
    let channel = this.channels.get(code);
    if (!channel) {
      const created: Channel = { streams: new Set(), unsubscribe: () => undefined, reading: false, again: false };
      created.unsubscribe = this.events.subscribe(code, () => void this.refresh(code, created));
      this.channels.set(code, created);
      channel = created;
    }
    channel.streams.add(stream);
    this.total++;
    const joined = channel;
    // From here the channel hears every change; one heard since admit means the first view may be old.
    admission.release();
    if (admission.changed()) void this.refresh(code, joined);
    raw.on('close', () => {
      if (!joined.streams.delete(stream)) return;
      this.total--;
      if (joined.streams.size === 0 && this.channels.get(code) === joined) {
        joined.unsubscribe();
        this.channels.delete(code);
      }
    });
  }

  /** Ends every stream (the server is stopping): browsers reconnect to another process or later. */
  closeAll(): void {
    this.closing = true;
    clearInterval(this.heartbeat);
    for (const channel of this.channels.values()) {
      channel.unsubscribe();
      for (const stream of channel.streams) stream.raw.end();
    }
    this.channels.clear();
    this.total = 0;
    // A socket that carried a stream is closed too, even when its client no longer answers (a
    // half-closed socket would hold the server's close until a timeout).
    setTimeout(() => {
      for (const socket of this.sockets) socket.destroy();
    }, 50).unref();
  }

  /** Re-reads a game after a change and writes its view to every stream that has not seen it. */
  private async refresh(code: string, channel: Channel): Promise<void> {
    if (channel.reading) {
      channel.again = true;
      return;
    }
    channel.reading = true;
    try {
      do {
        channel.again = false;
        const view = JSON.stringify(await gameProof(this.games, code));
        for (const stream of channel.streams) this.send(stream, view);
      } while (channel.again && channel.streams.size > 0);
    } catch (error) {
      this.log.warn({ err: error }, 'display refresh failed');
    } finally {
      channel.reading = false;
    }
  }

  private send(stream: Stream, view: string): void {
    const id = versionOf(view);
    if (id === stream.lastId || stream.raw.writableEnded) return;
    stream.lastId = id;
    stream.raw.write(`id: ${id}\nevent: game\ndata: ${view}\n\n`);
  }

  /**
   * An event rather than a comment line: it keeps proxies from closing the stream, and the browser
   * sees it too, so a display that hears nothing for a while knows its connection went silent.
   */
  private beat(): void {
    for (const channel of this.channels.values()) {
      for (const stream of channel.streams) if (!stream.raw.writableEnded) stream.raw.write('event: ping\ndata: 1\n\n');
    }
  }
}
