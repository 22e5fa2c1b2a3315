import { useEffect, useState } from 'react';
import { displayTicketSchema, gameProofSchema, type GameProof } from '@lot/domain/schemas/games';
import { API_BASE } from '../../../lib/config.ts';
import { storage } from '../../../lib/storage.ts';

/**
 * connecting: before the first event; live: the stream is open; reconnecting: it dropped; missing: no
 * such game; ended: the server ended an anonymous stream with the game, nothing more will come.
 */
export type StreamConnection = 'connecting' | 'live' | 'reconnecting' | 'missing' | 'ended';

/** Waits after a stream that ended for good, doubling from 1 s up to 10 s (docs/product/game.md#customer-display). */
export const RECONNECT_DELAYS_MS = { first: 1_000, most: 10_000 };

/**
 * The server sends a `ping` every 15 s; a stream silent for three of them is dead although the
 * browser still thinks it open (a sleeping Wi-Fi, a proxy that dropped it quietly): it is
 * replaced (docs/product/game.md#customer-display).
 */
export const SILENCE_LIMIT_MS = 45_000;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * In a browser where someone is signed in (the shop's own display, opened from its play screen),
 * a ticket for this game, so its stream counts against the signed-in displays' own limit and no
 * number of anonymous streams keeps it out (decision 046). Asked for before every new stream: a
 * ticket only opens a stream for a minute. Without a session, or when the session may not read the
 * game, the stream opens without one.
 */
async function displayTicket(path: string, token: string): Promise<string | null> {
  try {
    const response = await fetch(`${API_BASE}/api/display/${path}/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      cache: 'no-store',
    });
    if (!response.ok) return null;
    const parsed = displayTicketSchema.safeParse(await response.json());
    return parsed.success ? parsed.data.ticket : null;
  } catch {
    return null;
  }
}

/**
 * A game followed live through `GET /api/display/{code}/events` (server-sent events, decision 014).
 * The browser's EventSource reconnects by itself while the server answers; when it gives up
 * (CLOSED: an error status, such as a proxy's 502 while the server is down, or a 429), the stream is
 * recreated with backoff until it is back. A game the server does not know (404) ends the attempts.
 * An anonymous stream lasts a while: the server ends it with `renew`, and a new one opens at once,
 * the screen still `Live` (decision 088). After an ended game's last view it says `end`: the page
 * stops asking.
 */
export function useGameStream(code: string): { proof: GameProof | null; connection: StreamConnection } {
  const [proof, setProof] = useState<GameProof | null>(null);
  const [connection, setConnection] = useState<StreamConnection>('connecting');

  useEffect(() => {
    const path = encodeURIComponent(code);
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    let missing = false;
    let ended = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;

    /** Restarted by every event; when it fires, the silent stream is closed and a new one opened. */
    const watch = (current: EventSource) => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        if (stopped || source !== current) return;
        current.close();
        setConnection((now) => (now === 'missing' ? now : 'reconnecting'));
        connect();
      }, SILENCE_LIMIT_MS);
    };

    const connect = () => {
      if (stopped) return;
      const token = storage.getToken();
      if (token === null) open(null);
      else void displayTicket(path, token).then((ticket) => !stopped && open(ticket));
    };

    const open = (ticket: string | null) => {
      const query = ticket === null ? '' : `?ticket=${encodeURIComponent(ticket)}`;
      const current = new EventSource(`${API_BASE}/api/display/${path}/events${query}`);
      source = current;
      watch(current);
      current.addEventListener('ping', () => watch(current));
      // Live once the current view has arrived: every new stream starts with it.
      current.addEventListener('game', (event) => {
        const parsed = gameProofSchema.safeParse(parseJson((event as MessageEvent<string>).data));
        if (!parsed.success) return;
        failures = 0;
        watch(current);
        setProof(parsed.data);
        setConnection('live');
      });
      // Its lifetime is over: a new stream now, before the browser's own retry would show a gap.
      current.addEventListener('renew', () => {
        if (stopped || source !== current) return;
        current.close();
        clearTimeout(watchdog);
        connect();
      });
      current.addEventListener('end', () => {
        if (stopped || source !== current) return;
        ended = true;
        current.close();
        clearTimeout(watchdog);
        setConnection('ended');
      });
      current.addEventListener('error', () => {
        if (stopped || source !== current) return;
        setConnection((now) => (now === 'missing' ? now : 'reconnecting'));
        // CONNECTING: the browser retries by itself. CLOSED: it gave up (an expired ticket's 401 too),
        // so this page tries again, with a fresh ticket.
        if (current.readyState === EventSource.CLOSED) void retryLater(current);
      });
    };

    const retryLater = async (closed: EventSource) => {
      closed.close();
      // A closed stream is not watched: the next one is, and a missing game gets none.
      clearTimeout(watchdog);
      // The stream answers an unknown code with 404 before it streams; EventSource cannot tell
      // which status ended it, the proof can.
      missing = await fetch(`${API_BASE}/api/verify/${path}`, { cache: 'no-store' }).then(
        (response) => response.status === 404,
        () => false,
      );
      if (stopped || source !== closed) return;
      if (missing) {
        setConnection('missing');
        return;
      }
      const delay = Math.min(RECONNECT_DELAYS_MS.first * 2 ** failures, RECONNECT_DELAYS_MS.most);
      failures++;
      timer = setTimeout(connect, delay);
    };

    // Back online: try at once instead of waiting out the backoff.
    const onOnline = () => {
      if (source?.readyState !== EventSource.CLOSED || stopped || missing || ended) return;
      clearTimeout(timer);
      connect();
    };
    window.addEventListener('online', onOnline);
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(watchdog);
      source?.close();
      window.removeEventListener('online', onOnline);
    };
  }, [code]);

  return { proof, connection };
}
