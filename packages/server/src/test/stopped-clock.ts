import { createMoneyTestApp } from './money-fixtures.ts';
import type { TestApp } from './test-app.ts';

/**
 * A test app (as createMoneyTestApp) whose clock stands still until the test moves it with
 * `advanceClock`. On the default clock, which runs on in real time, a frozen LOT-DRAW-2 game finds
 * its beacon round within a period (3 s) whether the test wants it or not; here a game waits for
 * its round exactly as long as the test says, so "frozen, waiting for R" is a state a test can hold.
 */
export async function createStoppedClockApp(): Promise<TestApp> {
  let now = Date.now();
  const t = await createMoneyTestApp({ clock: () => now });
  t.advanceClock = (ms) => {
    now += Math.max(0, ms);
  };
  return t;
}

/** Moves the clock just past an instant (ISO or ms), if it is not there yet. */
export function moveClockPast(t: TestApp, at: string | number): void {
  const ms = typeof at === 'string' ? Date.parse(at) : at;
  t.advanceClock(ms - t.now() + 1);
}
