#!/usr/bin/env node
// Re-checks a BOCH BOCH game's proof with LOT-DRAW-1, independently of the LOT code: written from
// docs/lot-draw-1.md with Node's own crypto, fs and fetch only (Node 20 or later, nothing to install).
//
//   node scripts/verify-game.mjs https://host/verify/CODE        (the verify page's address)
//   node scripts/verify-game.mjs https://host/api/verify/CODE    (the proof itself)
//   node scripts/verify-game.mjs proof.json
//
// Prints every check, then `Verified` (exit 0), `Pending: …` (exit 2: nothing wrong so far, the
// seed is revealed when the game ends) or `FAILED: …` (exit 1, also for a proof that cannot be read).
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

const ALGORITHM = 'LOT-DRAW-1';
const ENDED = ['settled', 'voided', 'discarded'];
const HEX64 = /^[0-9a-f]{64}$/;

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** "10.00" (or "10", "10.5") → 1000 cents; anything else → null. */
function cents(text) {
  const match = typeof text === 'string' ? /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim()) : null;
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}
const money = (c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
const percentText = (bps) => `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;
const isInt = Number.isInteger;

/** Section 3 of the page: the digest text. */
function digestText(p) {
  const prizes = [...p.prizes].sort((a, b) => a.position - b.position).map((x) => [x.position, x.percentBps]);
  const entries = [...p.entries].sort((a, b) => a.number - b.number).map((x) => [x.number, x.entryHash]);
  return JSON.stringify([p.code, p.startRange, p.endRange, p.betCents, prizes, entries]);
}

/** Section 4 of the page: the k-th number, given the numbers drawn before it. */
function drawNumber(seedHex, digest, k, startRange, endRange, drawnBefore) {
  const key = Buffer.from(seedHex, 'hex');
  const remaining = [];
  for (let number = startRange; number <= endRange; number++) if (!drawnBefore.includes(number)) remaining.push(number);
  const n = remaining.length;
  const limit = Math.floor(2 ** 32 / n) * n;
  for (let c = 0; ; c++) {
    const h = createHmac('sha256', key).update(`${digest}:${k}:${c}`, 'utf8').digest();
    const x = h.readUInt32BE(0);
    if (x < limit) return { number: remaining[x % n], attempts: c + 1 };
  }
}

function verify(p) {
  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok: Boolean(ok), detail });

  check('Algorithm', p.algorithm === ALGORITHM, `${p.algorithm}`);

  check('Bet', cents(p.betAmount) === p.betCents, `${p.betAmount} = ${p.betCents} cents`);

  const rangeOk = isInt(p.startRange) && isInt(p.endRange) && p.startRange >= 1 && p.startRange < p.endRange;
  check('Range', rangeOk && p.endRange <= 100, `${p.startRange} to ${p.endRange}`);

  const prizesOk = p.prizes.every(
    (x, i) =>
      isInt(x.position) &&
      x.position >= 1 &&
      (i === 0 || x.position > p.prizes[i - 1].position) &&
      isInt(x.percentBps) &&
      x.percentBps >= 0 &&
      x.percentBps <= 10000 &&
      x.percent === percentText(x.percentBps),
  );
  check('Prizes', prizesOk, p.prizes.map((x) => `position ${x.position}: ${x.percent} %`).join(', '));

  const numbers = p.entries.map((e) => e.number);
  check(
    'Entries',
    new Set(numbers).size === numbers.length &&
      numbers.every((n) => isInt(n) && n >= p.startRange && n <= p.endRange) &&
      p.entries.every((e) => HEX64.test(e.entryHash)),
    `${p.entries.length} entries: ${numbers.join(', ')}`,
  );

  const digest = sha256(Buffer.from(digestText(p), 'utf8'));
  check('Entries digest', digest === p.entriesDigest, `SHA-256 of the digest text = ${digest}`);

  const pool = p.entries.length * p.betCents;
  check('Pool', cents(p.pool) === pool, `${p.entries.length} × ${money(p.betCents)} = ${money(pool)}`);

  const ended = ENDED.includes(p.status);
  const seed = p.serverSeed;
  const seedOk = typeof seed === 'string' && HEX64.test(seed);
  if (seed === null || seed === undefined) {
    check('Server seed', !ended, ended ? `missing, but the game is ${p.status}` : `secret while ${p.status}`);
  } else {
    const commitment = seedOk ? sha256(Buffer.from(seed, 'hex')) : null;
    check(
      'Commitment',
      commitment !== null && commitment === p.commitment,
      commitment === null ? 'the seed is not 64 lowercase hex characters' : `SHA-256(seed bytes) = ${commitment}`,
    );
  }

  const count = p.draws.length;
  const all = count === p.prizes.length;
  const statusOk =
    p.status === 'settled'
      ? all
      : p.status === 'open' || p.status === 'discarded'
        ? count === 0
        : p.status === 'drawing' || p.status === 'voided'
          ? !all
          : false;
  check(
    'Draw count',
    count <= p.prizes.length && p.draws.every((d, i) => d.position === i + 1) && statusOk,
    `${count} of ${p.prizes.length} positions drawn, game ${p.status}`,
  );

  const byNumber = new Map(p.entries.map((e) => [e.number, e]));
  const drawn = [];
  let total = 0;
  p.draws.forEach((d, i) => {
    const k = i + 1;
    const size = p.endRange - p.startRange + 1;
    if (seedOk && rangeOk && drawn.length < size) {
      const { number, attempts } = drawNumber(seed, p.entriesDigest, k, p.startRange, p.endRange, drawn);
      check(
        `Draw ${k}`,
        number === d.number,
        `${number}${attempts > 1 ? ` (after ${attempts - 1} rejected attempt)` : ''}; the proof says ${d.number}`,
      );
    } else if (seed === null || seed === undefined) {
      check(
        `Draw ${k}`,
        isInt(d.number) && d.number >= p.startRange && d.number <= p.endRange && !drawn.includes(d.number),
        `${d.number}, in the range and not drawn before (seed still secret)`,
      );
    }
    drawn.push(d.number);
    const entry = byNumber.get(d.number);
    const prize = entry && p.prizes[i] ? Number((BigInt(pool) * BigInt(p.prizes[i].percentBps)) / 10000n) : 0;
    total += prize;
    const winnerOk = entry
      ? d.winner != null &&
        d.winner.number === entry.number &&
        d.winner.name === entry.name &&
        d.winner.phoneNumber === entry.phoneNumber
      : d.winner === null;
    check(
      `Winner ${k}`,
      winnerOk && cents(d.prizeAmount) === prize,
      entry ? `${d.number} chosen by ${entry.name} (${entry.phoneNumber}): ${money(prize)}` : `${d.number}: no winner`,
    );
  });

  if (p.status === 'settled') {
    check('Total prize', cents(p.totalPrize) === total, `prizes paid add up to ${money(total)}`);
    check('Commission', cents(p.commission) === pool - total, `pool − prizes = ${money(pool - total)}`);
  }

  const failed = checks.filter((c) => !c.ok);
  return { checks, failed, ended };
}

/** A proof address: the page /verify/CODE maps to the API's /api/verify/CODE. */
function proofUrl(address) {
  const url = new URL(address);
  url.pathname = url.pathname.replace(/^(.*?)(?:\/api)?\/verify\/([^/]+)\/?$/, '$1/api/verify/$2');
  return url;
}

async function readProof(source) {
  if (/^https?:\/\//i.test(source)) {
    const url = proofUrl(source);
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(readFileSync(source, 'utf8'));
}

async function main() {
  const source = process.argv[2];
  if (!source) {
    console.error('usage: node scripts/verify-game.mjs <https://host/verify/CODE | proof.json>');
    return 1;
  }
  let proof;
  let result;
  try {
    proof = await readProof(source);
    for (const list of ['prizes', 'entries', 'draws'])
      if (!Array.isArray(proof?.[list])) throw new Error(`the proof has no ${list} list`);
    result = verify(proof);
  } catch (error) {
    console.log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  console.log(`${ALGORITHM} proof of game ${proof.code} (${proof.shopName ?? 'unknown shop'}), status ${proof.status}`);
  for (const c of result.checks) console.log(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`);
  if (result.failed.length > 0) {
    console.log(`FAILED: ${result.failed.map((c) => c.name).join(', ')}`);
    return 1;
  }
  if (!result.ended) {
    console.log(`Pending: the game is ${proof.status}; the server seed is revealed when it ends`);
    return 2;
  }
  console.log('Verified');
  return 0;
}

process.exitCode = await main();
