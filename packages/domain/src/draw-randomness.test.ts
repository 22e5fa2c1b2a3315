import { createHash, createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { drawAt, pickIndex, webDrawCrypto, type DrawCrypto } from './draw.ts';

/**
 * Randomness health of the draw, as a regulator would test it (docs/lot-draw-2-randomness.md
 * publishes the figures): the rejection sampler is exactly uniform, by counting and by arithmetic;
 * and the numbers LOT-DRAW-2 draws fit the uniform distribution, per position and jointly, by
 * chi-square over at least 1,000,000 draws (10,000,000 under SOAK=1). The seeds are fixed, so a
 * figure is the same on every run and a failure reproduces.
 */

/** Node's process and console, typed locally: the domain is compiled without Node's or the DOM's types. */
const node = globalThis as unknown as {
  process: { env: Record<string, string | undefined> };
  console: { log(line: string): void };
};
const env = node.process.env;
const SOAK = env.SOAK === '1';
/** Games of 3 draws each: 333,334 games are 1,000,002 draws (3,333,334 under SOAK=1: 10,000,002). */
const GAMES = Number(env.HEALTH_GAMES ?? (SOAK ? 3_333_334 : 333_334));
const ALPHA = 0.001;

/** Node's crypto: the same bytes as Web Crypto's (checked below), some 50 times faster a call. */
const nodeDrawCrypto: DrawCrypto = {
  sha256: (data) => Promise.resolve(createHash('sha256').update(data).digest()),
  hmacSha256: (key, data) => Promise.resolve(createHmac('sha256', key).update(data).digest()),
};

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

// ---------------------------------------------------------------------------------------------
// Chi-square: the regularized incomplete gamma function (Numerical Recipes in C, 2nd ed., 6.1–6.2:
// Lanczos' log-gamma, the series for P(a, x) below a + 1, Lentz's continued fraction for Q above).
// ---------------------------------------------------------------------------------------------

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let sum = LANCZOS[0] as number;
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] as number) / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Q(a, x) = Γ(a, x) / Γ(a), the upper regularized incomplete gamma function. */
function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1_000_000 && Math.abs(term) > Math.abs(sum) * 1e-16; n++) sum += term *= x / (a + n);
    return 1 - sum * front;
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1_000_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = Math.abs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return front * h;
}

/** P(X ≥ x) for X chi-square with df degrees of freedom: the p-value of a statistic x. */
function chiSquarePValue(x: number, df: number): number {
  return gammaQ(df / 2, x / 2);
}

/** The x with P(X ≥ x) = alpha, by bisection on the p-value (to 1e-9 relative). */
function chiSquareCritical(alpha: number, df: number): number {
  let low = 0;
  let high = df + 20 * Math.sqrt(2 * df) + 60;
  while (high - low > 1e-9 * high) {
    const mid = (low + high) / 2;
    if (chiSquarePValue(mid, df) > alpha) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** Wilson–Hilferty's approximation of the same critical value (z is the standard normal quantile). */
function wilsonHilferty(z: number, df: number): number {
  const v = 2 / (9 * df);
  return df * (1 - v + z * Math.sqrt(v)) ** 3;
}

/** The chi-square statistic of observed counts against one expected count for every cell. */
function chiSquare(counts: ArrayLike<number>, cells: (i: number) => boolean, expected: number) {
  let x = 0;
  let n = 0;
  for (let i = 0; i < counts.length; i++) {
    if (!cells(i)) {
      expect(counts[i], `cell ${i} cannot occur`).toBe(0);
      continue;
    }
    x += ((counts[i] as number) - expected) ** 2 / expected;
    n++;
  }
  return { x, df: n - 1 };
}

describe('the chi-square arithmetic', () => {
  it("matches the published tables' critical values at p = 0.001, both tails", () => {
    // NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.4 "Critical Values of the
    // Chi-Square Distribution" (upper tail at 0.001, and the lower tail at 0.001 = upper at 0.999).
    const upper: [number, number][] = [
      [1, 10.828],
      [2, 13.816],
      [5, 20.515],
      [10, 29.588],
      [17, 40.79],
      [18, 42.312],
      [19, 43.82],
      [20, 45.315],
      [50, 86.661],
      [100, 149.449],
    ];
    for (const [df, value] of upper) expect(chiSquareCritical(0.001, df), `df ${df}`).toBeCloseTo(value, 2);
    const lower: [number, number][] = [
      [10, 1.479],
      [19, 5.407],
      [100, 61.918],
    ];
    for (const [df, value] of lower) expect(chiSquareCritical(0.999, df), `df ${df}`).toBeCloseTo(value, 2);
    // Beyond the tables (379 and 6,839 degrees of freedom below), Wilson–Hilferty agrees to 0.1 %.
    for (const df of [100, 379, 6839]) {
      for (const [alpha, z] of [
        [0.001, 3.090232306],
        [0.999, -3.090232306],
      ] as const) {
        const ratio = chiSquareCritical(alpha, df) / wilsonHilferty(z, df);
        expect(Math.abs(ratio - 1), `df ${df}, ${alpha}: ${ratio}`).toBeLessThan(0.001);
      }
    }
    // The mean of chi-square is its df: its p-value is a little below one half.
    expect(chiSquarePValue(379, 379)).toBeGreaterThan(0.45);
    expect(chiSquarePValue(379, 379)).toBeLessThan(0.5);
  });
});

describe('the rejection sampler is exactly uniform (pickIndex)', () => {
  it('16 bits, counted: for every n of 2…100, every x of 0…65535 — each index floor(65536/n) times, the rest rejected', () => {
    for (let n = 2; n <= 100; n++) {
      const counts = new Array<number>(n).fill(0);
      const rejected: number[] = [];
      for (let x = 0; x < 65536; x++) {
        const index = pickIndex(x, n, 16);
        if (index === null) rejected.push(x);
        else counts[index] = (counts[index] as number) + 1;
      }
      const share = Math.floor(65536 / n);
      expect(counts, `n = ${n}`).toEqual(new Array<number>(n).fill(share));
      // Exactly the 65536 mod n highest values are rejected, no other.
      expect(rejected, `n = ${n}`).toEqual(Array.from({ length: 65536 % n }, (_, i) => share * n + i));
    }
  });

  it('32 bits, by arithmetic on blocks of n: each index exactly floor(2^32/n) times, the 2^32 mod n highest x rejected', () => {
    // limit = floor(2^32/n)·n is a multiple of n, so [0, limit) is limit/n whole blocks
    // [b·n, b·n + n), and in each block x mod n is 0, 1, …, n−1 once (b·n + r ≡ r mod n): every index
    // is hit limit/n = floor(2^32/n) times. The checks below fail if pickIndex used another limit
    // (the edges of the accepted range) or mapped an accepted x to anything but x mod n (the blocks).
    const TWO_32 = 2 ** 32;
    for (let n = 2; n <= 100; n++) {
      const limit = Math.floor(TWO_32 / n) * n;
      const blocks = limit / n;
      expect(Number.isInteger(blocks)).toBe(true);
      expect(TWO_32 - limit).toBe(TWO_32 % n); // the largest multiple of n not above 2^32
      expect(TWO_32 - limit).toBeLessThan(n);
      expect(pickIndex(limit - 1, n)).toBe(n - 1);
      // Every x of [limit, 2^32) — fewer than n of them — is rejected.
      for (let x = limit; x < TWO_32; x++) expect(pickIndex(x, n), `n = ${n}, x = ${x}`).toBeNull();
      if (limit < TWO_32) {
        expect(pickIndex(limit, n)).toBeNull();
        expect(pickIndex(TWO_32 - 1, n)).toBeNull();
      } else {
        expect(pickIndex(TWO_32 - 1, n)).toBe(n - 1); // n a power of two: nothing is rejected
      }
      // The first, second and last blocks and 997 spread between them: each gives 0, 1, …, n−1 in order.
      const sampled = new Set([
        0,
        1,
        blocks - 1,
        ...Array.from({ length: 997 }, (_, j) => Math.floor((j * (blocks - 1)) / 996)),
      ]);
      const ascending = Array.from({ length: n }, (_, r) => r);
      for (const b of sampled) {
        expect(
          ascending.map((r) => pickIndex(b * n + r, n)),
          `n = ${n}, block ${b}`,
        ).toEqual(ascending);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The draws: GAMES games of LOT-DRAW-2 on 1–20, three prize positions each.
// ---------------------------------------------------------------------------------------------

const RANGE = { startRange: 1, endRange: 20 };
const N = 20;
const DIGEST = sha256Hex('LOT-DRAW-2 health digest');
const seedOf = (i: number) => sha256Hex(`LOT-DRAW-2 health ${i}`);
const beaconOf = (i: number) => sha256Hex(`LOT-DRAW-2 health beacon ${i}`);

/** Counts over every game, numbers 0-based; a cell [a][b] is at a·N + b, [a][b][c] at (a·N + b)·N + c. */
const tally = {
  /** Draw 1, 2 and 3 each on its own. */
  positions: [new Float64Array(N), new Float64Array(N), new Float64Array(N)],
  /** The pairs (draw 1, draw 2), (draw 1, draw 3), (draw 2, draw 3). */
  pairs: [new Float64Array(N * N), new Float64Array(N * N), new Float64Array(N * N)],
  triples: new Float64Array(N * N * N),
  /** Draw 1 of a game and draw 1 of the next game (GAMES − 1 pairs). */
  serial: new Float64Array(N * N),
  /** Attempts after the first (x at or above the limit): 2^32 mod n in 2^32, about 4 in 10^9 here. */
  rejections: 0,
  seconds: 0,
};

describe(`LOT-DRAW-2 draws fit the uniform distribution (chi-square, ${(GAMES * 3).toLocaleString('en-US')} draws)`, () => {
  beforeAll(
    async () => {
      const started = Date.now();
      const [first, second, third] = tally.positions as [Float64Array, Float64Array, Float64Array];
      const [firstSecond, firstThird, secondThird] = tally.pairs as [Float64Array, Float64Array, Float64Array];
      let previous = -1;
      for (let i = 0; i < GAMES; i++) {
        const seed = seedOf(i);
        const beacon = beaconOf(i);
        const drawn: number[] = [];
        for (let k = 1; k <= 3; k++) {
          const outcome = await drawAt(seed, DIGEST, k, RANGE, drawn, beacon, nodeDrawCrypto);
          tally.rejections += outcome.steps.length - 1;
          drawn.push(outcome.number);
        }
        const [a, b, c] = drawn.map((number) => number - 1) as [number, number, number];
        first[a]! += 1;
        second[b]! += 1;
        third[c]! += 1;
        firstSecond[a * N + b]! += 1;
        firstThird[a * N + c]! += 1;
        secondThird[b * N + c]! += 1;
        tally.triples[(a * N + b) * N + c]! += 1;
        if (previous >= 0) tally.serial[previous * N + a]! += 1;
        previous = a;
      }
      tally.seconds = (Date.now() - started) / 1000;
      node.console.log(
        `LOT-DRAW-2 health: ${GAMES.toLocaleString('en-US')} games, ${(GAMES * 3).toLocaleString('en-US')} draws in ${tally.seconds.toFixed(1)} s, ${tally.rejections} rejected attempts`,
      );
    },
    60_000 + GAMES * 0.3,
  );

  it("Node's crypto draws exactly what Web Crypto draws (the first 20 games)", async () => {
    const viaWeb = await firstGames(webDrawCrypto, 20);
    expect(await firstGames(nodeDrawCrypto, 20)).toEqual(viaWeb);
  });

  /** One statistic against both tails at ALPHA, printed. */
  function judge(
    name: string,
    counts: ArrayLike<number>,
    cells: (i: number) => boolean,
    cellCount: number,
    samples = GAMES,
  ) {
    const { x, df } = chiSquare(counts, cells, samples / cellCount);
    expect(df).toBe(cellCount - 1);
    const upper = chiSquareCritical(ALPHA, df);
    const lower = chiSquareCritical(1 - ALPHA, df);
    const p = chiSquarePValue(x, df);
    node.console.log(
      `LOT-DRAW-2 health, ${name}: ${samples.toLocaleString('en-US')} samples, chi² ${x.toFixed(2)}, df ${df}, critical (p = ${ALPHA}) ${upper.toFixed(2)}, p = ${p.toFixed(4)}`,
    );
    // Not too far from uniform for a fair draw (P = 0.001)…
    expect(x).toBeLessThan(upper);
    // …and not suspiciously close to it either (P = 0.001).
    expect(x).toBeGreaterThan(lower);
  }

  it.each([1, 2, 3])('draw %i: every number of 1–20 equally likely (20 cells, df 19)', (k) => {
    judge(`draw ${k}`, tally.positions[k - 1] as Float64Array, () => true, N);
  });

  it.each([
    [1, 2, 0],
    [1, 3, 1],
    [2, 3, 2],
  ])(
    'draws %i and %i together: every ordered pair of two different numbers equally likely (20 × 19 cells, df 379)',
    (j, k, pair) => {
      judge(`draws ${j} and ${k}`, tally.pairs[pair] as Float64Array, (i) => Math.floor(i / N) !== i % N, N * (N - 1));
    },
  );

  it('the three draws together: every ordered triple of different numbers equally likely (20 × 19 × 18 cells, df 6839)', () => {
    const distinct = (i: number) => {
      const [a, b, c] = [Math.floor(i / (N * N)), Math.floor(i / N) % N, i % N];
      return a !== b && a !== c && b !== c;
    };
    judge('draws 1, 2 and 3', tally.triples, distinct, N * (N - 1) * (N - 2));
  });

  it('one game and the next: draw 1 of consecutive games independent (20 × 20 cells, df 399)', () => {
    judge('draw 1 of a game and of the next', tally.serial, () => true, N * N, GAMES - 1);
  });
});

/** The draws of games 0 … count−1 with the given primitives. */
async function firstGames(crypto: DrawCrypto, count: number): Promise<number[][]> {
  const games: number[][] = [];
  for (let i = 0; i < count; i++) {
    const drawn: number[] = [];
    for (let k = 1; k <= 3; k++)
      drawn.push((await drawAt(seedOf(i), DIGEST, k, RANGE, drawn, beaconOf(i), crypto)).number);
    games.push(drawn);
  }
  return games;
}
