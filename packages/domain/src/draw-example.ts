import {
  BEACON_DST,
  firstRoundAfter,
  QUICKNET,
  randomnessOf,
  roundMessage,
  roundTimeMs,
  verifyBeaconRound,
} from './beacon.ts';
import quicknet from './beacon-fixtures/quicknet.json';
import { FREEZE_MARGIN_MS, freezeRound } from './freeze-round.ts';
import {
  commitmentFingerprint,
  commitmentOf,
  commitmentOf2,
  commitmentText2,
  digestText,
  drawAt,
  DRAW_ALGORITHM,
  DRAW_ALGORITHM_2,
  entriesDigest,
  entryHash,
  entryHashText,
  toHex,
  type BeaconPin,
  type DrawStep,
} from './draw.ts';
import { formatBps, prizeFor } from './game.ts';
import { maskName, maskPhone } from './mask.ts';
import { formatCents } from './money.ts';
import type { GameBeacon, GameDraw, GameProof, GameStatus } from './schemas/games.ts';

/**
 * The worked examples of docs/lot-draw-1.md and docs/lot-draw-2.md: their inputs, the proof the
 * server would publish for them, and the Markdown of the pages' example sections, rendered from
 * the code. draw.test.ts checks that the pages hold exactly this text, so the pages and the code
 * cannot drift apart. To regenerate a section after a deliberate change of an example:
 *   npx tsx -e "import('./packages/domain/src/draw-example.ts').then(async (m) =>
 *     console.log(await m.renderWorkedExample(m.WORKED_EXAMPLE)))"
 * (renderRejectionExample, renderWorkedExample2 and renderVoidedExample likewise).
 */

export type ExampleEntry = {
  number: number;
  name: string;
  phoneNumber: string;
  nonce?: string;
  canonical?: boolean | 2;
};

/**
 * A LOT-DRAW-2 example's beacon: the chain the game names when it opens, round R with its signature,
 * and L, the latest public round at the freeze (absent: a game frozen before L was recorded, whose R
 * is the first round after its freeze).
 */
export type ExampleBeacon = { name: string; chain: BeaconPin; round: number; signature: string; latest?: number };

/** When things happened; `drawnAt[k − 1]` is draw k's time. */
export type ExampleTimes = { openedAt: string; frozenAt: string; drawnAt: string[]; endedAt: string };

export type ExampleGame = {
  serverSeed: string;
  code: string;
  shopName: string;
  startRange: number;
  endRange: number;
  betCents: number;
  prizes: { position: number; name: string; percentBps: number }[];
  entries: ExampleEntry[];
  /** LOT-DRAW-2 only; a game without one is LOT-DRAW-1. */
  beacon?: ExampleBeacon;
  /** LOT-DRAW-1's examples take a fixed day (23 November 2026, 10:00 UTC on). */
  times?: ExampleTimes;
};

const SEED_00_1F = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');

/** Seed bytes 0x00, 0x01 … 0x1f; four participants on 1–20 at 10.00; prizes of 50, 30 and 10 %. */
export const WORKED_EXAMPLE: ExampleGame = {
  serverSeed: SEED_00_1F,
  code: 'EXAMPLE-1',
  shopName: 'Example Shop',
  startRange: 1,
  endRange: 20,
  betCents: 1000,
  prizes: [
    { position: 1, name: '1st Prize', percentBps: 5000 },
    { position: 2, name: '2nd Prize', percentBps: 3000 },
    { position: 3, name: '3rd Prize', percentBps: 1000 },
  ],
  entries: [
    { number: 1, name: 'John Doe', phoneNumber: '09171234567' },
    { number: 3, name: 'María José Núñez', phoneNumber: '+63 917 555 0199' },
    { number: 16, name: 'Li Wei', phoneNumber: '0917-888-4321' },
    { number: 18, name: 'Ana Santos', phoneNumber: '09998765432' },
  ],
};

/**
 * A game whose first draw is rejected once (x lands in the top 96 values of 2^32, which 1–100
 * cannot share out evenly). Found by trying seeds 0x00 … 0x1b followed by a 4-byte counter.
 */
export const REJECTION_EXAMPLE: ExampleGame = {
  serverSeed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b002497d7',
  code: 'EXAMPLE-2',
  shopName: 'Example Shop',
  startRange: 1,
  endRange: 100,
  betCents: 1000,
  prizes: [{ position: 1, name: '1st Prize', percentBps: 10000 }],
  entries: [{ number: 42, name: 'Ana Lima', phoneNumber: '555 0142' }],
};

/** A real quicknet round, copied from beacon-fixtures/quicknet.json (its signature verifies under quicknet's key). */
function fixtureRound(round: number): { round: number; signature: string } {
  const found = quicknet.rounds.find((r) => r.round === round);
  if (!found) throw new Error(`beacon-fixtures/quicknet.json has no round ${round}`);
  return { round: found.round, signature: found.signature };
}

/** LOT-DRAW-2's example round: quicknet round 4810403, published 2024-02-06T15:49:33Z. */
const EXAMPLE_ROUND = fixtureRound(4_810_403);
/** The latest round the relays answered just before the example's freeze: 4810401, published 15:49:27Z. */
const EXAMPLE_LATEST = 4_810_401;
const QUICKNET_PIN: BeaconPin = {
  chainHash: QUICKNET.chainHash,
  publicKey: QUICKNET.publicKey,
  genesisTime: QUICKNET.genesisTime,
  period: QUICKNET.period,
};

/**
 * The LOT-DRAW-2 worked example: LOT-DRAW-1's game (same seed 00 … 1f, range, bet, prizes and
 * participants), each participant with the nonce printed on their slip and hashed in canonical
 * form, on drand quicknet. The entries freeze 3.2 s before round 4810403's time, when the latest
 * public round is 4810401: with the default 2 s margin, R is 4810403 (section 4). The nonces are fixed (the first 16 hex digits of SHA-256 of `LOT example nonce {i}.13`, i = 1…4
 * in order of number): the
 * first of a few hundred such sets that gives the example a winner on draw 1 and another later, so
 * the voided example shows a winner left unpaid. A real nonce is 8 bytes from the server's generator.
 */
export const WORKED_EXAMPLE_2: ExampleGame = {
  ...WORKED_EXAMPLE,
  code: 'EXAMPLE-3',
  entries: [
    { number: 1, name: 'John Doe', phoneNumber: '09171234567', nonce: '7d7c373ea110b5f1', canonical: 2 },
    {
      number: 3,
      name: 'María José Núñez',
      phoneNumber: '+63 917 555 0199',
      nonce: 'a94dea869168c01e',
      canonical: 2,
    },
    { number: 16, name: 'Li Wei', phoneNumber: '0917-888-4321', nonce: '7e176766c5aad1aa', canonical: 2 },
    { number: 18, name: 'Ana Santos', phoneNumber: '09998765432', nonce: 'ab3f985dcf04250b', canonical: 2 },
  ],
  beacon: { name: 'drand quicknet', chain: QUICKNET_PIN, ...EXAMPLE_ROUND, latest: EXAMPLE_LATEST },
  times: {
    openedAt: '2024-02-06T15:40:00.000Z',
    frozenAt: new Date(roundTimeMs(QUICKNET, EXAMPLE_ROUND.round) - 3200).toISOString(),
    drawnAt: ['2024-02-06T15:49:40.000Z', '2024-02-06T15:49:50.000Z', '2024-02-06T15:50:00.000Z'],
    endedAt: '2024-02-06T15:50:00.000Z',
  },
};

/**
 * A large LOT-DRAW-2 game on the example's beacon round: 100 entries, five prizes of 10% each. The
 * domain's verify.test.ts checks that its proof verifies; `npm run bench -- verify` times that check.
 */
export const LARGE_EXAMPLE: ExampleGame = {
  ...WORKED_EXAMPLE_2,
  code: 'EXAMPLE-100',
  startRange: 1,
  endRange: 100,
  prizes: [1, 2, 3, 4, 5].map((position) => ({ position, name: `Prize ${position}`, percentBps: 1000 })),
  entries: Array.from({ length: 100 }, (_, i) => ({
    number: i + 1,
    name: `Participant ${i + 1}`,
    phoneNumber: `0917${String(i).padStart(7, '0')}`,
    nonce: (i + 1).toString(16).padStart(16, '0'),
  })),
};

/** Who voids the LOT-DRAW-2 example after its first draw, and why (docs/lot-draw-2.md's voided example). */
export const VOIDED_EXAMPLE = {
  drawCount: 1,
  voidedBy: { role: 'agent', fullName: 'Ramon Cruz' },
  voidReason: 'Power cut at the shop',
  endedAt: '2024-02-06T15:52:00.000Z',
} as const;

type DrawDetail = { k: number; remaining: number[]; steps: DrawStep[]; number: number };

type Computed = {
  commitment: string;
  hashes: string[];
  text: string;
  digest: string;
  /** R's randomness (LOT-DRAW-2), else undefined. */
  randomness: string | undefined;
  /** Every position's draw in order, including those a voided game left undrawn. */
  draws: DrawDetail[];
};

const sortedPrizes = (game: ExampleGame) => [...game.prizes].sort((a, b) => a.position - b.position);
const sortedEntries = (game: ExampleGame) => [...game.entries].sort((a, b) => a.number - b.number);
const hashedText = (e: ExampleEntry) => entryHashText(e);

async function compute(game: ExampleGame, drawCount: number): Promise<Computed> {
  const commitment = game.beacon
    ? await commitmentOf2(game.serverSeed, game.beacon.chain)
    : await commitmentOf(game.serverSeed);
  if (commitment === null) throw new Error('bad example seed');
  const entries = sortedEntries(game);
  const hashes = await Promise.all(entries.map((e) => entryHash(e)));
  const input = {
    code: game.code,
    startRange: game.startRange,
    endRange: game.endRange,
    betCents: game.betCents,
    prizes: game.prizes,
    entries: entries.map((e, i) => ({ number: e.number, entryHash: hashes[i] as string })),
  };
  const digest = await entriesDigest(input);
  const randomness = game.beacon ? randomnessOf(game.beacon.signature) : undefined;
  const draws: DrawDetail[] = [];
  const drawn: number[] = [];
  for (let k = 1; k <= drawCount; k++) {
    const remaining: number[] = [];
    for (let n = game.startRange; n <= game.endRange; n++) if (!drawn.includes(n)) remaining.push(n);
    const outcome = await drawAt(game.serverSeed, digest, k, game, drawn, randomness);
    draws.push({ k, remaining, steps: outcome.steps, number: outcome.number });
    drawn.push(outcome.number);
  }
  return { commitment, hashes, text: digestText(input), digest, randomness, draws };
}

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 23, 10, minutes)).toISOString();

const timesOf = (game: ExampleGame): ExampleTimes =>
  game.times ?? {
    openedAt: at(0),
    frozenAt: at(11),
    drawnAt: game.prizes.map((_, i) => at(11 + i)),
    endedAt: at(20),
  };

export type ProofOptions = {
  status?: GameStatus;
  /** How many positions were drawn: all of them when settled, none otherwise, unless given. */
  drawCount?: number;
  /**
   * LOT-DRAW-2: whether round R's signature is in the proof. By default it is once something was
   * drawn or the game was voided after its freeze; a frozen game with nothing drawn is waiting for it.
   */
  beaconFetched?: boolean;
  voidReason?: string;
  /** Who voided or discarded the game (the proof masks the name). */
  voidedBy?: { role: string; fullName: string };
  endedAt?: string;
};

/**
 * The proof GET /api/verify/{code} would answer for the game after `drawCount` draws (all of its
 * positions by default), built with the domain's own functions as the server builds it. The seed is
 * revealed only once the game has ended; totals only once it is settled; a game voided after its
 * freeze lists the draws it would have made (once, for LOT-DRAW-2, round R is known).
 */
export async function buildProof(game: ExampleGame, options: ProofOptions = {}): Promise<GameProof> {
  const status = options.status ?? 'settled';
  const drawCount = options.drawCount ?? (status === 'settled' ? game.prizes.length : 0);
  const times = timesOf(game);
  const v2 = game.beacon !== undefined;
  // LOT-DRAW-1 freezes with its first draw; LOT-DRAW-2 with the first draw request, which draws nothing.
  const frozen = v2 ? status === 'drawing' || status === 'settled' || status === 'voided' : drawCount > 0;
  const fetched = v2 && frozen && (options.beaconFetched ?? (drawCount > 0 || status === 'voided'));
  if (v2 && drawCount > 0 && !fetched) throw new Error('a LOT-DRAW-2 game draws nothing before round R');
  const ended = status === 'settled' || status === 'voided' || status === 'discarded';
  const unplayed = status === 'voided' && frozen && (!v2 || fetched);
  const c = await compute(game, unplayed ? game.prizes.length : drawCount);
  const entries = sortedEntries(game);
  const prizes = sortedPrizes(game);
  const pool = entries.length * game.betCents;
  const byNumber = new Map(entries.map((e) => [e.number, e]));
  let totalPrize = 0;
  const toDraw = (d: DrawDetail, drawnAt: string): GameDraw => {
    const entry = byNumber.get(d.number);
    const prize = entry ? prizeFor(pool, (prizes[d.k - 1] as { percentBps: number }).percentBps) : 0;
    return {
      position: d.k,
      number: d.number,
      drawnAt,
      winner: entry
        ? { number: entry.number, name: maskName(entry.name), phoneNumber: maskPhone(entry.phoneNumber) }
        : null,
      prizeAmount: formatCents(prize),
    };
  };
  const draws = c.draws.slice(0, drawCount).map((d) => {
    const draw = toDraw(d, times.drawnAt[d.k - 1] ?? times.endedAt);
    if (draw.winner) totalPrize += prizeFor(pool, (prizes[d.k - 1] as { percentBps: number }).percentBps);
    return draw;
  });
  // The server writes an unplayed draw's time as empty: it never happened.
  const unplayedDraws = unplayed ? c.draws.slice(drawCount).map((d) => toDraw(d, '')) : [];
  let beacon: GameBeacon | null = null;
  if (game.beacon) {
    const { chain, round, signature, latest } = game.beacon;
    beacon = {
      ...chain,
      round: frozen ? round : null,
      latestRound: frozen ? (latest ?? null) : null,
      expectedAt: frozen ? new Date(roundTimeMs(chain, round)).toISOString() : null,
      signature: fetched ? signature : null,
      randomness: fetched ? randomnessOf(signature) : null,
    };
  }
  const voidReason =
    status === 'voided' || status === 'discarded' ? (options.voidReason ?? (v2 ? null : 'Example')) : null;
  return {
    algorithm: v2 ? DRAW_ALGORITHM_2 : DRAW_ALGORITHM,
    code: game.code,
    shopName: game.shopName,
    number: 1,
    status,
    openedAt: times.openedAt,
    endedAt: ended ? (options.endedAt ?? times.endedAt) : null,
    startRange: game.startRange,
    endRange: game.endRange,
    betAmount: formatCents(game.betCents),
    betCents: game.betCents,
    prizes: prizes.map((p) => ({ ...p, percent: formatBps(p.percentBps) })),
    entries: entries.map((e, i) => ({
      number: e.number,
      name: maskName(e.name),
      phoneNumber: maskPhone(e.phoneNumber),
      entryHash: c.hashes[i] as string,
    })),
    entriesDigest: c.digest,
    commitment: c.commitment,
    beacon,
    frozenAt: frozen ? times.frozenAt : null,
    draws,
    unplayedDraws,
    pool: formatCents(pool),
    totalPrize: status === 'settled' ? formatCents(totalPrize) : null,
    commission: status === 'settled' ? formatCents(pool - totalPrize) : null,
    voidReason,
    voidedBy: options.voidedBy ? { role: options.voidedBy.role, name: maskName(options.voidedBy.fullName) } : null,
    serverSeed: ended ? game.serverSeed : null,
  };
}

/** The voided example's proof: WORKED_EXAMPLE_2 voided by an agent after its first draw. */
export function buildVoidedProof(game: ExampleGame = WORKED_EXAMPLE_2): Promise<GameProof> {
  return buildProof(game, {
    status: 'voided',
    drawCount: VOIDED_EXAMPLE.drawCount,
    voidedBy: VOIDED_EXAMPLE.voidedBy,
    voidReason: VOIDED_EXAMPLE.voidReason,
    endedAt: VOIDED_EXAMPLE.endedAt,
  });
}

const hex4 = (x: number) => `0x${x.toString(16).padStart(8, '0')}`;

function renderDraw(d: DrawDetail): string[] {
  const n = d.remaining.length;
  const lines = [
    `draw k = ${d.k}: remaining = the ${n} numbers not drawn yet, ascending:`,
    `  ${d.remaining.join(' ')}`,
    `  n = ${n}, limit = floor(2^32 / ${n}) × ${n} = ${d.steps[0]?.limit}`,
  ];
  for (const step of d.steps) {
    lines.push(
      `  c = ${step.counter}: message = ${step.message}`,
      `         HMAC    = ${step.hmac}`,
      `         x       = ${hex4(step.x)} = ${step.x}`,
      step.x < step.limit
        ? `         x < limit: x mod ${n} = ${step.x % n}, remaining[${step.x % n}] = ${d.number}`
        : `         x ≥ limit: rejected, next c`,
    );
  }
  return lines;
}

function renderInputs(game: ExampleGame): string[] {
  const rows = [
    '| input        | value |',
    '| ------------ | ----- |',
    `| server seed  | \`${game.serverSeed}\` |`,
    `| code         | \`${game.code}\` |`,
    `| range        | ${game.startRange} to ${game.endRange} |`,
    `| bet          | ${formatCents(game.betCents)} (betCents ${game.betCents}) |`,
    `| prizes       | ${sortedPrizes(game)
      .map((p) => `position ${p.position}: ${formatBps(p.percentBps)} % (percentBps ${p.percentBps})`)
      .join('; ')} |`,
  ];
  if (game.beacon) {
    const { name, chain } = game.beacon;
    rows.push(
      `| beacon       | ${name}: chainHash \`${chain.chainHash}\`, genesisTime ${chain.genesisTime}, period ${chain.period} |`,
      `| public key   | \`${chain.publicKey}\` |`,
    );
  }
  return rows;
}

function renderDigest(c: Computed): string[] {
  return [
    '**Digest text** (one line, no spaces, no line break at the end):',
    '',
    '```text',
    c.text,
    '```',
    '',
    '```text',
    `entriesDigest = SHA-256(UTF-8 of the digest text) = ${c.digest}`,
    '```',
    '',
  ];
}

function renderDraws(c: Computed, count: number, title: string): string[] {
  const out = [title, '', '```text', ...c.draws.slice(0, count).flatMap((d) => [...renderDraw(d), ''])];
  out.pop();
  out.push('```', '');
  return out;
}

function renderWinners(game: ExampleGame, c: Computed): string[] {
  const entries = sortedEntries(game);
  const pool = entries.length * game.betCents;
  const prizes = sortedPrizes(game);
  let total = 0;
  return [
    `**Winners.** pool = ${entries.length} entries × ${formatCents(game.betCents)} = ${formatCents(pool)}.`,
    '',
    '| k | prize | percent | drawn | chosen by | prize amount |',
    '| - | ----- | ------- | ----- | --------- | ------------ |',
    ...c.draws.map((d, i) => {
      const prize = prizes[i] as { name: string; percentBps: number };
      const entry = entries.find((e) => e.number === d.number);
      const amount = entry ? prizeFor(pool, prize.percentBps) : 0;
      total += amount;
      return `| ${d.k} | ${prize.name} | ${formatBps(prize.percentBps)} | ${d.number} | ${
        entry ? `${entry.name} (\`${maskName(entry.name)}\`, \`${maskPhone(entry.phoneNumber)}\`)` : 'No winner'
      } | ${entry ? formatCents(amount) : 'N/A'} |`;
    }),
    '',
    '```text',
    `total prize = ${formatCents(total)}`,
    `commission  = pool − total prize = ${formatCents(pool)} − ${formatCents(total)} = ${formatCents(pool - total)}`,
    '```',
    '',
  ];
}

/** docs/lot-draw-1.md's worked example, between its `worked-example` markers. */
export async function renderWorkedExample(game: ExampleGame): Promise<string> {
  const c = await compute(game, game.prizes.length);
  const entries = sortedEntries(game);
  const proof = await buildProof(game);
  const out: string[] = [];
  out.push('**Inputs.**', '', ...renderInputs(game), '');
  out.push(
    '**Commitment** (published when the game opens):',
    '',
    '```text',
    `commitment  = SHA-256(seed bytes) = ${c.commitment}`,
    `fingerprint = ${commitmentFingerprint(c.commitment)}`,
    '```',
    '',
  );
  out.push(
    '**Entries** (the hashed text is shown as a JSON string: `\\n` is the byte 0x0a):',
    '',
    '| number | name | phoneNumber | hashed text | entryHash |',
    '| ------ | ---- | ----------- | ----------- | --------- |',
    ...entries.map(
      (e, i) =>
        `| ${e.number} | ${e.name} | \`${e.phoneNumber}\` | \`${JSON.stringify(hashedText(e))}\` | \`${c.hashes[i]}\` |`,
    ),
    '',
  );
  out.push(...renderDigest(c));
  out.push(...renderDraws(c, game.prizes.length, '**Draws** (the seed is the HMAC key):'));
  out.push(...renderWinners(game, c));
  out.push(
    `**The proof** that \`GET /api/verify/${game.code}\` answers once the game is settled:`,
    '',
    '```json',
    JSON.stringify(proof, null, 2),
    '```',
  );
  return out.join('\n');
}

/** docs/lot-draw-1.md's example of a rejected attempt, between its `rejection-example` markers. */
export async function renderRejectionExample(game: ExampleGame): Promise<string> {
  const c = await compute(game, 1);
  const entries = sortedEntries(game);
  return [
    ...renderInputs(game),
    `| entries      | ${entries
      .map((e) => `${e.number}, ${e.name}, \`${e.phoneNumber}\` (entryHash \`${c.hashes[entries.indexOf(e)]}\`)`)
      .join('; ')} |`,
    '',
    '```text',
    `digest text   = ${c.text}`,
    `entriesDigest = ${c.digest}`,
    '',
    ...c.draws.flatMap(renderDraw),
    '```',
  ].join('\n');
}

const ms = (iso: string) => Date.parse(iso);

function beaconOf(game: ExampleGame): ExampleBeacon {
  if (!game.beacon) throw new Error(`${game.code} is not a LOT-DRAW-2 example`);
  return game.beacon;
}

/** How R follows from L and the freeze, and R's signature checked: the figures of docs/lot-draw-2.md's sections 4 and 5. */
function renderRound(game: ExampleGame): string[] {
  const { chain, round, signature, latest } = beaconOf(game);
  if (latest === undefined) throw new Error(`${game.code} names no latest round L`);
  const frozenAt = timesOf(game).frozenAt;
  const genesisMs = chain.genesisTime * 1000;
  const periodMs = chain.period * 1000;
  const margin = FREEZE_MARGIN_MS;
  const named = freezeRound(chain, { latest, now: ms(frozenAt), marginMs: margin });
  if (!('round' in named) || named.round !== round) throw new Error(`the freeze at ${frozenAt} does not name ${round}`);
  const byEvidence = latest + 1 + Math.ceil(margin / periodMs);
  const since = ms(frozenAt) + margin - genesisMs;
  const byClock = firstRoundAfter(chain, ms(frozenAt) + margin);
  const roundTime = (r: number) =>
    `(${chain.genesisTime} + (${r} − 1) × ${chain.period}) × 1000 = ${roundTimeMs(chain, r)} ms = ${new Date(roundTimeMs(chain, r)).toISOString()}`;
  if (!verifyBeaconRound({ publicKey: chain.publicKey, scheme: QUICKNET.scheme }, round, signature)) {
    throw new Error(`round ${round}'s signature does not verify`);
  }
  const roundBytes = new Uint8Array(8);
  new DataView(roundBytes.buffer).setBigUint64(0, BigInt(round));
  return [
    `**Round R** (named at the freeze; published ${(roundTimeMs(chain, round) - ms(frozenAt)) / 1000} s later):`,
    '',
    '```text',
    `L                = ${latest}  (the latest round the relays answered; roundTime(L) = ${new Date(roundTimeMs(chain, latest)).toISOString()})`,
    `now              = ${frozenAt} = ${ms(frozenAt)} ms (unix time; the server's clock)`,
    `genesis          = ${chain.genesisTime} s = ${genesisMs} ms, period = ${chain.period} s = ${periodMs} ms, margin = ${margin} ms`,
    `byEvidence       = L + 1 + ceil(${margin} / ${periodMs}) = ${latest} + 1 + ${Math.ceil(margin / periodMs)} = ${byEvidence}`,
    `byClock          = floor((${ms(frozenAt)} + ${margin} − ${genesisMs}) / ${periodMs}) + 2 = floor(${since} / ${periodMs}) + 2 = ${byClock}`,
    `R                = max(${byEvidence}, ${byClock}) = ${round}`,
    `roundTime(R)     = ${roundTime(round)}  (after L, and more than the margin after now)`,
    `frozenAt         = ${frozenAt}  (no relay had R; the freeze's time, read after that answer)`,
    '```',
    '',
    `**Round R's signature**, as a relay answers \`GET /${chain.chainHash}/public/${round}\`, and its check:`,
    '',
    '```text',
    `round bytes = ${toHex(roundBytes)}  (${round} as 8 bytes, big-endian)`,
    `message     = SHA-256(round bytes) = ${toHex(roundMessage(round))}`,
    `signature   = ${signature}`,
    `check       = e(signature, G2 generator) = e(hash_to_G1(message, DST), public key): holds`,
    `DST         = ${BEACON_DST}`,
    `randomness  = SHA-256(signature bytes) = ${randomnessOf(signature)}`,
    '```',
    '',
  ];
}

/** docs/lot-draw-2.md's worked example, between its `worked-example-2` markers. */
export async function renderWorkedExample2(game: ExampleGame = WORKED_EXAMPLE_2): Promise<string> {
  const { chain } = beaconOf(game);
  const c = await compute(game, game.prizes.length);
  const entries = sortedEntries(game);
  const proof = await buildProof(game);
  const waiting = await buildProof(game, { status: 'drawing' });
  const out: string[] = [];
  out.push('**Inputs.**', '', ...renderInputs(game), '');
  out.push(
    '**Commitment** (published when the game opens; the commitment text is one line, no spaces):',
    '',
    '```text',
    `commitment text = ${commitmentText2(game.serverSeed, chain)}`,
    `commitment      = SHA-256(UTF-8 of the commitment text) = ${c.commitment}`,
    `fingerprint     = ${commitmentFingerprint(c.commitment)}`,
    '```',
    '',
  );
  out.push(
    '**Entries** (the hashed text is shown as a JSON string: `\\n` is the byte 0x0a):',
    '',
    '| number | name | phoneNumber | nonce | hashed text | entryHash |',
    '| ------ | ---- | ----------- | ----- | ----------- | --------- |',
    ...entries.map(
      (e, i) =>
        `| ${e.number} | ${e.name} | \`${e.phoneNumber}\` | \`${e.nonce}\` | \`${JSON.stringify(hashedText(e))}\` | \`${c.hashes[i]}\` |`,
    ),
    '',
  );
  out.push(...renderDigest(c));
  out.push(...renderRound(game));
  out.push(
    "**While frozen**, waiting for R, the proof's `beacon` names R and when it comes, and nothing is drawn:",
    '',
    '```json',
    JSON.stringify(waiting.beacon, null, 2),
    '```',
    '',
  );
  out.push(
    ...renderDraws(c, game.prizes.length, "**Draws** (the seed is the HMAC key; R's randomness is in every message):"),
  );
  out.push(...renderWinners(game, c));
  out.push(
    `**The proof** that \`GET /api/verify/${game.code}\` answers once the game is settled:`,
    '',
    '```json',
    JSON.stringify(proof, null, 2),
    '```',
  );
  return out.join('\n');
}

/** The fields of the voided example's proof that differ from the settled one, as the page shows them. */
export const VOIDED_FIELDS = [
  'status',
  'endedAt',
  'draws',
  'unplayedDraws',
  'totalPrize',
  'commission',
  'voidReason',
  'voidedBy',
] as const;

/** The text a voided game shows for an unplayed draw's prize (the verify page, the slip). */
export function notPaidText(proof: Pick<GameProof, 'voidedBy' | 'voidReason'>): string {
  const by = proof.voidedBy ? ` by ${proof.voidedBy.role} ${proof.voidedBy.name}` : '';
  return `Not paid — game voided${by}${proof.voidReason ? `: ${proof.voidReason}` : ''}`;
}

/** docs/lot-draw-2.md's voided example, between its `voided-example` markers. */
export async function renderVoidedExample(game: ExampleGame = WORKED_EXAMPLE_2): Promise<string> {
  const proof = await buildVoidedProof(game);
  const entries = sortedEntries(game);
  const pool = entries.length * game.betCents;
  const prizes = sortedPrizes(game);
  const notPaid = notPaidText(proof);
  const row = (d: GameDraw, drawn: boolean) => {
    const prize = prizes[d.position - 1] as { name: string };
    const entry = entries.find((e) => e.number === d.number);
    const chosen = entry
      ? `${entry.name} (\`${maskName(entry.name)}\`, \`${maskPhone(entry.phoneNumber)}\`)`
      : 'No winner';
    return `| ${d.position} | ${prize.name} | ${drawn ? 'drawn' : 'unplayed'} | ${d.number} | ${chosen} | ${d.prizeAmount} | ${notPaid} |`;
  };
  const shown = Object.fromEntries(VOIDED_FIELDS.map((key) => [key, proof[key]]));
  return [
    `| k | prize | draw | number | chosen by | prizeAmount | paid |`,
    `| - | ----- | ---- | ------ | --------- | ----------- | ---- |`,
    ...proof.draws.map((d) => row(d, true)),
    ...proof.unplayedDraws.map((d) => row(d, false)),
    '',
    '```text',
    `pool = ${formatCents(pool)}: held at the freeze, returned at the void; no prize is paid`,
    '```',
    '',
    `The proof's fields that differ from the settled game's:`,
    '',
    '```json',
    JSON.stringify(shown, null, 2),
    '```',
  ].join('\n');
}
