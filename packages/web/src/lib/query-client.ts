import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/**
 * How long a screen's figures that must be current (a statement, a report, a day close) count as
 * fresh: long enough that the fetch a route loader starts as the screen opens is the one the
 * screen shows, short enough that opening it again asks again.
 */
export const SCREEN_FRESH_MS = 5_000;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A refusal will not change by asking again; a network hiccup might, so one quick retry, and
      // the screen says it failed within about a second rather than after seconds of silence.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1,
      retryDelay: 300,
      refetchOnWindowFocus: false,
    },
  },
});
