/**
 * A minimal EventSource for tests (Node has none): reads `text/event-stream` with fetch, keeps every
 * event, and reconnects as a browser does — after the stream's `retry` delay, sending Last-Event-ID.
 */

export type SseEvent = { id: string | undefined; event: string; data: string; at: number };

export class SseClient {
  readonly events: SseEvent[] = [];
  connections = 0;
  /** Status and content type of the last connection attempt. */
  lastStatus = 0;
  lastContentType = '';
  private lastId: string | undefined;
  private retryMs = 1_000;
  private closed = false;
  private readonly controller = new AbortController();
  private waiters: (() => void)[] = [];

  constructor(private readonly url: string) {
    void this.loop();
  }

  /** The first event from index `from` on that satisfies `match`, waiting up to `timeoutMs`. */
  async waitFor(match: (event: SseEvent) => boolean, timeoutMs = 5_000, from = 0): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event in ${timeoutMs} ms; got ${this.events.length} events`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.closed = true;
    this.controller.abort();
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      try {
        const response = await fetch(this.url, {
          headers: { accept: 'text/event-stream', ...(this.lastId && { 'last-event-id': this.lastId }) },
          signal: this.controller.signal,
        });
        this.lastStatus = response.status;
        this.lastContentType = response.headers.get('content-type') ?? '';
        if (response.status === 200 && response.body) {
          this.connections++;
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              this.block(buffer.slice(0, end));
              buffer = buffer.slice(end + 2);
            }
          }
        } else {
          await response.body?.cancel();
        }
      } catch {
        // a refused connection or a dropped stream: try again, as a browser does
      }
      if (!this.closed) await new Promise((resolve) => setTimeout(resolve, this.retryMs));
    }
  }

  private block(text: string): void {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of text.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
      else if (field === 'retry') this.retryMs = Number(value);
    }
    if (data.length === 0) return;
    if (id !== undefined) this.lastId = id;
    this.events.push({ id, event, data: data.join('\n'), at: Date.now() });
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
