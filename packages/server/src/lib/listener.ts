import type pg from 'pg';

type Log = { warn: (object: object, message: string) => void };

/**
 * One process's LISTEN connection to PostgreSQL over several channels (decisions 014 and 025): a
 * dedicated client outside the pool, reconnected with backoff when it drops. While it is down a
 * notification may be missed, so `onGap` listeners hear when the connection is lost and again once
 * it is back: what they hold from notifications must be thrown away or read again.
 */
export class PgListener {
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private readonly gapHandlers = new Set<() => void>();
  private client: pg.Client | null = null;
  private closed = false;
  private retryDelay = 100;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly newClient: () => pg.Client,
    private readonly channels: readonly string[],
    private readonly log: Log,
  ) {}

  /** Whether notifications are being heard now (a notification sent meanwhile reaches `on`). */
  get live(): boolean {
    return this.client !== null;
  }

  /** Resolves once the first LISTEN is in place or has failed (then it retries in the background). */
  start(): Promise<void> {
    return this.connect();
  }

  on(channel: string, handler: (payload: string) => void): () => void {
    const set = this.handlers.get(channel) ?? new Set();
    this.handlers.set(channel, set.add(handler));
    return () => set.delete(handler);
  }

  onGap(handler: () => void): () => void {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    this.handlers.clear();
    this.gapHandlers.clear();
    await client?.end().catch(() => undefined);
  }

  private gap(): void {
    for (const handler of this.gapHandlers) handler();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = this.newClient();
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.client === client) {
        this.client = null;
        this.gap();
      }
      client.end().catch(() => undefined);
      this.retry();
    };
    client.on('error', (error) => {
      if (!this.closed) this.log.warn({ err: error }, 'LISTEN connection lost');
      onLost();
    });
    client.on('end', onLost);
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload);
    });
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      if (!this.closed) this.log.warn({ err: error }, 'LISTEN failed, retrying');
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
    this.gap();
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
