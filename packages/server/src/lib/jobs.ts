import type { FastifyInstance } from 'fastify';
import type { Log } from './context.ts';

/**
 * The app's background jobs (docs/ARCHITECTURE.md#background-jobs, decision 070): `buildApp` lists
 * them in one place, starts them when the app is ready and stops them when it closes, before the
 * database goes. Nothing else starts work that outlives a request: no routes file, no `main.ts`.
 */
export type Job = {
  /** What the log calls it. */
  name: string;
  start: () => void;
  /** Stops it; resolves once a run in flight has finished. */
  stop: () => Promise<void> | void;
};

/**
 * A job that runs `run` every `everyMs` while the app runs, never two runs at once. A run that
 * fails (the database away for a moment) is logged and the next one tried on time.
 */
export function periodic(name: string, everyMs: number, run: () => Promise<unknown>, log: Log): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  return {
    name,
    start: () => {
      timer = setInterval(() => {
        if (running) return;
        running = run()
          .catch((error: unknown) => log.error({ err: error }, `${name} failed`))
          .finally(() => {
            running = undefined;
          });
      }, everyMs);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

/** Starts `jobs` once the app is ready and stops them, last started first, when it closes. */
export function runWithApp(app: FastifyInstance, jobs: readonly Job[]): void {
  app.addHook('onReady', async () => {
    for (const job of jobs) job.start();
  });
  app.addHook('onClose', async () => {
    for (const job of [...jobs].reverse()) await job.stop();
  });
}
