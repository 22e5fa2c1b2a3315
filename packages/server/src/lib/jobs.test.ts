import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { periodic, runWithApp, type Job } from './jobs.ts';

/** The app's background jobs (decision 070): started when the app is ready, stopped when it closes. */
describe('background jobs', () => {
  it('start when the app is ready, not before, and stop when it closes, the last started first', async () => {
    const seen: string[] = [];
    const job = (name: string): Job => ({
      name,
      start: () => seen.push(`start ${name}`),
      stop: async () => {
        seen.push(`stop ${name}`);
      },
    });
    const app = Fastify();
    runWithApp(app, [job('sweep'), job('beacon')]);
    expect(seen).toEqual([]);
    await app.ready();
    expect(seen).toEqual(['start sweep', 'start beacon']);
    await app.close();
    expect(seen).toEqual(['start sweep', 'start beacon', 'stop beacon', 'stop sweep']);
  });

  it('a periodic job logs a failed run and goes on, never runs twice at once, and its stop waits for the run in flight', async () => {
    vi.useFakeTimers();
    try {
      const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
      let runs = 0;
      let release = () => {};
      const job = periodic(
        'probe',
        1_000,
        () => {
          runs++;
          if (runs === 1) return Promise.reject(new Error('the database is away'));
          return new Promise<void>((resolve) => (release = resolve));
        },
        log,
      );
      job.start();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'probe failed');
      await vi.advanceTimersByTimeAsync(5_000);
      expect(runs).toBe(2); // the second run still runs: no third
      let stopped = false;
      const stopping = Promise.resolve(job.stop()).then(() => (stopped = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped).toBe(false);
      release();
      await stopping;
      await vi.advanceTimersByTimeAsync(5_000);
      expect(runs).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
