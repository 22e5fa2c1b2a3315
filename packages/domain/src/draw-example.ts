import {
  commitmentFingerprint,
  commitmentOf,
  digestText,
  drawAt,
  DRAW_ALGORITHM,
  entriesDigest,
  entryHash,
} from './draw.ts';
import type { DrawStep } from './draw.ts';
import { formatBps, prizeFor } from './game.ts';
import { maskName, maskPhone } from './mask.ts';
import { formatCents } from './money.ts';
import type { GameProof, GameStatus } from './schemas/games.ts';

/**
 * The worked examples of docs/lot-draw-1.md: their inputs, the proof the server would publish for
 * them, and the Markdown of the page's example sections, rendered from the code. draw.test.ts
 * checks that the page holds exactly this text, so the page and the code cannot drift apart.
 * To regenerate a section after a deliberate change of the example:
 *   npx tsx -e "import('./packages/domain/src/draw-example.ts').then(async (m) =>
 *     console.log(await m.renderWorkedExample(m.WORKED_EXAMPLE)))"
 */

export type ExampleGame = {
  serverSeed: string;
  code: string;
  shopName: string;
  startRange: number;
  endRange: number;
  betCents: number;
  prizes: { position: number; name: string; percentBps: number }[];
  entries: { number: number; name: string; phoneNumber: string }[];
};

/** Seed bytes 0x00, 0x01 … 0x1f; four participants on 1–20 at 10.00; prizes of 50, 30 and 10 %. */
export const WORKED_EXAMPLE: ExampleGame = {
  serverSeed: Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join(''),
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

type DrawDetail = { k: number; remaining: number[]; steps: DrawStep[]; number: number };

type Computed = {
  commitment: string;
  hashes: string[];
  text: string;
  digest: string;
  draws: DrawDetail[];
};

const sortedPrizes = (game: ExampleGame) => [...game.prizes].sort((a, b) => a.position - b.position);
const sortedEntries = (game: ExampleGame) => [...game.entries].sort((a, b) => a.number - b.number);

async function compute(game: ExampleGame, drawCount: number): Promise<Computed> {
  const commitment = await commitmentOf(game.serverSeed);
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
  const draws: DrawDetail[] = [];
  const drawn: number[] = [];
  for (let k = 1; k <= drawCount; k++) {
    const remaining: number[] = [];
    for (let n = game.startRange; n <= game.endRange; n++) if (!drawn.includes(n)) remaining.push(n);
    const outcome = await drawAt(game.serverSeed, digest, k, game, drawn);
    draws.push({ k, remaining, steps: outcome.steps, number: outcome.number });
    drawn.push(outcome.number);
  }
  return { commitment, hashes, text: digestText(input), digest, draws };
}

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 23, 10, minutes)).toISOString();

/**
 * The proof GET /api/verify/{code} would answer for the game after `drawCount` draws (all of its
 * positions by default), built with the domain's own functions. The seed is revealed only once the
 * game has ended; totals only once it is settled.
 */
export async function buildProof(
  game: ExampleGame,
  options: { status?: GameStatus; drawCount?: number } = {},
): Promise<GameProof> {
  const status = options.status ?? 'settled';
  const drawCount = options.drawCount ?? (status === 'settled' ? game.prizes.length : 0);
  const { commitment, hashes, digest, draws } = await compute(game, drawCount);
  const entries = sortedEntries(game);
  const prizes = sortedPrizes(game);
  const pool = entries.length * game.betCents;
  const byNumber = new Map(entries.map((e) => [e.number, e]));
  let totalPrize = 0;
  const proofDraws = draws.map((d, index) => {
    const entry = byNumber.get(d.number);
    const prize = entry ? prizeFor(pool, (prizes[index] as { percentBps: number }).percentBps) : 0;
    totalPrize += prize;
    return {
      position: d.k,
      number: d.number,
      drawnAt: at(10 + d.k),
      winner: entry
        ? { number: entry.number, name: maskName(entry.name), phoneNumber: maskPhone(entry.phoneNumber) }
        : null,
      prizeAmount: formatCents(prize),
    };
  });
  const ended = status === 'settled' || status === 'voided' || status === 'discarded';
  return {
    algorithm: DRAW_ALGORITHM,
    code: game.code,
    shopName: game.shopName,
    status,
    openedAt: at(0),
    endedAt: ended ? at(20) : null,
    startRange: game.startRange,
    endRange: game.endRange,
    betAmount: formatCents(game.betCents),
    betCents: game.betCents,
    prizes: prizes.map((p) => ({ ...p, percent: formatBps(p.percentBps) })),
    entries: entries.map((e, i) => ({
      number: e.number,
      name: maskName(e.name),
      phoneNumber: maskPhone(e.phoneNumber),
      entryHash: hashes[i] as string,
    })),
    entriesDigest: digest,
    commitment,
    beacon: null,
    frozenAt: drawCount > 0 ? at(11) : null,
    draws: proofDraws,
    unplayedDraws: [],
    pool: formatCents(pool),
    totalPrize: status === 'settled' ? formatCents(totalPrize) : null,
    commission: status === 'settled' ? formatCents(pool - totalPrize) : null,
    voidReason: status === 'voided' ? 'Example' : null,
    voidedBy: null,
    serverSeed: ended ? game.serverSeed : null,
  };
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
  return [
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
}

/** The page's worked example, between its `worked-example` markers. */
export async function renderWorkedExample(game: ExampleGame): Promise<string> {
  const c = await compute(game, game.prizes.length);
  const entries = sortedEntries(game);
  const proof = await buildProof(game);
  const pool = entries.length * game.betCents;
  const prizes = sortedPrizes(game);
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
        `| ${e.number} | ${e.name} | \`${e.phoneNumber}\` | \`${JSON.stringify(`${e.number}\n${e.name}\n${e.phoneNumber}`)}\` | \`${c.hashes[i]}\` |`,
    ),
    '',
  );
  out.push(
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
  );
  out.push('**Draws** (the seed is the HMAC key):', '', '```text', ...c.draws.flatMap((d) => [...renderDraw(d), '']));
  out.pop();
  out.push('```', '');
  let total = 0;
  out.push(
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
  );
  out.push(
    `**The proof** that \`GET /api/verify/${game.code}\` answers once the game is settled:`,
    '',
    '```json',
    JSON.stringify(proof, null, 2),
    '```',
  );
  return out.join('\n');
}

/** The page's example of a rejected attempt, between its `rejection-example` markers. */
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
