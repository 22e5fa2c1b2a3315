import type { Counter } from 'prom-client';

export type MoneyKind = 'topup' | 'transfer' | 'decrease' | 'take_back';

/** What the app counts for GET /metrics (decision 026); the metrics plugin makes the counters. */
export type Metrics = {
  moneyCalls: Pick<Counter<'kind' | 'outcome'>, 'inc'>;
  games: Pick<Counter<'outcome'>, 'inc'>;
  signins: Pick<Counter<'outcome'>, 'inc'>;
  /** Counts a money call by its outcome: ok, replayed, refused (a rule said no) or error. */
  countMoney: <T extends { replayed: boolean }>(kind: MoneyKind, call: Promise<T>) => Promise<T>;
};

const uncounted = { inc: () => {} };

/** A command-line tool's metrics: nothing is served, so nothing is counted. */
export const noMetrics: Metrics = {
  moneyCalls: uncounted,
  games: uncounted,
  signins: uncounted,
  countMoney: (_kind, call) => call,
};
