import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
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
 * count per client network, per game and per process, with the shop's own (ticketed) displays apart
 * (decisions 046 and 088). An anonymous stream lasts a while and ends with the game: the server asks
 * its browser to open a new one (`renew`), or to stop (`end`).
 */

export const DISPLAY_LIMITS = {
  /** Open anonymous streams from one client network (`addressKey`: an IPv4 /24, an IPv6 /56), any games. */
  perAddress: 20,
  /** Open anonymous streams of one game. */
  perGame: 200,
  /** Open anonymous streams in one process, past which only a game holding fewer than `gameFloor` admits one. */
  anonymous: 2_000,
  /** Anonymous streams every game may open however many the process holds: a flood elsewhere never shuts it out. */
  gameFloor: 20,
  /** How long an anonymous stream lasts before the server asks its browser for a new one. */
  lifetimeMs: 10 * 60_000,
  /** Up to this much more, at random, so streams opened together are not renewed together. */
  lifetimeJitterMs: 60_000,
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
type Slot = { free: () => void; anonymous: boolean };
type Stream = { raw: ServerResponse; lastId: string | null; slot: Slot };
/** A game's public view, read once, as written to its streams. */
type View = { proof: GameProof; text: string };
/** A stream allowed to open: its first view, and whether the game changed since it was read. */
export type Admission = { first: GameProof; changed: () => boolean; release: () => void; slot: Slot };
type Channel = {
  streams: Set<Stream>;
  /** The view last read for the streams: what a new stream starts with while no change is being read. */
  latest: View | null;
  unsubscribe: () => void;
  reading: boolean;
  again: boolean;
};

/** IPv4 ranges that only a shop's own network reaches (RFC 1918, loopback, link-local). */
const localIpv4 = (a: number, b: number) =>
  a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);

function ipv4Key(octets: number[]): string {
  const [a = 0, b = 0, c = 0] = octets;
  return localIpv4(a, b) ? octets.join('.') : `${a}.${b}.${c}.0/24`;
}

/** An IPv6 address's eight 16-bit groups (a dotted IPv4 tail and a zone allowed), or null when it is none. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const left = groups(halves[0]);
  const right = groups(halves[1]);
  const zeros = halves.length === 2 ? 8 - left.length - right.length : 0;
  const all = [...left, ...Array<string>(Math.max(zeros, 0)).fill('0'), ...right];
  if (all.length !== 8 || (halves.length === 2 && zeros < 1) || !all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) {
    return null;
  }
  return all.map((group) => parseInt(group, 16));
}

/**
 * What an anonymous stream counts against (decision 088): the network one subscriber usually holds
 * whole, an IPv4 /24 (`203.0.113.0/24`, also for an IPv4 address mapped into IPv6) or an IPv6 /56
 * (`2001:db8:1:200::/56`), so that one party cannot multiply its places by the addresses of its own
 * block. An address only a shop's own network reaches (IPv4 10/8, 172.16/12, 192.168/16, 127/8,
 * 169.254/16; IPv6 ::1, fc00::/7, fe80::/10) counts by itself: there one address is one screen or
 * phone in the shop. Anything else (not an address at all) counts as the text it is.
 */
export function addressKey(address: string): string {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4) return ipv4Key(v4.slice(1).map(Number));
  const groups = ipv6Groups(address);
  if (!groups) return address;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, , g5 = 0, g6 = 0, g7 = 0] = groups;
  if (groups.slice(0, 5).every((g) => g === 0) && g5 === 0xffff) {
    return ipv4Key([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  }
  const loopback = groups.slice(0, 7).every((g) => g === 0) && g7 === 1;
  if (loopback || (g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfe80) {
    return groups.map((g) => g.toString(16)).join(':');
  }
  return `${[g0, g1, g2, g3 & 0xff00].map((g) => g.toString(16)).join(':')}::/56`;
}

/** A query string's `ticket` is a credential: the request log shows it as `ticket=…`. */
export const withoutTicket = (url: string) => url.replace(/([?&]ticket=)[^&#]*/g, '$1…');

/** The event id: a digest of the view, so an unchanged view is never sent twice to a stream. */
const versionOf = (view: string) => createHash('sha256').update(view).digest('base64url').slice(0, 22);

/** A game that can no longer change its draws: its anonymous streams end after its last view. */
const ended = (proof: GameProof) =>
  proof.status === 'settled' || proof.status === 'voided' || proof.status === 'discarded';

export class DisplayStreams {
  private readonly channels = new Map<string, Channel>();
  /** A game's view being read for admissions, shared by those that come while no change was heard. */
  private readonly reads = new Map<string, { view: Promise<GameProof>; stale: boolean }>();
  private readonly sockets = new Set<Socket>();
  /** Places held per client network, game (anonymous) or signed-in user, and in all, per kind. */
  private readonly held = new Map<string, number>();
  private readonly totals = { anonymous: 0, signedIn: 0 };
  private closing = false;
  private heartbeat: NodeJS.Timeout;
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
    this.heartbeat = this.nextBeat();
  }

  /** The next heartbeat, `DISPLAY_LIMITS.heartbeatMs` as it is then (a test may change it). */
  private nextBeat(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      if (this.closing) return;
      this.beat();
      this.heartbeat = this.nextBeat();
    }, DISPLAY_LIMITS.heartbeatMs);
    timer.unref();
    return timer;
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
   * Holds a place for a stream of `viewer` on game `code` within the limits (429 as JSON otherwise),
   * before anything is read; the place is freed when the stream closes, or here when the admission
   * fails. A ticketed stream counts only against its user's and the signed-in displays' own room.
   */
  private hold(code: string, viewer: DisplayViewer): Slot {
    const count = (key: string) => this.held.get(key) ?? 0;
    let keys: string[];
    if ('userId' in viewer) {
      const user = `user ${viewer.userId}`;
      keys = [user];
      if (count(user) >= DISPLAY_LIMITS.perOperator) {
        throw new AppError('RATE_LIMITED', SERVER_MESSAGES.tooManyOwnDisplays, { retryAfter: 5 });
      }
      if (this.totals.signedIn >= DISPLAY_LIMITS.signedIn) {
        throw new AppError('RATE_LIMITED', SERVER_MESSAGES.tooManyDisplays, { retryAfter: 5 });
      }
    } else {
      const address = `address ${addressKey(viewer.address)}`;
      const game = `game ${code}`;
      keys = [address, game];
      if (count(address) >= DISPLAY_LIMITS.perAddress) {
        throw new AppError('RATE_LIMITED', SERVER_MESSAGES.tooManyDisplaysFromAddress, { retryAfter: 5 });
      }
      const ofGame = count(game);
      if (ofGame >= DISPLAY_LIMITS.perGame) {
        throw new AppError('RATE_LIMITED', SERVER_MESSAGES.tooManyDisplaysOfGame, { retryAfter: 5 });
      }
      if (this.totals.anonymous >= DISPLAY_LIMITS.anonymous && ofGame >= DISPLAY_LIMITS.gameFloor) {
        throw new AppError('RATE_LIMITED', SERVER_MESSAGES.tooManyDisplays, { retryAfter: 5 });
      }
    }
    const anonymous = !('userId' in viewer);
    const kind = anonymous ? 'anonymous' : 'signedIn';
    for (const key of keys) this.held.set(key, count(key) + 1);
    this.totals[kind]++;
    let freed = false;
    return {
      anonymous,
      free: () => {
        if (freed || this.closing) return;
        freed = true;
        for (const key of keys) {
          const left = count(key) - 1;
          if (left > 0) this.held.set(key, left);
          else this.held.delete(key);
        }
        this.totals[kind]--;
      },
    };
  }

  /**
   * Checks that a stream may open (429 otherwise, as JSON, before reading anything) and that the
   * game exists (404); answers the first view, to be written once the response is an event stream.
   * It listens to the game before it reads it: a change committed while the view is read, or before
   * `open`, is not lost (the stream re-reads once it is open). A game this process already streams,
   * with no change being read, is not read again: its streams' latest view is current. Anonymous
   * viewers and ticketed ones count against separate limits (decision 046), so anonymous streams
   * never take a shop's own.
   */
  async admit(code: string, viewer: DisplayViewer): Promise<Admission> {
    if (this.closing) throw new AppError('RATE_LIMITED', SERVER_MESSAGES.serverStopping, { retryAfter: 1 });
    const slot = this.hold(code, viewer);
    let changed = false;
    const release = this.events.subscribe(code, () => {
      changed = true;
    });
    try {
      const channel = this.channels.get(code);
      const known = channel && !channel.reading ? channel.latest : null;
      const first = known ? known.proof : await this.read(code);
      return { first, changed: () => changed, release, slot };
    } catch (error) {
      release();
      slot.free();
      throw error;
    }
  }

  /**
   * A game's view for an admission. Admissions that come while one is read share it, unless a change
   * was heard since it started: then a change it may have missed was heard by them too, or is
   * still to come and will be (each admission listens before it asks), so a flood of viewers of one
   * game costs one read, not one each.
   */
  private async read(code: string): Promise<GameProof> {
    const shared = this.reads.get(code);
    if (shared && !shared.stale) return shared.view;
    const heard = { stale: false };
    const unsubscribe = this.events.subscribe(code, () => {
      heard.stale = true;
    });
    const read = Object.assign(heard, { view: this.view(code) });
    this.reads.set(code, read);
    try {
      return await read.view;
    } finally {
      unsubscribe();
      if (this.reads.get(code) === read) this.reads.delete(code);
    }
  }

  /**
   * Turns the response into the game's event stream, starting with `first`. An anonymous stream ends
   * after its lifetime with a `renew` event (the display opens a new one at once), and after the view
   * of an ended game with an `end` event (the display stops asking).
   */
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
    const first: View = { proof: admission.first, text: JSON.stringify(admission.first) };
    this.send(stream, first);
    if (raw.writableEnded) {
      // An ended game's anonymous stream: its one view written, the place is free again.
      admission.release();
      admission.slot.free();
      return;
    }
    let channel = this.channels.get(code);
    if (!channel) {
      const created: Channel = {
        streams: new Set(),
        latest: first,
        unsubscribe: () => undefined,
        reading: false,
        again: false,
      };
      created.unsubscribe = this.events.subscribe(code, () => void this.refresh(code, created));
      this.channels.set(code, created);
      channel = created;
    }
    channel.streams.add(stream);
    const joined = channel;
    // From here the channel hears every change; one heard since admit means the first view may be old.
    admission.release();
    if (admission.changed()) void this.refresh(code, joined);
    const lifetime = stream.slot.anonymous
      ? setTimeout(
          () => this.finish(stream, 'renew'),
          DISPLAY_LIMITS.lifetimeMs + randomInt(DISPLAY_LIMITS.lifetimeJitterMs + 1),
        )
      : undefined;
    lifetime?.unref();
    raw.on('close', () => {
      clearTimeout(lifetime);
      stream.slot.free();
      if (!joined.streams.delete(stream)) return;
      if (joined.streams.size === 0 && this.channels.get(code) === joined) {
        joined.unsubscribe();
        this.channels.delete(code);
      }
    });
  }

  /**
   * Ends a stream with an event that tells the display why: `renew` (its lifetime is over: open a new
   * stream now) or `end` (the game ended: nothing more will come). A browser that does not know the
   * event reconnects by itself, after `retry`: at once for `renew`, not for an hour for `end`.
   */
  private finish(stream: Stream, why: 'renew' | 'end'): void {
    if (stream.raw.writableEnded) return;
    stream.raw.end(why === 'end' ? `retry: 3600000\nevent: end\ndata: 1\n\n` : `event: renew\ndata: 1\n\n`);
  }

  /** Ends every stream (the server is stopping): browsers reconnect to another process or later. */
  closeAll(): void {
    this.closing = true;
    clearTimeout(this.heartbeat);
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
        const proof = await this.view(code);
        const view: View = { proof, text: JSON.stringify(proof) };
        channel.latest = view;
        for (const stream of channel.streams) this.send(stream, view);
      } while (channel.again && channel.streams.size > 0);
    } catch (error) {
      this.log.warn({ err: error }, 'display refresh failed');
    } finally {
      channel.reading = false;
    }
  }

  /** Writes a view the stream has not seen; an anonymous stream of an ended game ends after it. */
  private send(stream: Stream, view: View): void {
    const id = versionOf(view.text);
    if (stream.raw.writableEnded) return;
    if (id !== stream.lastId) {
      stream.lastId = id;
      stream.raw.write(`id: ${id}\nevent: game\ndata: ${view.text}\n\n`);
    }
    if (stream.slot.anonymous && ended(view.proof)) this.finish(stream, 'end');
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
