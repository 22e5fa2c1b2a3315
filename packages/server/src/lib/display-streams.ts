import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '@lot/domain/errors';
import type { DisplayTicket, GameProof } from '@lot/domain/schemas/games';
import type { GameEvents } from './game-events.ts';

/**
 * The customer display's live stream (docs/product/game.md#customer-display, decision 014): server-sent
 * events, the first one the game's current public view (the masked proof), then one on every
 * change of the game. Reads are shared per game: one change, one read, written to every stream of
 * that game in this process. A reconnecting EventSource (it retries after `retry` ms by itself and
 * sends Last-Event-ID) gets the current state first, so nothing missed while away is lost. Limits
 * count per client address and per process, with the shop's own (ticketed) displays apart
 * (decision 046).
 */

export const DISPLAY_LIMITS = {
  /** Open anonymous streams from one client address (an IPv6 address counts by its /64), any games. */
  perAddress: 20,
  /** Open anonymous streams in one process. */
  anonymous: 2_000,
  /** Open streams one signed-in caller holds with tickets (the shop's own displays). */
  perOperator: 10,
  /** Open ticketed streams in one process: capacity anonymous streams can never take. */
  signedIn: 1_000,
  /** How long a display ticket may open a stream. */
  ticketSeconds: 60,
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: 15_000,
  /** How soon a browser's EventSource reconnects. */
  retryMs: 1_000,
};

/** Who opens a stream: a client address (anonymous), or a signed-in user through a ticket. */
export type DisplayViewer = { address: string } | { userId: number };

/** A place held in the limits from admission until the stream closes; freed once. */
type Slot = { free: () => void };
type Stream = { raw: ServerResponse; lastId: string | null; slot: Slot };
/** A stream allowed to open: its first view, and whether the game changed since it was read. */
export type Admission = { first: GameProof; changed: () => boolean; release: () => void; slot: Slot };
type Channel = {
  streams: Set<Stream>;
  unsubscribe: () => void;
  reading: boolean;
  again: boolean;
};

/**
 * The address an anonymous stream counts against: IPv4 as is (also when mapped into IPv6), IPv6 by
 * its /64, the block one subscriber usually holds whole.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** A query string's `ticket` is a credential: the request log shows it as `ticket=…`. */
export const withoutTicket = (url: string) => url.replace(/([?&]ticket=)[^&#]*/g, '$1…');

/** The event id: a digest of the view, so an unchanged view is never sent twice to a stream. */
const versionOf = (view: string) => createHash('sha256').update(view).digest('base64url').slice(0, 22);

export class DisplayStreams {
  private readonly channels = new Map<string, Channel>();
  private readonly sockets = new Set<Socket>();
  /** Places held per client address or signed-in user, and in all, per kind. */
  private readonly held = new Map<string, number>();
  private readonly totals = { anonymous: 0, signedIn: 0 };
  private closing = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly ticketKey: Buffer;

  constructor(
    /** A game's public view (the games module's `gameProof`, given by `buildApp`): what a stream shows. */
    private readonly view: (code: string) => Promise<GameProof>,
    private readonly events: GameEvents,
    private readonly log: { warn: (object: object, message: string) => void },
    /** The app's signing secret; tickets are signed with a key derived from it for this use only. */
    secret: string,
  ) {
    this.ticketKey = createHmac('sha256', secret).update('lot display ticket').digest();
    this.heartbeat = setInterval(() => this.beat(), DISPLAY_LIMITS.heartbeatMs);
    this.heartbeat.unref();
  }

  /** True once the server is stopping: refusals then close their connection too. */
  get stopping(): boolean {
    return this.closing;
  }

  /** A ticket for `userId`, who may read game `code`, to open one stream of it within a minute of `now` (ms). */
  ticket(code: string, userId: number, now: number): DisplayTicket {
    const expires = Math.floor(now / 1000) + DISPLAY_LIMITS.ticketSeconds;
    return {
      ticket: `${userId}.${expires}.${this.mac(code, userId, expires).toString('base64url')}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** The user a ticket was given to, when it is this game's, intact and still good at `now` (ms); 401 otherwise. */
  viewerOf(code: string, ticket: string, now: number): DisplayViewer {
    const [user = '', expires = '', mac = ''] = ticket.split('.');
    const userId = /^\d{1,10}$/.test(user) ? Number(user) : NaN;
    const until = /^\d{1,12}$/.test(expires) ? Number(expires) : NaN;
    // Compared as text: base64 decoding ignores the last character's spare bits, the text does not.
    const given = Buffer.from(mac);
    const expected = Number.isNaN(userId + until)
      ? null
      : Buffer.from(this.mac(code, userId, until).toString('base64url'));
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, expected) || until * 1000 < now) {
      throw new AppError('UNAUTHORIZED', SERVER_MESSAGES.displayTicketExpired);
    }
    return { userId };
  }

  private mac(code: string, userId: number, expires: number): Buffer {
    return createHmac('sha256', this.ticketKey).update(`${code}\n${userId}\n${expires}`).digest();
  }

  /**
   * Holds a place for a stream of `viewer` within the limits (429 as JSON otherwise), before anything
   * is read; the place is freed when the stream closes, or here when the admission fails.
   */
  private hold(viewer: DisplayViewer): Slot {
    const signedIn = 'userId' in viewer;
    const key = signedIn ? `user ${viewer.userId}` : `address ${addressKey(viewer.address)}`;
    const held = this.held.get(key) ?? 0;
    const total = signedIn ? this.totals.signedIn : this.totals.anonymous;
    if (held >= (signedIn ? DISPLAY_LIMITS.perOperator : DISPLAY_LIMITS.perAddress)) {
      throw new AppError(
        'RATE_LIMITED',
        signedIn ? 'You have too many customer displays open' : 'Too many displays are open from this address',
        { retryAfter: 5 },
      );
    }
    if (total >= (signedIn ? DISPLAY_LIMITS.signedIn : DISPLAY_LIMITS.anonymous)) {
      throw new AppError('RATE_LIMITED', SERVER_MESSAGES.tooManyDisplays, { retryAfter: 5 });
    }
    this.held.set(key, held + 1);
    if (signedIn) this.totals.signedIn++;
    else this.totals.anonymous++;
    let freed = false;
    return {
      free: () => {
        if (freed || this.closing) return;
        freed = true;
        const left = (this.held.get(key) ?? 1) - 1;
        if (left > 0) this.held.set(key, left);
        else this.held.delete(key);
        if (signedIn) this.totals.signedIn--;
        else this.totals.anonymous--;
      },
    };
  }

  /**
   * Checks that a stream may open (429 otherwise, as JSON, before reading anything) and that the
   * game exists (404); answers the first view, to be written once the response is an event stream.
   * It listens to the game before it reads it: a change committed while the view is read, or before
   * `open`, is not lost (the stream re-reads once it is open). Anonymous viewers and ticketed ones
   * count against separate limits (decision 046), so anonymous streams never take a shop's own.
   */
  async admit(code: string, viewer: DisplayViewer): Promise<Admission> {
    if (this.closing) throw new AppError('RATE_LIMITED', SERVER_MESSAGES.serverStopping, { retryAfter: 1 });
    const slot = this.hold(viewer);
    let changed = false;
    const release = this.events.subscribe(code, () => {
      changed = true;
    });
    try {
      const first = await this.view(code);
      return { first, changed: () => changed, release, slot };
    } catch (error) {
      release();
      slot.free();
      throw error;
    }
  }

  /** Turns the response into the game's event stream, starting with `first`. */
  open(code: string, raw: ServerResponse, headers: Record<string, string>, admission: Admission): void {
    if (raw.destroyed) {
      // The client left while the view was read: its place is free again.
      admission.release();
      admission.slot.free();
      return;
    }
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
    const stream: Stream = { raw, lastId: null, slot: admission.slot };
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
    const joined = channel;
    // From here the channel hears every change; one heard since admit means the first view may be old.
    admission.release();
    if (admission.changed()) void this.refresh(code, joined);
    raw.on('close', () => {
      stream.slot.free();
      if (!joined.streams.delete(stream)) return;
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
    this.held.clear();
    this.totals.anonymous = 0;
    this.totals.signedIn = 0;
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
        const view = JSON.stringify(await this.view(code));
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

/** The streams as the context holds them (`ctx.displays`, decision 070). */
export type Displays = Pick<DisplayStreams, 'stopping' | 'ticket' | 'viewerOf' | 'admit' | 'open' | 'closeAll'>;

const noStream = () => {
  throw new Error('a command-line tool has no customer displays');
};

/** A command's context serves no display. */
export const noDisplays: Displays = {
  stopping: true,
  ticket: noStream,
  viewerOf: noStream,
  admit: () => Promise.reject(new Error('a command-line tool has no customer displays')),
  open: noStream,
  closeAll: () => {},
};
