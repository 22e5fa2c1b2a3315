import { BEACON_SCHEME, firstRoundAfter, QUICKNET, randomnessOf, roundTimeMs, verifyBeaconRound } from './beacon.ts';
import {
  canonicalName,
  canonicalName1,
  canonicalPhone,
  canonicalPhone1,
  commitmentOf,
  commitmentOf2,
  drawAt,
  DRAW_ALGORITHM,
  DRAW_ALGORITHM_2,
  entriesDigest,
  type DrawEntry,
  entryHash,
  fromHex,
  SEED_BYTES,
} from './draw.ts';
import { formatBps, prizeFor } from './game.ts';
import { formatCents, parseAmountToCents } from './money.ts';
import type { GameBeacon, GameDraw, GameProof } from './schemas/games.ts';
import { type GameLogReport, type LogPins, NO_LOG_PINS, verifyGameLog } from './verify-log.ts';

/**
 * Re-checks a game's proof (GET /api/verify/{code}) exactly as docs/lot-draw-1.md and
 * docs/lot-draw-2.md describe it, step by step, so the verify page can say which part fails. Nothing
 * here trusts the server: every figure is recomputed from the seed, the digest's inputs, the entries
 * and — for LOT-DRAW-2 — the beacon round, whose signature is checked against a pinned chain key.
 */

export type ProofCheck = { name: string; ok: boolean; detail: string };

export type ProofReport = {
  /**
   * verified: ended and every check passes; pending: nothing wrong so far, but the outcome cannot be
   * recomputed yet (`waitingFor` says why); unpinned: a LOT-DRAW-2 game on a chain this verifier does
   * not pin (not one of its hashes at all), every other check passing — nothing is wrong that can be
   * seen, but its randomness cannot be checked until the chain is pinned (`unpinnedChainText`);
   * failed: a check failed.
   */
  verdict: 'verified' | 'pending' | 'unpinned' | 'failed';
  /**
   * What a pending proof waits for: `beacon`, round R's signature (LOT-DRAW-2: a frozen game before
   * R exists, or a game voided before R was fetched); else `seed`, revealed when the game ends.
   * Null unless pending.
   */
  waitingFor: 'seed' | 'beacon' | null;
  checks: ProofCheck[];
  /**
   * The freeze in the game log: "In the game log" and "Freeze witnessed before round R", each
   * pass, fail or not applicable; a failing one is also in `checks` (and fails the verdict).
   */
  log: GameLogReport;
};

/**
 * A beacon chain the verifier trusts: drand quicknet unless the caller pins another. All four
 * figures are pinned: the genesis time and the period decide which round is R, so a proof that
 * named the right key with another clock could point at a round published before its freeze.
 */
export type PinnedChain = { chainHash: string; publicKey: string; genesisTime: number; period: number; name: string };

export const DEFAULT_PINS: readonly PinnedChain[] = [
  {
    chainHash: QUICKNET.chainHash,
    publicKey: QUICKNET.publicKey,
    genesisTime: QUICKNET.genesisTime,
    period: QUICKNET.period,
    name: 'drand quicknet',
  },
];

export { UNPINNED_CHAIN, unpinnedChainText } from './unpinned-chain.ts';
export {
  IN_LOG,
  NO_COSIGNATURE,
  NO_LOG_PINS,
  NOT_WITNESSED,
  WITNESSED,
  WITNESSING_FAILED,
  type GameLogReport,
  type LogPins,
} from './verify-log.ts';

const ENDED = new Set(['settled', 'voided', 'discarded']);

/** What a discarded game's proof says, and all it says (docs/product/game.md#discarded-proof). */
export const DISCARDED_TEXT = 'Discarded — nothing was drawn';

/**
 * A discarded game that is what it says: stopped before its first draw, so there is nothing to
 * check. A proof that says discarded but lists draws is checked like any other (and fails).
 */
export const isCleanlyDiscarded = (proof: Pick<GameProof, 'status' | 'draws' | 'unplayedDraws'>): boolean =>
  proof.status === 'discarded' && proof.draws.length === 0 && proof.unplayedDraws.length === 0;

/**
 * Check 10, Beacon round (docs/lot-draw-2.md section 4): R is after L, the latest public round at
 * the freeze, and published after the freeze. A proof without L (a game frozen before L was
 * recorded, decision 076) is held to the rule it froze under: R is the first round after the freeze.
 */
function roundCheck(beacon: GameBeacon, frozenAtText: string | null): { ok: boolean; detail: string } {
  const frozenAt = frozenAtText === null ? NaN : Date.parse(frozenAtText);
  const R = beacon.round;
  if (Number.isNaN(frozenAt)) return { ok: false, detail: 'the freeze time is missing' };
  if (R === null || !Number.isSafeInteger(R) || R < 1) return { ok: false, detail: 'the proof names no round R' };
  const at = new Date(roundTimeMs(beacon, R)).toISOString();
  if (beacon.expectedAt === null || Date.parse(beacon.expectedAt) !== roundTimeMs(beacon, R)) {
    return { ok: false, detail: `round ${R} is published at ${at}, the proof says ${String(beacon.expectedAt)}` };
  }
  const L = beacon.latestRound ?? null;
  if (L === null) {
    const target = firstRoundAfter(beacon, frozenAt);
    return target === R
      ? {
          ok: true,
          detail: `round ${R} is the first published after the freeze at ${frozenAtText} (at ${at}); the latest public round at the freeze was not recorded then`,
        }
      : { ok: false, detail: `the first round after the freeze at ${frozenAtText} is ${target}, the proof uses ${R}` };
  }
  if (!Number.isSafeInteger(L) || L < 1 || L >= R) {
    return { ok: false, detail: `round ${R} is not after round ${L}, the latest public round at the freeze` };
  }
  if (roundTimeMs(beacon, R) <= frozenAt) {
    return { ok: false, detail: `round ${R} was published at ${at}, not after the freeze at ${frozenAtText}` };
  }
  return {
    ok: true,
    detail: `round ${R} is after round ${L}, the latest public round at the freeze at ${frozenAtText}, and published after it (at ${at})`,
  };
}

export async function verifyProof(
  proof: GameProof,
  pins: readonly PinnedChain[] = DEFAULT_PINS,
  logPins: LogPins = NO_LOG_PINS,
): Promise<ProofReport> {
  const checks: ProofCheck[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });

  const v2 = proof.algorithm === DRAW_ALGORITHM_2;
  check(
    'Algorithm',
    proof.algorithm === DRAW_ALGORITHM || v2,
    `${proof.algorithm} (expected ${DRAW_ALGORITHM} or ${DRAW_ALGORITHM_2})`,
  );

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
  const beacon = proof.beacon;
  if (seed === null) {
    check('Server seed', !ended, ended ? 'the game has ended but its seed is missing' : 'secret until the game ends');
  } else {
    const seedOk = fromHex(seed, SEED_BYTES) !== null;
    const commitment = !seedOk
      ? null
      : v2
        ? beacon
          ? await commitmentOf2(seed, beacon)
          : null
        : await commitmentOf(seed);
    check(
      'Commitment',
      commitment === proof.commitment,
      !seedOk
        ? 'the seed is not 64 lowercase hex characters'
        : commitment === null
          ? 'a LOT-DRAW-2 commitment covers the beacon, and the proof names none'
          : commitment === proof.commitment
            ? `SHA-256(${v2 ? 'protocol, beacon and seed' : 'seed'}) = ${commitment}`
            : `SHA-256(${v2 ? 'protocol, beacon and seed' : 'seed'}) = ${commitment}, the proof says ${proof.commitment}`,
    );
  }

  // LOT-DRAW-2: the pinned chain, the round after the freeze, its signature (docs/lot-draw-2.md).
  let randomness: string | undefined;
  let beaconOk = true;
  let waitingForBeacon = false;
  // A chain none of the pins names by its hash (quicknet's hash with another key or clock is a
  // forgery, not another chain): its rounds cannot be checked, only pinned.
  let unpinned = false;
  if (v2) {
    const pin =
      beacon &&
      pins.find(
        (p) =>
          p.chainHash === beacon.chainHash &&
          p.publicKey === beacon.publicKey &&
          p.genesisTime === beacon.genesisTime &&
          p.period === beacon.period,
      );
    check(
      'Beacon chain',
      Boolean(pin),
      !beacon
        ? 'a LOT-DRAW-2 proof must name its beacon'
        : pin
          ? `${pin.name} (chain ${beacon.chainHash.slice(0, 16)}…, pinned: public key, genesis ${beacon.genesisTime}, period ${beacon.period} s)`
          : `chain ${beacon.chainHash.slice(0, 16)}… with this public key, genesis and period is not a chain this verifier pins`,
    );
    beaconOk = Boolean(pin);
    unpinned = Boolean(beacon) && !pins.some((p) => p.chainHash === beacon?.chainHash);
    // A LOT-DRAW-2 game is frozen from its first draw request on: drawing (perhaps with nothing drawn
    // yet), settled, or voided (stopped before the freeze, a game is discarded instead).
    const frozen = proof.status === 'drawing' || proof.status === 'settled' || proof.status === 'voided';
    if (beacon && pin && frozen) {
      const named = roundCheck(beacon, proof.frozenAt);
      check('Beacon round', named.ok, named.detail);
      beaconOk &&= named.ok;
      if (beacon.signature !== null && beacon.round !== null) {
        const signed = verifyBeaconRound(
          { publicKey: beacon.publicKey, scheme: BEACON_SCHEME },
          beacon.round,
          beacon.signature,
        );
        const randomOk = signed && randomnessOf(beacon.signature) === beacon.randomness;
        check(
          'Beacon signature',
          randomOk,
          !signed
            ? `the signature of round ${beacon.round} does not verify against the chain's public key`
            : randomOk
              ? `round ${beacon.round} signed by the chain; randomness = SHA-256(signature) = ${beacon.randomness}`
              : `the randomness is not SHA-256 of round ${beacon.round}'s signature`,
        );
        beaconOk &&= randomOk;
        if (randomOk) randomness = beacon.randomness ?? undefined;
      } else {
        const waiting = proof.draws.length === 0 && proof.status !== 'settled';
        check(
          'Beacon signature',
          waiting,
          waiting
            ? `round ${String(beacon.round)} is not in the proof yet: nothing can be drawn before it${
                proof.status === 'voided' ? ', and the draws the void left undrawn are shown once it is' : ''
              }`
            : 'numbers were drawn without the beacon round they depend on',
        );
        beaconOk = false;
        waitingForBeacon = waiting;
      }
    }
  }
  const canRecompute =
    seed !== null && fromHex(seed, SEED_BYTES) !== null && rangeOk && (!v2 || (beaconOk && randomness !== undefined));

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
  const checkDraw = async (draw: GameDraw, index: number, label: string) => {
    const k = index + 1;
    if (canRecompute && seed !== null && drawn.length < proof.endRange - proof.startRange + 1) {
      const expected = (await drawAt(seed, proof.entriesDigest, k, proof, drawn, randomness)).number;
      check(
        `${label} ${k}`,
        expected === draw.number,
        `${proof.algorithm} gives ${expected}, the proof says ${draw.number}`,
      );
    } else {
      // Not recomputable: the seed is still secret, or — a check above fails then — the seed, the
      // range or (LOT-DRAW-2) the beacon round is not right. A draw must still be a number of the
      // range not drawn before.
      const fresh =
        Number.isInteger(draw.number) &&
        draw.number >= proof.startRange &&
        draw.number <= proof.endRange &&
        !drawn.includes(draw.number);
      const why =
        seed === null
          ? 'the seed is still secret'
          : v2 && randomness === undefined
            ? 'no verified beacon round'
            : 'the seed or the range is not right';
      check(`${label} ${k}`, fresh, `${draw.number}: within the range and not drawn before (not recomputed: ${why})`);
    }
    drawn.push(draw.number);
    const prize = proof.prizes[index];
    const entry = byNumber.get(draw.number);
    const prizeAmount = entry && prize ? prizeFor(pool, prize.percentBps) : 0;
    // The winner is shown exactly as the entry is (both masked the same way). Not re-masked: masking
    // '****1234' again gives '****', which would let any phone pass.
    const winnerOk = entry
      ? draw.winner !== null &&
        draw.winner.number === entry.number &&
        draw.winner.name === entry.name &&
        draw.winner.phoneNumber === entry.phoneNumber
      : draw.winner === null;
    check(
      `${label === 'Draw' ? 'Winner' : 'Unplayed winner'} ${k}`,
      winnerOk && parseAmountToCents(draw.prizeAmount) === prizeAmount,
      entry ? `number ${draw.number} was chosen: prize ${formatCents(prizeAmount)}` : `nobody chose ${draw.number}`,
    );
    return prizeAmount;
  };
  for (const [index, draw] of proof.draws.entries()) totalPrize += await checkDraw(draw, index, 'Draw');

  // A game voided after its freeze: its outcome was already fixed. The proof lists the draws it would
  // have made; every one is recomputed like a real draw (and none was paid). A LOT-DRAW-1 game voided
  // before its freeze time was recorded (frozenAt null) lists none.
  // On an unpinned chain they are listed once the round is in the proof (they are checked as any
  // draw that cannot be recomputed).
  const unplayedKnown = canRecompute || (unpinned && beacon?.signature != null);
  const unplayedExpected =
    proof.status === 'voided' && unplayedKnown && (v2 || proof.frozenAt !== null)
      ? Math.max(0, proof.prizes.length - proof.draws.length)
      : 0;
  check(
    'Unplayed draws',
    proof.unplayedDraws.length === unplayedExpected &&
      proof.unplayedDraws.every((d, i) => d.position === proof.draws.length + i + 1),
    unplayedExpected === 0 && proof.unplayedDraws.length === 0
      ? proof.status === 'voided'
        ? 'every position was drawn before the void, or the outcome cannot be recomputed yet'
        : 'none (the game was not voided after its freeze)'
      : `${proof.unplayedDraws.length} of the ${unplayedExpected} positions the void left undrawn, shown as not paid`,
  );
  for (const [offset, draw] of proof.unplayedDraws.entries())
    await checkDraw(draw, proof.draws.length + offset, 'Unplayed draw');

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

  // The game log (docs/lot-draw-2.md#checking-the-game-log): a check that applies is one more check.
  const log = verifyGameLog(proof, logPins);
  for (const c of [log.inLog, log.witnessed]) if (c.status !== 'na') check(c.name, c.status === 'pass', c.detail);

  const failures = checks.filter((c) => !c.ok);
  if (unpinned && failures.length === 1 && failures[0]?.name === 'Beacon chain')
    return { verdict: 'unpinned', waitingFor: null, checks, log };
  const failed = failures.length > 0;
  const waitingFor = failed ? null : waitingForBeacon ? 'beacon' : !ended ? 'seed' : null;
  return { verdict: failed ? 'failed' : waitingFor ? 'pending' : 'verified', waitingFor, checks, log };
}

/**
 * The forms an entry of this person may have been hashed in (docs/lot-draw-2.md#entries): the
 * canonical form of today; the first canonical form, with the name and phone as typed and as folded
 * today, and the phone with and without `00` (so `Orsted` typed finds an entry of then written
 * `Orsted`, and `+49 …` one written `0049 …`; one written `Ørsted` is found only as `Ørsted`); as
 * typed. Without a nonce, only as typed: the entries from before nonces.
 */
function entryForms(number: number, person: { name: string; phoneNumber: string }, nonce: string | null): DrawEntry[] {
  if (!nonce) return [{ number, ...person }];
  const forms: DrawEntry[] = [{ number, ...person, nonce, canonical: 2 }];
  const phone = canonicalPhone(person.phoneNumber);
  const seen = new Set<string>();
  for (const name of [canonicalName1(person.name), canonicalName(person.name)])
    for (const phoneNumber of [canonicalPhone1(person.phoneNumber), phone, `00${phone}`]) {
      if (seen.has(`${name}\n${phoneNumber}`)) continue;
      seen.add(`${name}\n${phoneNumber}`);
      forms.push({ number, name, phoneNumber, nonce, canonical: true });
    }
  forms.push({ number, ...person, nonce });
  return forms;
}

/**
 * A participant types their name and phone, and the nonce printed on their slip (or read from its
 * QR code): every number they hold in the game, ascending (empty when none matches). Entries added
 * since names and phones are hashed in canonical form match whatever the case, spacing, accents and
 * letters like `ø`, `æ`, `ß`, `ł` of the name and whatever the punctuation and international prefix
 * (`+` or `00`) of the phone; older ones as `entryForms` says. Entries from before LOT-DRAW-2 carry
 * no nonce and are found by name and phone alone, whether or not a nonce is typed; an entry with a
 * nonce is found only with its nonce.
 */
export async function findOwnEntries(
  proof: Pick<GameProof, 'entries'>,
  typed: { name: string; phoneNumber: string; nonce?: string | null },
): Promise<number[]> {
  const nonce = typed.nonce?.replace(/[\s-]+/g, '').toLowerCase() || null;
  const person = { name: typed.name.trim(), phoneNumber: typed.phoneNumber.trim() };
  const found: number[] = [];
  for (const entry of proof.entries) {
    const forms = nonce
      ? [{ number: entry.number, ...person }, ...entryForms(entry.number, person, nonce)]
      : entryForms(entry.number, person, null);
    for (const form of forms) {
      if ((await entryHash(form)) === entry.entryHash) {
        found.push(entry.number);
        break;
      }
    }
  }
  return found.sort((a, b) => a - b);
}
