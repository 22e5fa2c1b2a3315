import { commitmentOf, drawAt, DRAW_ALGORITHM, entriesDigest, entryHash, fromHex, SEED_BYTES } from './draw.ts';
import { formatBps, prizeFor } from './game.ts';
import { formatCents, parseAmountToCents } from './money.ts';
import type { GameProof } from './schemas/games.ts';

/**
 * Re-checks a game's proof (GET /api/verify/{code}) exactly as docs/lot-draw-1.md describes it,
 * step by step, so the verify page can say which part fails. Nothing here trusts the server: every
 * figure is recomputed from the seed, the digest's inputs and the entries.
 */

export type ProofCheck = { name: string; ok: boolean; detail: string };

export type ProofReport = {
  /** verified: ended and every check passes; pending: nothing wrong so far, the seed is still secret. */
  verdict: 'verified' | 'pending' | 'failed';
  checks: ProofCheck[];
};

const ENDED = new Set(['settled', 'voided', 'discarded']);

export async function verifyProof(proof: GameProof): Promise<ProofReport> {
  const checks: ProofCheck[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });

  check('Algorithm', proof.algorithm === DRAW_ALGORITHM, `${proof.algorithm} (expected ${DRAW_ALGORITHM})`);

  const bet = parseAmountToCents(proof.betAmount);
  check('Bet', bet === proof.betCents, `${proof.betAmount} is ${proof.betCents} cents`);
  const rangeOk =
    Number.isInteger(proof.startRange) &&
    Number.isInteger(proof.endRange) &&
    proof.startRange >= 1 &&
    proof.startRange < proof.endRange &&
    proof.endRange <= 100;
  check('Range', rangeOk, `${proof.startRange} to ${proof.endRange}`);

  // Draw k pays the k-th prize in ascending order of position, so the list must be in that order.
  const prizesOk = proof.prizes.every(
    (p, i) =>
      Number.isInteger(p.position) &&
      p.position >= 1 &&
      (i === 0 || p.position > (proof.prizes[i - 1]?.position ?? 0)) &&
      Number.isInteger(p.percentBps) &&
      p.percentBps >= 0 &&
      p.percentBps <= 10_000 &&
      p.percent === formatBps(p.percentBps),
  );
  check(
    'Prizes',
    prizesOk,
    `${proof.prizes.length} positions in ascending order: ${proof.prizes.map((p) => `${p.percent} %`).join(', ')}`,
  );

  const numbers = proof.entries.map((e) => e.number);
  const entriesOk =
    new Set(numbers).size === numbers.length &&
    numbers.every((n) => Number.isInteger(n) && n >= proof.startRange && n <= proof.endRange) &&
    proof.entries.every((e) => /^[0-9a-f]{64}$/.test(e.entryHash));
  check('Entries', entriesOk, `${proof.entries.length} entries, each number once and within the range`);

  const digest = await entriesDigest({
    code: proof.code,
    startRange: proof.startRange,
    endRange: proof.endRange,
    betCents: proof.betCents,
    prizes: proof.prizes,
    entries: proof.entries,
  });
  check(
    'Entries digest',
    digest === proof.entriesDigest,
    digest === proof.entriesDigest ? digest : `recomputed ${digest}, the proof says ${proof.entriesDigest}`,
  );

  const pool = proof.entries.length * proof.betCents;
  check(
    'Pool',
    parseAmountToCents(proof.pool) === pool,
    `${proof.entries.length} × ${formatCents(proof.betCents)} = ${formatCents(pool)}`,
  );

  const ended = ENDED.has(proof.status);
  const seed = proof.serverSeed;
  if (seed === null) {
    check('Server seed', !ended, ended ? 'the game has ended but its seed is missing' : 'secret until the game ends');
  } else {
    const commitment = fromHex(seed, SEED_BYTES) ? await commitmentOf(seed) : null;
    check(
      'Commitment',
      commitment === proof.commitment,
      commitment === null
        ? 'the seed is not 64 lowercase hex characters'
        : commitment === proof.commitment
          ? `SHA-256(seed) = ${commitment}`
          : `SHA-256(seed) = ${commitment}, the proof says ${proof.commitment}`,
    );
  }

  const byNumber = new Map(proof.entries.map((e) => [e.number, e]));
  // open and discarded: nothing drawn (a game voided before its first draw is discarded); drawing
  // and voided: not every position (the last draw settles the game in the same transaction).
  const drawCount = proof.draws.length;
  const allDrawn = drawCount === proof.prizes.length;
  const statusOk =
    proof.status === 'settled'
      ? allDrawn
      : proof.status === 'open' || proof.status === 'discarded'
        ? drawCount === 0
        : !allDrawn;
  check(
    'Draw count',
    drawCount <= proof.prizes.length && proof.draws.every((d, i) => d.position === i + 1) && statusOk,
    `${drawCount} of ${proof.prizes.length} positions drawn, in order, for a game that is ${proof.status}`,
  );

  const drawn: number[] = [];
  let totalPrize = 0;
  for (const [index, draw] of proof.draws.entries()) {
    const k = index + 1;
    if (seed !== null && fromHex(seed, SEED_BYTES) && rangeOk && drawn.length < proof.endRange - proof.startRange + 1) {
      const expected = (await drawAt(seed, proof.entriesDigest, k, proof, drawn)).number;
      check(`Draw ${k}`, expected === draw.number, `LOT-DRAW-1 gives ${expected}, the proof says ${draw.number}`);
    } else if (seed === null) {
      // The seed is still secret, but a draw must still be a number of the range not drawn before.
      const fresh =
        Number.isInteger(draw.number) &&
        draw.number >= proof.startRange &&
        draw.number <= proof.endRange &&
        !drawn.includes(draw.number);
      check(`Draw ${k}`, fresh, `${draw.number}: within the range and not drawn before (the seed is still secret)`);
    }
    drawn.push(draw.number);
    const prize = proof.prizes[index];
    const entry = byNumber.get(draw.number);
    const prizeAmount = entry && prize ? prizeFor(pool, prize.percentBps) : 0;
    totalPrize += prizeAmount;
    // The winner is shown exactly as the entry is (both masked the same way). Not re-masked: masking
    // '****1234' again gives '****', which would let any phone pass.
    const winnerOk = entry
      ? draw.winner !== null &&
        draw.winner.number === entry.number &&
        draw.winner.name === entry.name &&
        draw.winner.phoneNumber === entry.phoneNumber
      : draw.winner === null;
    check(
      `Winner ${k}`,
      winnerOk && parseAmountToCents(draw.prizeAmount) === prizeAmount,
      entry ? `number ${draw.number} was chosen: prize ${formatCents(prizeAmount)}` : `nobody chose ${draw.number}`,
    );
  }

  if (proof.status === 'settled') {
    check(
      'Total prize',
      proof.totalPrize !== null && parseAmountToCents(proof.totalPrize) === totalPrize,
      `prizes add up to ${formatCents(totalPrize)}`,
    );
    check(
      'Commission',
      proof.commission !== null && parseAmountToCents(proof.commission) === pool - totalPrize,
      `pool − prizes = ${formatCents(pool - totalPrize)}`,
    );
  }

  const failed = checks.some((c) => !c.ok);
  return { verdict: failed ? 'failed' : ended ? 'verified' : 'pending', checks };
}

/** A participant types their name and phone: the number of their entry in the game, or null. */
export async function findOwnEntry(
  proof: Pick<GameProof, 'entries'>,
  typed: { name: string; phoneNumber: string },
): Promise<number | null> {
  for (const entry of proof.entries) {
    const hash = await entryHash({
      number: entry.number,
      name: typed.name.trim(),
      phoneNumber: typed.phoneNumber.trim(),
    });
    if (hash === entry.entryHash) return entry.number;
  }
  return null;
}
