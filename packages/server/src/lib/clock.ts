/**
 * Milliseconds since the epoch: the time of a context (`ctx.clock`, lib/context.ts), which tests
 * move forward, set back or skew for one request (decision 069).
 */
export type Clock = () => number;

/**
 * The machine's clock, read here and nowhere else in modules/, lib/ and cli/ (decision 069: a lint
 * rule refuses `Date.now()` and `new Date()` there). The app's context runs on it unless a test gives
 * another; a command's context runs on it, and a command that builds none reads it through its
 * settings (`loadCommandConfig`'s `clock`: a backup's name, a checkpoint's time).
 */
// eslint-disable-next-line no-restricted-syntax -- the one place the machine's clock is read
export const systemClock: Clock = () => Date.now();

/** A time as a file name's stamp, UTC to the second: `20261129T065800`. */
export const fileStamp = (at: number): string => new Date(at).toISOString().replace(/[-:]/g, '').slice(0, 15);
