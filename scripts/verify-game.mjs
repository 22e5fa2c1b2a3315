#!/usr/bin/env node
// Re-checks a BOCH BOCH game's proof, LOT-DRAW-1 or LOT-DRAW-2, independently of the LOT code:
// written from docs/lot-draw-1.md and docs/lot-draw-2.md with Node's own crypto, fs and fetch, and —
// for LOT-DRAW-2's beacon signature only — @noble/curves (installed by `npm ci` in this repository;
// LOT-DRAW-1 proofs need nothing installed). Node 20 or later.
//
//   node scripts/verify-game.mjs https://host/verify/CODE        (the verify page's address)
//   node scripts/verify-game.mjs https://host/api/verify/CODE    (the proof itself)
//   node scripts/verify-game.mjs proof.json
//   node scripts/verify-game.mjs proof.json --chain HASH --public-key HEX --genesis-time SECONDS --period SECONDS
//   node scripts/verify-game.mjs https://host/verify/CODE --log-key VKEY --witness VKEY [--witness VKEY …] [--quorum N]
//
// drand quicknet is pinned; --chain … pins another drand chain besides it (all four figures: the
// genesis time and the period decide which round is R). Prints every check, named as the verify
// page names it, then `Verified` (exit 0), `Pending: …` (exit 2: nothing wrong so far, but the seed
// is revealed when the game ends, or the beacon round is not in the proof yet) or `FAILED: …` and
// the failed checks' names (exit 1, also for a proof or options that cannot be read). A game
// discarded before its first draw has nothing to check: the one line `Discarded — nothing was
// drawn` (exit 0); a proof that says discarded but lists draws is checked, and fails.
//
// --log-key pins the game log's verifier key (C2SP signed-note vkey, as GET /api/log names it and
// as the operator publishes it) and --witness each witness's cosignature/v1 vkey: the checks "In
// the game log" (the log's signature on the checkpoint, the game's own `frozen` leaf, its RFC 6962
// inclusion proof) and "Freeze witnessed before round R" (a quorum — all the witnesses unless
// --quorum says — cosigned at least 1 s before R) then run, with Node's Ed25519
// (docs/lot-draw-2.md#checking-the-game-log).
import { createHash, createHmac, createPublicKey, verify as verifySignature } from 'node:crypto';
import { readFileSync } from 'node:fs';

const V1 = 'LOT-DRAW-1';
const V2 = 'LOT-DRAW-2';
const ENDED = ['settled', 'voided', 'discarded'];
const HEX64 = /^[0-9a-f]{64}$/;
/** docs/lot-draw-2.md section 5: the hash-to-G1 domain separation tag of drand's quicknet scheme. */
const DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
/** drand quicknet (docs/decisions/033-public-randomness-beacon.md). */
const QUICKNET = {
  name: 'drand quicknet',
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisTime: 1692803367,
  period: 3,
};

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** "10.00" (or "10", "10.5") → 1000 cents; anything else → null. */
function cents(text) {
  const match = typeof text === 'string' ? /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim()) : null;
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}
const money = (c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
const percentText = (bps) => `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;
const isInt = Number.isInteger;
const iso = (ms) => new Date(ms).toISOString();

/** Section 3 of both pages: the digest text. */
function digestText(p) {
  const prizes = [...p.prizes].sort((a, b) => a.position - b.position).map((x) => [x.position, x.percentBps]);
  const entries = [...p.entries].sort((a, b) => a.number - b.number).map((x) => [x.number, x.entryHash]);
  return JSON.stringify([p.code, p.startRange, p.endRange, p.betCents, prizes, entries]);
}

/** LOT-DRAW-2 section 1: the commitment text. */
function commitmentText2(seedHex, b) {
  return JSON.stringify([V2, b.chainHash, b.publicKey, b.genesisTime, b.period, seedHex]);
}

/** LOT-DRAW-2 section 4: round r's time in ms, and the first round strictly after t (ms): R of a game frozen before L was recorded. */
const roundTime = (b, r) => (b.genesisTime + (r - 1) * b.period) * 1000;
function firstRoundAfter(b, t) {
  const since = t - b.genesisTime * 1000;
  return since < 0 ? 1 : Math.floor(since / (b.period * 1000)) + 2;
}

/**
 * LOT-DRAW-2 step 10: R after L (`latestRound`, the latest public round at the freeze) and published
 * after the freeze. A proof without L — a game frozen before L was recorded — is held to the rule it
 * froze under: R is the first round after the freeze.
 */
function roundCheck(b, frozenAt) {
  const t = frozenAt == null ? NaN : Date.parse(frozenAt);
  const R = b.round;
  if (Number.isNaN(t)) return { ok: false, detail: 'frozenAt is missing' };
  if (!isInt(R) || R < 1) return { ok: false, detail: 'the proof names no round R' };
  const due = roundTime(b, R);
  if (b.expectedAt == null || Date.parse(b.expectedAt) !== due)
    return { ok: false, detail: `R = ${R} is published at ${iso(due)}; the proof says ${b.expectedAt}` };
  const L = b.latestRound ?? null;
  if (L === null) {
    const target = firstRoundAfter(b, t);
    return target === R
      ? {
          ok: true,
          detail: `R = ${R}, the first round after the freeze at ${frozenAt}, published at ${iso(due)} (the latest public round at the freeze was not recorded then)`,
        }
      : { ok: false, detail: `the first round after the freeze at ${frozenAt} is ${target}; the proof uses ${R}` };
  }
  if (!isInt(L) || L < 1 || L >= R)
    return { ok: false, detail: `R = ${R} is not after ${L}, the latest public round at the freeze` };
  if (due <= t)
    return { ok: false, detail: `R = ${R} was published at ${iso(due)}, not after the freeze at ${frozenAt}` };
  return {
    ok: true,
    detail: `R = ${R}, after ${L} (the latest public round at the freeze at ${frozenAt}), published at ${iso(due)}`,
  };
}

/**
 * LOT-DRAW-2 section 5: whether `signatureHex` is the chain's BLS signature of round `round`: both
 * points decode, lie in their subgroups and are not infinity, and e(signature, g2) = e(H(m), pk)
 * with m = SHA-256 of the round as 8 bytes big-endian and H hash-to-G1 (RFC 9380) with DST.
 */
async function verifyRound(publicKeyHex, round, signatureHex) {
  let bls;
  try {
    ({ bls12_381: bls } = await import('@noble/curves/bls12-381.js'));
  } catch {
    return { ok: false, why: 'the BLS check needs @noble/curves: run `npm ci` in the repository first' };
  }
  try {
    if (!/^[0-9a-f]{96}$/.test(signatureHex) || !/^[0-9a-f]{192}$/.test(publicKeyHex) || !isInt(round) || round < 1)
      return { ok: false };
    const roundBytes = Buffer.alloc(8);
    roundBytes.writeBigUInt64BE(BigInt(round));
    const message = createHash('sha256').update(roundBytes).digest();
    const sigs = bls.shortSignatures;
    const signature = sigs.Signature.fromHex(signatureHex); // on the curve, in the subgroup
    const key = bls.G2.Point.fromHex(publicKeyHex);
    key.assertValidity();
    if (signature.is0() || key.is0()) return { ok: false };
    return { ok: sigs.verify(signature, sigs.hash(new Uint8Array(message), DST), key) };
  } catch {
    return { ok: false };
  }
}

/** Section 4 (LOT-DRAW-1) or 6 (LOT-DRAW-2): the k-th number, given the numbers drawn before it. */
function drawNumber(seedHex, digest, k, startRange, endRange, drawnBefore, randomness) {
  const key = Buffer.from(seedHex, 'hex');
  const remaining = [];
  for (let number = startRange; number <= endRange; number++) if (!drawnBefore.includes(number)) remaining.push(number);
  const n = remaining.length;
  const limit = Math.floor(2 ** 32 / n) * n;
  for (let c = 0; ; c++) {
    const message = randomness === undefined ? `${digest}:${k}:${c}` : `${V2}:${digest}:${randomness}:${k}:${c}`;
    const h = createHmac('sha256', key).update(message, 'utf8').digest();
    const x = h.readUInt32BE(0);
    if (x < limit) return { number: remaining[x % n], attempts: c + 1 };
  }
}

// ---- The game log (docs/lot-draw-2.md#checking-the-game-log) ----

const IN_LOG = 'In the game log';
const WITNESSED = 'Freeze witnessed before round R';
const NOT_WITNESSED = "Freeze not witnessed: the operator's clock and database are trusted";
const WITNESSING_FAILED =
  'Too few of the witnesses pinned here vouch for this freeze before round R: its draws are not proven fair.';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard padded base64, canonical (re-encodes to itself), or null. */
function unbase64(text) {
  if (typeof text !== 'string' || !BASE64.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/** A C2SP signed-note vkey `<name>+<hex key ID>+<base64(type ‖ key)>`, its ID recomputed; or an error text. */
function parseVkey(vkey, type) {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+(.+)$/.exec(vkey.trim());
  const key = match && unbase64(match[3]);
  if (!match || !key || key.length !== 33) return `${vkey} is not a verifier key <name>+<key ID>+<base64 key>`;
  if (key[0] !== type) return `${vkey} is not ${type === 1 ? 'an Ed25519 log' : 'a cosignature/v1 witness'} key`;
  const id = createHash('sha256')
    .update(Buffer.concat([Buffer.from(match[1], 'utf8'), Buffer.from([0x0a]), key]))
    .digest()
    .subarray(0, 4);
  if (id.toString('hex') !== match[2]) return `${vkey}: its key ID does not match its name and key`;
  return { name: match[1], keyId: match[2], publicKey: key.subarray(1) };
}

/** Ed25519 (RFC 8032) with Node's crypto: the raw 32-byte key wrapped as an SPKI DER key. */
function ed25519Ok(publicKey, message, signature) {
  try {
    const key = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]),
      format: 'der',
      type: 'spki',
    });
    return signature.length === 64 && verifySignature(null, message, key, signature);
  } catch {
    return false;
  }
}

/** A signed note: its text (up to and with the newline before the last blank line) and signature lines. */
function parseNote(note) {
  if (typeof note !== 'string') return null;
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return null;
  const signatures = [];
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const match = /^\u2014 (\S+) (\S+)$/u.exec(line);
    const bytes = match && unbase64(match[2]);
    if (!bytes || bytes.length < 5) return null;
    signatures.push({ name: match[1], keyId: bytes.subarray(0, 4).toString('hex'), bytes: bytes.subarray(4) });
  }
  return { text: note.slice(0, split + 1), signatures };
}

/** RFC 9162 section 2.1.3.2: does the proof lead from the leaf hash at `index` to `root`? */
function inclusionOk(leaf, index, size, proof, root) {
  if (!isInt(index) || !isInt(size) || index < 0 || index >= size) return false;
  const node = (l, r) =>
    createHash('sha256')
      .update(Buffer.from([1]))
      .update(l)
      .update(r)
      .digest();
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = node(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else r = node(r, p);
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** The `frozen` leaf the proof implies: its text, byte for byte (docs/lot-draw-2.md#the-game-log). */
function frozenLeafText(p) {
  const b = p.beacon ?? null;
  const lines = [
    'lot-game-log/v1',
    'event frozen',
    `code ${p.code}`,
    `entries-digest ${p.entriesDigest}`,
    // L, the latest public round at the freeze (`-` on a LOT-DRAW-1 game).
    `latest-round ${b?.latestRound ?? '-'}`,
    `round ${b?.round ?? '-'}`,
    `chain ${b?.chainHash ?? '-'}`,
    `frozen-at ${p.frozenAt ?? ''}`,
  ];
  return `${lines.join('\n')}\n`;
}

const names = (list) => (list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`);
const isoSeconds = (s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The two game-log checks, each { name, status: 'pass' | 'fail' | 'na', detail }, and the sentence
 * saying who witnessed the freeze (or that nobody did).
 */
function verifyLog(p, logPins) {
  const evidence = p.log ?? null;
  const frozen = ['drawing', 'settled', 'voided'].includes(p.status);
  const na = (name, detail) => ({ name, status: 'na', detail });
  const fail = (name, detail) => ({ name, status: 'fail', detail });
  const result = (inLog, witnessed, sentence) => ({ inLog, witnessed, sentence });
  if (!frozen)
    return result(
      na(IN_LOG, `the game is ${p.status}: its entries are not frozen yet`),
      na(WITNESSED, 'the game is not frozen yet'),
      '',
    );

  let inLog;
  let checked = null;
  const logKey = logPins.log === null ? null : parseVkey(logPins.log, 1);
  const freeze = evidence?.freeze;
  if (logKey === null)
    inLog = na(
      IN_LOG,
      evidence ? 'no log key pinned: pin it with --log-key' : 'the proof carries no game-log evidence',
    );
  else if (typeof logKey === 'string') inLog = fail(IN_LOG, `the pinned log key is not usable: ${logKey}`);
  else if (!evidence) inLog = fail(IN_LOG, 'the proof carries no game-log evidence for its freeze');
  else {
    const note = parseNote(freeze.checkpoint);
    const lines = note ? note.text.slice(0, -1).split('\n') : [];
    const root = lines.length >= 3 ? unbase64(lines[2]) : null;
    const size = /^(?:0|[1-9][0-9]*)$/.test(lines[1] ?? '') ? Number(lines[1]) : NaN;
    const mine = note ? note.signatures.filter((s) => s.name === logKey.name && s.keyId === logKey.keyId) : [];
    const signed =
      mine.length > 0 && mine.every((s) => ed25519Ok(logKey.publicKey, Buffer.from(note.text, 'utf8'), s.bytes));
    const expected = frozenLeafText(p);
    const path = Array.isArray(freeze.inclusion) ? freeze.inclusion.map(unbase64) : [null];
    if (!note) inLog = fail(IN_LOG, 'the checkpoint is not a signed note');
    else if (!signed)
      inLog = fail(
        IN_LOG,
        mine.length === 0
          ? `the checkpoint is not signed by the pinned log key ${logKey.name}`
          : `the signature of ${logKey.name} does not verify`,
      );
    else if (!root || root.length !== 32 || !Number.isSafeInteger(size))
      inLog = fail(IN_LOG, 'the checkpoint is malformed');
    else if (lines[0] !== logKey.name || lines[0] !== evidence.origin)
      inLog = fail(IN_LOG, `the checkpoint names the log ${lines[0]}, not ${logKey.name}`);
    else if (freeze.data !== expected)
      inLog = fail(IN_LOG, "the log's leaf is not this game's freeze (code, entries digest, round, chain and time)");
    else {
      const leaf = createHash('sha256')
        .update(Buffer.from([0]))
        .update(expected, 'utf8')
        .digest();
      if (path.some((h) => !h || h.length !== 32) || !inclusionOk(leaf, freeze.index, size, path, root))
        inLog = fail(IN_LOG, `the inclusion proof of leaf ${freeze.index} does not lead to the checkpoint's root`);
      else {
        checked = note;
        inLog = {
          name: IN_LOG,
          status: 'pass',
          detail: `the freeze is leaf ${freeze.index} of ${lines[0]}, in the tree of ${size} leaves its key signed`,
        };
      }
    }
  }

  if (p.algorithm !== V2) return result(inLog, na(WITNESSED, 'LOT-DRAW-1 waits for no beacon round'), '');
  if (!evidence) return result(inLog, na(WITNESSED, 'the proof carries no game-log evidence'), NOT_WITNESSED);
  const cosigners = (parseNote(freeze.checkpoint)?.signatures ?? []).filter((s) => s.bytes.length === 72);
  if (logPins.witnesses.length === 0)
    return result(
      inLog,
      na(
        WITNESSED,
        cosigners.length === 0
          ? 'no witness cosigned the checkpoint'
          : `cosigned by ${names(cosigners.map((s) => s.name))}, whose keys are not pinned: pin them with --witness`,
      ),
      NOT_WITNESSED,
    );
  if (checked === null)
    return result(
      inLog,
      fail(
        WITNESSED,
        inLog.status === 'na'
          ? 'pin the log key too (--log-key): a cosignature counts on a checkpoint the log signed'
          : 'the freeze is not in a checkpoint the pinned log signed',
      ),
      WITNESSING_FAILED,
    );
  const b = p.beacon;
  if (!b || !isInt(b.round)) return result(inLog, fail(WITNESSED, 'the proof names no round R'), WITNESSING_FAILED);
  const deadline = roundTime(b, b.round) / 1000 - 1;
  const counted = [];
  const problems = [];
  for (const vkey of logPins.witnesses) {
    const key = parseVkey(vkey, 4);
    if (typeof key === 'string') {
      problems.push(`the pinned witness key is not usable: ${key}`);
      continue;
    }
    const mine = checked.signatures.filter((s) => s.name === key.name && s.keyId === key.keyId);
    let good = null;
    for (const s of mine) {
      if (s.bytes.length !== 72) continue;
      const time = s.bytes.readBigUInt64BE(0);
      if (time > BigInt(Number.MAX_SAFE_INTEGER)) continue;
      const message = Buffer.from(`cosignature/v1\ntime ${time}\n${checked.text}`, 'utf8');
      if (ed25519Ok(key.publicKey, message, s.bytes.subarray(8))) good ??= Number(time);
    }
    if (mine.length === 0) problems.push(`${key.name} did not cosign`);
    else if (good === null) problems.push(`the cosignature of ${key.name} does not verify`);
    else if (good > deadline)
      problems.push(
        `${key.name} cosigned at ${isoSeconds(good)}, less than 1 s before round ${b.round} (published ${isoSeconds(deadline + 1)})`,
      );
    else counted.push({ name: key.name, timestamp: good });
  }
  const quorum = Math.max(1, logPins.quorum ?? logPins.witnesses.length);
  if (counted.length < quorum)
    return result(
      inLog,
      fail(
        WITNESSED,
        `${counted.length} of the ${quorum} cosignatures needed before round ${b.round}: ${problems.join('; ')}`,
      ),
      WITNESSING_FAILED,
    );
  const one = counted.length === 1;
  return result(
    inLog,
    {
      name: WITNESSED,
      status: 'pass',
      detail: `cosigned by ${counted.map((w) => `${w.name} at ${isoSeconds(w.timestamp)}`).join(', ')}; round ${b.round} was published at ${isoSeconds(deadline + 1)}`,
    },
    `${names(counted.map((w) => w.name))} saw this freeze in the game log, by ${one ? 'its' : 'their'} own clock${one ? '' : 's'}, before round ${b.round} existed: the entries were fixed before anyone, the operator included, could know the numbers drawn.`,
  );
}

async function verify(p, pins, logPins) {
  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok: Boolean(ok), detail });
  const v2 = p.algorithm === V2;
  const beacon = p.beacon ?? null;
  const frozenAt = p.frozenAt ?? null;
  const unplayed = p.unplayedDraws ?? [];

  check('Algorithm', p.algorithm === V1 || v2, `${p.algorithm}`);

  check('Bet', cents(p.betAmount) === p.betCents, `${p.betAmount} = ${p.betCents} cents`);

  const rangeOk =
    isInt(p.startRange) && isInt(p.endRange) && p.startRange >= 1 && p.startRange < p.endRange && p.endRange <= 100;
  check('Range', rangeOk, `${p.startRange} to ${p.endRange}`);

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
  const seed = p.serverSeed ?? null;
  const seedOk = typeof seed === 'string' && HEX64.test(seed);
  if (seed === null) {
    check('Server seed', !ended, ended ? `missing, but the game is ${p.status}` : `secret while ${p.status}`);
  } else if (!seedOk) {
    check('Commitment', false, 'the seed is not 64 lowercase hex characters');
  } else if (v2) {
    const commitment = beacon ? sha256(Buffer.from(commitmentText2(seed, beacon), 'utf8')) : null;
    check(
      'Commitment',
      commitment !== null && commitment === p.commitment,
      commitment === null
        ? 'the proof names no beacon, which the commitment covers'
        : `SHA-256 of the commitment text (protocol, beacon, seed) = ${commitment}`,
    );
  } else {
    const commitment = sha256(Buffer.from(seed, 'hex'));
    check('Commitment', commitment === p.commitment, `SHA-256(seed bytes) = ${commitment}`);
  }

  // LOT-DRAW-2: the pinned chain, R after the freeze, R's signature (docs/lot-draw-2.md, steps 9 to 11).
  let randomness;
  let beaconOk = true;
  let waitingForBeacon = false;
  if (v2) {
    const pin =
      beacon &&
      pins.find(
        (x) =>
          x.chainHash === beacon.chainHash &&
          x.publicKey === beacon.publicKey &&
          x.genesisTime === beacon.genesisTime &&
          x.period === beacon.period,
      );
    check(
      'Beacon chain',
      pin,
      !beacon
        ? 'the proof names no beacon'
        : pin
          ? `${pin.name}: chain ${beacon.chainHash}, genesis ${beacon.genesisTime}, period ${beacon.period} s`
          : `chain ${beacon.chainHash} with this public key, genesis ${beacon.genesisTime} and period ${beacon.period} is not pinned`,
    );
    beaconOk = Boolean(pin);
    const frozen = p.status === 'drawing' || p.status === 'settled' || p.status === 'voided';
    if (pin && frozen) {
      const { ok: roundOk, detail } = roundCheck(beacon, frozenAt);
      check('Beacon round', roundOk, detail);
      beaconOk &&= roundOk;
      if (beacon.signature != null && beacon.round != null) {
        const signed = await verifyRound(beacon.publicKey, beacon.round, beacon.signature);
        const recomputed = signed.ok ? sha256(Buffer.from(beacon.signature, 'hex')) : null;
        const ok = signed.ok && recomputed === beacon.randomness;
        check(
          'Beacon signature',
          ok,
          !signed.ok
            ? (signed.why ?? `the signature of round ${beacon.round} does not verify under the chain's public key`)
            : ok
              ? `round ${beacon.round} signed by the chain; randomness = SHA-256(signature) = ${recomputed}`
              : `randomness is not SHA-256 of the signature (${recomputed})`,
        );
        beaconOk &&= ok;
        if (ok) randomness = recomputed;
      } else {
        const waiting = p.draws.length === 0 && p.status !== 'settled';
        check(
          'Beacon signature',
          waiting,
          waiting
            ? `round ${beacon.round} is not in the proof yet (published at ${beacon.expectedAt})`
            : 'numbers were drawn without the beacon round they depend on',
        );
        beaconOk = false;
        waitingForBeacon = waiting;
      }
    }
  }
  const canRecompute = seedOk && rangeOk && (!v2 || (beaconOk && randomness !== undefined));

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
  const size = p.endRange - p.startRange + 1;
  /** Steps 10-11 of LOT-DRAW-1, 13-14 of LOT-DRAW-2: one draw (real or unplayed) and its winner. */
  const checkDraw = (d, i, unplayedDraw) => {
    const k = i + 1;
    const [drawName, winnerName] = unplayedDraw ? ['Unplayed draw', 'Unplayed winner'] : ['Draw', 'Winner'];
    if (canRecompute && drawn.length < size) {
      const { number, attempts } = drawNumber(seed, p.entriesDigest, k, p.startRange, p.endRange, drawn, randomness);
      check(
        `${drawName} ${k}`,
        number === d.number,
        `${number}${attempts > 1 ? ` (after ${attempts - 1} rejected attempt)` : ''}; the proof says ${d.number}`,
      );
    } else {
      const why =
        seed === null
          ? 'seed still secret'
          : v2 && randomness === undefined
            ? 'no verified beacon round'
            : 'not recomputable';
      check(
        `${drawName} ${k}`,
        isInt(d.number) && d.number >= p.startRange && d.number <= p.endRange && !drawn.includes(d.number),
        `${d.number}, in the range and not drawn before (${why})`,
      );
    }
    drawn.push(d.number);
    const entry = byNumber.get(d.number);
    const prize = entry && p.prizes[i] ? Number((BigInt(pool) * BigInt(p.prizes[i].percentBps)) / 10000n) : 0;
    const winnerOk = entry
      ? d.winner != null &&
        d.winner.number === entry.number &&
        d.winner.name === entry.name &&
        d.winner.phoneNumber === entry.phoneNumber
      : d.winner === null;
    check(
      `${winnerName} ${k}`,
      winnerOk && cents(d.prizeAmount) === prize,
      entry
        ? `${d.number} chosen by ${entry.name} (${entry.phoneNumber}): ${money(prize)}${p.status === 'voided' ? ', not paid (game voided)' : ''}`
        : `${d.number}: no winner`,
    );
    return prize;
  };
  let total = 0;
  p.draws.forEach((d, i) => (total += checkDraw(d, i, false)));

  // A game voided after its freeze lists the draws it would have made (docs/lot-draw-2.md step 15).
  const expected =
    p.status === 'voided' && canRecompute && (v2 || frozenAt !== null) ? Math.max(0, p.prizes.length - count) : 0;
  check(
    'Unplayed draws',
    unplayed.length === expected && unplayed.every((d, i) => d.position === count + i + 1),
    expected === 0 && unplayed.length === 0
      ? 'none'
      : `${unplayed.length} listed, ${expected} expected: positions ${count + 1} to ${p.prizes.length}, none paid`,
  );
  unplayed.forEach((d, i) => checkDraw(d, count + i, true));

  if (p.status === 'settled') {
    check('Total prize', cents(p.totalPrize) === total, `prizes paid add up to ${money(total)}`);
    check('Commission', cents(p.commission) === pool - total, `pool − prizes = ${money(pool - total)}`);
  }

  // The game log: a check that applies is one more check; one that does not is printed as such.
  const log = verifyLog(p, logPins);
  for (const c of [log.inLog, log.witnessed]) if (c.status !== 'na') check(c.name, c.status === 'pass', c.detail);

  const failed = checks.filter((c) => !c.ok);
  const waitingFor = failed.length > 0 ? null : waitingForBeacon ? 'beacon' : !ended ? 'seed' : null;
  return { checks, failed, waitingFor, log };
}

/** A proof address: the page /verify/CODE maps to the API's /api/verify/CODE. */
function proofUrl(address) {
  const url = new URL(address);
  url.hash = '';
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

const USAGE =
  'usage: node scripts/verify-game.mjs <https://host/verify/CODE | proof.json> ' +
  '[--chain HASH --public-key HEX --genesis-time SECONDS --period SECONDS] ' +
  '[--log-key VKEY] [--witness VKEY]… [--quorum N]';

/** The source and the pinned chains: quicknet, and the one --chain … names. */
function parseArgs(args) {
  const options = {};
  const logPins = { log: null, witnesses: [] };
  let source;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const logFlag = /^--(log-key|witness|quorum)(?:=(.*))?$/.exec(arg);
    if (logFlag) {
      const value = logFlag[2] ?? args[++i];
      if (value === undefined || value.startsWith('--')) throw new Error(`--${logFlag[1]} needs a value`);
      if (logFlag[1] === 'witness') logPins.witnesses.push(value);
      else if (logFlag[1] === 'log-key') logPins.log = value;
      else if (!/^[1-9][0-9]{0,2}$/.test(value)) throw new Error('--quorum must be a whole number of witnesses');
      else logPins.quorum = Number(value);
      continue;
    }
    const flag = /^--(chain|public-key|genesis-time|period)(?:=(.*))?$/.exec(arg);
    if (flag) {
      const value = flag[2] ?? args[++i];
      if (value === undefined) throw new Error(`--${flag[1]} needs a value`);
      options[flag[1]] = value;
    } else if (arg.startsWith('--')) {
      throw new Error(`unknown option ${arg}`);
    } else if (source === undefined) {
      source = arg;
    } else {
      throw new Error(`one proof at a time (${source}, then ${arg})`);
    }
  }
  const pins = [QUICKNET];
  const given = ['chain', 'public-key', 'genesis-time', 'period'].filter((name) => options[name] !== undefined);
  if (given.length > 0) {
    if (given.length < 4) {
      throw new Error(
        'pinning a chain takes --chain, --public-key, --genesis-time and --period together (the genesis and period decide R)',
      );
    }
    const pin = {
      name: `the chain given with --chain`,
      chainHash: options.chain,
      publicKey: options['public-key'],
      genesisTime: Number(options['genesis-time']),
      period: Number(options.period),
    };
    if (!HEX64.test(pin.chainHash)) throw new Error('--chain must be 64 lowercase hex characters');
    if (!/^[0-9a-f]{192}$/.test(pin.publicKey)) throw new Error('--public-key must be 192 lowercase hex characters');
    if (!Number.isSafeInteger(pin.genesisTime) || pin.genesisTime < 0)
      throw new Error('--genesis-time must be whole unix seconds');
    if (!Number.isSafeInteger(pin.period) || pin.period < 1) throw new Error('--period must be whole seconds');
    pins.push(pin);
  }
  for (const [vkey, type, flag] of [
    ...(logPins.log === null ? [] : [[logPins.log, 1, '--log-key']]),
    ...logPins.witnesses.map((w) => [w, 4, '--witness']),
  ]) {
    const key = parseVkey(vkey, type);
    if (typeof key === 'string') throw new Error(`${flag}: ${key}`);
  }
  if (logPins.quorum !== undefined && logPins.quorum > logPins.witnesses.length)
    throw new Error(`--quorum ${logPins.quorum} is more than the ${logPins.witnesses.length} witnesses given`);
  return { source, pins, logPins };
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    console.log(`FAILED: ${error.message}`);
    return 1;
  }
  if (!args.source) {
    console.error(USAGE);
    return 1;
  }
  let proof;
  let result;
  try {
    proof = await readProof(args.source);
    for (const list of ['prizes', 'entries', 'draws'])
      if (!Array.isArray(proof?.[list])) throw new Error(`the proof has no ${list} list`);
    if (proof.unplayedDraws != null && !Array.isArray(proof.unplayedDraws))
      throw new Error('the proof has no unplayedDraws list');
    if (proof.status === 'discarded' && proof.draws.length === 0 && !proof.unplayedDraws?.length) {
      console.log('Discarded — nothing was drawn');
      return 0;
    }
    result = await verify(proof, args.pins, args.logPins);
  } catch (error) {
    console.log(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  console.log(
    `${proof.algorithm} proof of game ${proof.code} (${proof.shopName ?? 'unknown shop'}), status ${proof.status}`,
  );
  for (const c of result.checks) console.log(`${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`);
  for (const c of [result.log.inLog, result.log.witnessed])
    if (c.status === 'na') console.log(`– ${c.name}: not checked: ${c.detail}`);
  if (result.log.sentence) console.log(result.log.sentence);
  if (result.failed.length > 0) {
    console.log(`FAILED: ${result.failed.map((c) => c.name).join(', ')}`);
    return 1;
  }
  if (result.waitingFor === 'beacon') {
    console.log(
      `Pending: waiting for round ${proof.beacon.round} of the beacon (published at ${proof.beacon.expectedAt}); ` +
        (proof.status === 'voided'
          ? 'the draws the void left undrawn are shown once the server has it'
          : 'nothing can be drawn before it'),
    );
    return 2;
  }
  if (result.waitingFor === 'seed') {
    console.log(`Pending: the game is ${proof.status}; the server seed is revealed when it ends`);
    return 2;
  }
  console.log('Verified');
  return 0;
}

process.exitCode = await main();
