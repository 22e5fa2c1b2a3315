/**
 * LOT-DRAW-1: how the server draws a game's numbers from a seed it committed to before any
 * participant was entered, and how anyone re-checks it. docs/lot-draw-1.md is the public
 * description (with a worked example the unit tests check); this file is the one implementation
 * the server and the web's verify page share. It uses only Web Crypto (`crypto.subtle`), which
 * Node and browsers both have; scripts/verify-game.mjs re-implements it with Node's crypto alone.
 */

export const DRAW_ALGORITHM = 'LOT-DRAW-1';
/** LOT-DRAW-2 (docs/lot-draw-2.md): LOT-DRAW-1 whose draws also depend on a public beacon round drawn after the freeze. */
export const DRAW_ALGORITHM_2 = 'LOT-DRAW-2';
export const DRAW_PROTOCOLS = [DRAW_ALGORITHM, DRAW_ALGORITHM_2] as const;
export type DrawProtocol = (typeof DRAW_PROTOCOLS)[number];
/** How every screen, slip and proof labels a LOT-DRAW-1 game (decision 036). */
export const SERVER_RANDOMNESS_ONLY = 'Server randomness only: whoever holds the seed could know the outcome';

/** The part of Web Crypto used here, typed locally so the domain needs no DOM or Node types. */
type Subtle = {
  digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
  importKey(
    format: 'raw',
    key: Uint8Array,
    algorithm: { name: 'HMAC'; hash: 'SHA-256' },
    extractable: false,
    usages: ['sign'],
  ): Promise<unknown>;
  sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
};

function subtle(): Subtle {
  const webCrypto = (globalThis as unknown as { crypto?: { subtle?: Subtle } }).crypto;
  if (!webCrypto?.subtle) throw new Error('Web Crypto is not available (a browser needs https or localhost)');
  return webCrypto.subtle;
}

type Encoder = { encode(text: string): Uint8Array };
const encoder = new (globalThis as unknown as { TextEncoder: new () => Encoder }).TextEncoder();
const utf8 = (text: string) => encoder.encode(text);

const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array | ArrayBuffer): string {
  let hex = '';
  for (const b of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) hex += HEX_BYTE[b];
  return hex;
}

/** Lowercase hex of exactly `length` bytes, or null. */
export function fromHex(hex: string, length: number): Uint8Array | null {
  if (typeof hex !== 'string' || hex.length !== length * 2 || !LOWER_HEX.test(hex)) return null;
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

const LOWER_HEX = /^[0-9a-f]*$/;

/**
 * The two primitives LOT-DRAW-1 needs. Every function here that hashes takes them as its last
 * argument, Web Crypto's by default (browsers and Node have it); the server passes Node's own
 * (`ctx.drawCrypto`), which give the same bytes without Web Crypto's cost per call (about 0.2 ms
 * each on the server, some 30 calls a game).
 */
export type DrawCrypto = {
  sha256(data: Uint8Array): Promise<Uint8Array>;
  hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array>;
};

export const webDrawCrypto: DrawCrypto = {
  sha256: async (data) => new Uint8Array(await subtle().digest('SHA-256', data)),
  hmacSha256: async (keyBytes, data) => {
    const key = await subtle().importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await subtle().sign('HMAC', key, data));
  },
};

export async function sha256Hex(data: string | Uint8Array, crypto: DrawCrypto = webDrawCrypto): Promise<string> {
  return toHex(await crypto.sha256(typeof data === 'string' ? utf8(data) : data));
}

/** A server seed is 32 bytes, published as 64 lowercase hex characters once the game has ended. */
export const SEED_BYTES = 32;

/** commitment = hex SHA-256 of the seed's 32 bytes (not of its hex text). Null for a malformed seed. */
export async function commitmentOf(seedHex: string, crypto: DrawCrypto = webDrawCrypto): Promise<string | null> {
  const seed = fromHex(seedHex, SEED_BYTES);
  return seed ? sha256Hex(seed, crypto) : null;
}

/**
 * The beacon a LOT-DRAW-2 game names when it opens (docs/lot-draw-2.md): a drand chain, pinned by its
 * chain hash (which covers the public key, period and genesis) and public key.
 */
export type BeaconPin = { chainHash: string; publicKey: string; genesisTime: number; period: number };

/**
 * LOT-DRAW-2's commitment binds the protocol and the beacon to the seed: hex SHA-256 of the UTF-8 of
 * JSON.stringify(["LOT-DRAW-2", chainHash, publicKey, genesisTime, period, seedHex]). Null for a
 * malformed seed.
 */
export async function commitmentOf2(
  seedHex: string,
  beacon: BeaconPin,
  crypto: DrawCrypto = webDrawCrypto,
): Promise<string | null> {
  if (!fromHex(seedHex, SEED_BYTES)) return null;
  return sha256Hex(commitmentText2(seedHex, beacon), crypto);
}

export function commitmentText2(seedHex: string, beacon: BeaconPin): string {
  return JSON.stringify([
    DRAW_ALGORITHM_2,
    beacon.chainHash,
    beacon.publicKey,
    beacon.genesisTime,
    beacon.period,
    seedHex,
  ]);
}

/**
 * An entry: a number, a name and a phone as the operator typed them, and — for entries added since
 * LOT-DRAW-2 — a random nonce the server drew when the person's first entry was added, printed on
 * their slip (docs/lot-draw-2.md#entries). Without the nonce the hash cannot be matched to a person.
 */
export type DrawEntry = {
  number: number;
  name: string;
  phoneNumber: string;
  nonce?: string | null;
  /**
   * Which canonical form the hash takes the name and phone in (docs/lot-draw-2.md#entries): `2`
   * (`canonicalName`, `canonicalPhone`) for every entry added since 29 November 2026, `true` (the
   * first form, `canonicalName1`, `canonicalPhone1`) for those added from 26 November, none for
   * older ones (as typed).
   */
  canonical?: boolean | 2;
};
export type DrawPrize = { position: number; percentBps: number };

/** A nonce: 8 random bytes as 16 lowercase hex characters. */
export const NONCE_PATTERN = /^[0-9a-f]{16}$/;

/**
 * The first canonical name (entries of 26–28 November 2026): lower case, decomposed (NFKD) with its
 * combining marks removed, without any white space. It kept `ø`, `æ`, `ß`, `ł`: letters NFKD does
 * not decompose.
 */
export const canonicalName1 = (name: string): string =>
  name.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/gu, '');

/** The first canonical phone: its digits only, so `+49 …` and `0049 …` stayed two phones. */
export const canonicalPhone1 = (phoneNumber: string): string => phoneNumber.replace(/\D/g, '');

/**
 * Latin letters that are letters of their own in Unicode, not a base letter with a mark, so NFKD
 * leaves them: each is written as the letters people type for it on a keyboard without it.
 */
const FOLDED_LETTERS: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ĸ: 'k',
  ŋ: 'n',
};
const FOLDED_PATTERN = new RegExp(`[${Object.keys(FOLDED_LETTERS).join('')}]`, 'gu');

/**
 * A name as a person is recognised by (docs/lot-draw-2.md#entries): lower case, decomposed (NFKD)
 * with its combining marks removed, the letters NFKD keeps folded (`ø` → `o`, `æ` → `ae`, `ß` →
 * `ss`, `ł` → `l` …) and without any white space — `María  José` and `maria jose` are both
 * `mariajose`, `Ørsted` and `orsted` both `orsted`.
 */
export const canonicalName = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(FOLDED_PATTERN, (letter) => FOLDED_LETTERS[letter] ?? letter)
    .replace(/\s+/gu, '');

/**
 * A phone number as a person is recognised by: its digits only, without the international call
 * prefix `00` that stands for `+` — `+49 170 555`, `0049 170 555` and `49170555` are all
 * `49170555`. A national number (`0170 555`) is another phone: which country it is in is not known.
 */
export const canonicalPhone = (phoneNumber: string): string => phoneNumber.replace(/\D/g, '').replace(/^00/, '');

/** The text an entry's hash covers (`entryHash`). */
export function entryHashText(entry: DrawEntry): string {
  const [name, phone] =
    entry.canonical === 2
      ? [canonicalName(entry.name), canonicalPhone(entry.phoneNumber)]
      : entry.canonical
        ? [canonicalName1(entry.name), canonicalPhone1(entry.phoneNumber)]
        : [entry.name, entry.phoneNumber];
  const text = `${entry.number}\n${name}\n${phone}`;
  return entry.nonce ? `${text}\n${entry.nonce}` : text;
}

/**
 * entryHash = hex SHA-256 of `number + "\n" + name + "\n" + phoneNumber` (UTF-8), with
 * `"\n" + nonce` appended when the entry has one; name and phone in canonical form for a
 * canonical entry, as typed (trimmed) for older ones.
 */
export function entryHash(entry: DrawEntry, crypto: DrawCrypto = webDrawCrypto): Promise<string> {
  return sha256Hex(entryHashText(entry), crypto);
}

export type DigestInput = {
  code: string;
  startRange: number;
  endRange: number;
  betCents: number;
  prizes: readonly DrawPrize[];
  entries: readonly { number: number; entryHash: string }[];
};

/** The exact text whose SHA-256 is the entries digest (shown on the docs page and the verify page). */
export function digestText(input: DigestInput): string {
  const prizes = [...input.prizes].sort((a, b) => a.position - b.position).map((p) => [p.position, p.percentBps]);
  const entries = [...input.entries].sort((a, b) => a.number - b.number).map((e) => [e.number, e.entryHash]);
  return JSON.stringify([input.code, input.startRange, input.endRange, input.betCents, prizes, entries]);
}

/** entriesDigest: fixes the game, its prizes and its participants before the first draw. */
export function entriesDigest(input: DigestInput, crypto: DrawCrypto = webDrawCrypto): Promise<string> {
  return sha256Hex(digestText(input), crypto);
}

/** One attempt of one draw, as the docs page lists them. */
export type DrawStep = { counter: number; message: string; hmac: string; x: number; n: number; limit: number };

export type DrawOutcome = { number: number; steps: DrawStep[] };

const TWO_32 = 2 ** 32;

/**
 * The rejection sampler both protocols share: a uniformly random `bits`-bit x picks index x mod n
 * when x < floor(2^bits / n) × n, and is rejected (null) otherwise, so every index of 0 … n−1 gets
 * exactly floor(2^bits / n) of the accepted values. The draws use bits = 32; the unit tests also
 * count every value of a 16-bit x for each n.
 */
export function pickIndex(x: number, n: number, bits = 32): number | null {
  const limit = Math.floor(2 ** bits / n) * n;
  return x < limit ? x % n : null;
}

/** The HMAC message of draw k, attempt c: LOT-DRAW-1 without a beacon, LOT-DRAW-2 with its randomness. */
export function drawMessage(digest: string, k: number, counter: number, beaconRandomness?: string): string {
  return beaconRandomness === undefined
    ? `${digest}:${k}:${counter}`
    : `${DRAW_ALGORITHM_2}:${digest}:${beaconRandomness}:${k}:${counter}`;
}

/**
 * The k-th draw (k from 1): for c = 0, 1, 2 …, h = HMAC-SHA256(seed, drawMessage(digest, k, c, R)), x =
 * the first 4 bytes of h as a big-endian unsigned integer, n = how many numbers of the range are not
 * drawn yet; x below floor(2^32 / n) × n picks remaining[x mod n] (ascending), otherwise the next c.
 * The rejection keeps every remaining number exactly equally likely; it needs a second attempt with
 * probability below n / 2^32, so it ends. `beaconRandomness` (LOT-DRAW-2): round R's randomness,
 * 64 hex characters; without it, LOT-DRAW-1.
 */
export async function drawAt(
  seedHex: string,
  digest: string,
  k: number,
  range: { startRange: number; endRange: number },
  drawn: readonly number[],
  beaconRandomness?: string,
  crypto: DrawCrypto = webDrawCrypto,
): Promise<DrawOutcome> {
  const seed = fromHex(seedHex, SEED_BYTES);
  if (!seed) throw new Error('the server seed must be 64 lowercase hex characters');
  const taken = new Set(drawn);
  const remaining: number[] = [];
  for (let n = range.startRange; n <= range.endRange; n++) if (!taken.has(n)) remaining.push(n);
  const n = remaining.length;
  if (n === 0) throw new Error('every number of the range is drawn');
  const limit = Math.floor(TWO_32 / n) * n;
  const steps: DrawStep[] = [];
  for (let counter = 0; ; counter++) {
    const message = drawMessage(digest, k, counter, beaconRandomness);
    const h = await crypto.hmacSha256(seed, utf8(message));
    const x = ((h[0] ?? 0) * 2 ** 24 + ((h[1] ?? 0) << 16) + ((h[2] ?? 0) << 8) + (h[3] ?? 0)) >>> 0;
    steps.push({ counter, message, hmac: toHex(h), x, n, limit });
    const index = pickIndex(x, n);
    if (index !== null) return { number: remaining[index] as number, steps };
  }
}

/** The first `count` draws of a game, in order. */
export async function drawSequence(
  seedHex: string,
  digest: string,
  range: { startRange: number; endRange: number },
  count: number,
  beaconRandomness?: string,
  crypto: DrawCrypto = webDrawCrypto,
): Promise<number[]> {
  const drawn: number[] = [];
  for (let k = 1; k <= count; k++)
    drawn.push((await drawAt(seedHex, digest, k, range, drawn, beaconRandomness, crypto)).number);
  return drawn;
}

/** The commitment's short fingerprint for screens and slips: its first 16 hex digits in fours. */
export function commitmentFingerprint(commitment: string): string {
  return (commitment.slice(0, 16).match(/.{1,4}/g) ?? []).join(' ');
}
