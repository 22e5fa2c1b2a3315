import { describe, expect, it } from 'vitest';
import page from '../../../docs/lot-draw-1.md?raw';
import page2 from '../../../docs/lot-draw-2.md?raw';
import { QUICKNET, roundTimeMs, verifyBeaconRound } from './beacon.ts';
import quicknet from './beacon-fixtures/quicknet.json';
import {
  canonicalName,
  canonicalName1,
  canonicalPhone,
  entryHashText,
  commitmentFingerprint,
  commitmentOf,
  digestText,
  drawAt,
  drawSequence,
  entriesDigest,
  entryHash,
  fromHex,
  sha256Hex,
  toHex,
} from './draw.ts';
import {
  buildProof,
  buildVoidedProof,
  REJECTION_EXAMPLE,
  renderRejectionExample,
  renderVoidedExample,
  renderWorkedExample,
  renderWorkedExample2,
  VOIDED_FIELDS,
  WORKED_EXAMPLE,
  WORKED_EXAMPLE_2,
} from './draw-example.ts';
import { FREEZE_MARGIN_MS, freezeRound } from './freeze-round.ts';
import { verifyProof } from './verify.ts';

/** The text between `<!-- name:begin -->` and `<!-- name:end -->` in docs/lot-draw-1.md (or another page). */
function section(name: string, text = page): string {
  const match = new RegExp(`<!-- ${name}:begin -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(text);
  if (!match?.[1]) throw new Error(`the page has no ${name} section`);
  return match[1];
}

/**
 * What Prettier may change in the page without changing a figure: the padding of table cells and
 * the layout of a JSON block (compared as data).
 */
function normalize(markdown: string): string {
  return markdown
    .trim()
    .replace(
      /```json\n([\s\S]*?)\n```/g,
      (_, json: string) => `\`\`\`json\n${JSON.stringify(JSON.parse(json))}\n\`\`\``,
    )
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split('|')
            .map((cell) => cell.trim())
            .map((cell) => (/^:?-+:?$/.test(cell) ? '---' : cell))
            .join('|')
        : line,
    )
    .join('\n');
}

const hexOf = (bytes: number[]) => toHex(Uint8Array.from(bytes));

type Encoder = { encode(text: string): Uint8Array };
const encoder = new (globalThis as unknown as { TextEncoder: new () => Encoder }).TextEncoder();
const utf8 = (text: string) => encoder.encode(text);

/** HMAC-SHA256 (RFC 2104) built from the domain's SHA-256 only, to check drawAt's HMAC against. */
async function hmacFromSha256(key: Uint8Array, message: string): Promise<string> {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? (fromHex(await sha256Hex(key), 32) as Uint8Array) : key);
  const pad = (byte: number) => block.map((b) => b ^ byte);
  const text = utf8(message);
  const inner = fromHex(await sha256Hex(Uint8Array.from([...pad(0x36), ...text])), 32) as Uint8Array;
  return sha256Hex(Uint8Array.from([...pad(0x5c), ...inner]));
}

/** Deterministic seeds: SHA-256 of a label and a counter. */
const seeds = (label: string, count: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => sha256Hex(`${label} ${i}`)));

describe('docs/lot-draw-1.md', () => {
  it('holds exactly the worked example the code computes (every figure)', async () => {
    expect(normalize(section('worked-example'))).toBe(normalize(await renderWorkedExample(WORKED_EXAMPLE)));
  });

  it('holds exactly the rejection example the code computes', async () => {
    expect(normalize(section('rejection-example'))).toBe(normalize(await renderRejectionExample(REJECTION_EXAMPLE)));
  });

  it("reads back the worked example's key figures from the page", async () => {
    const text = section('worked-example');
    const commitment = /commitment {2}= SHA-256\(seed bytes\) = ([0-9a-f]{64})/.exec(text)?.[1];
    expect(commitment).toBe(await commitmentOf(WORKED_EXAMPLE.serverSeed));
    const digest = /entriesDigest = SHA-256\(UTF-8 of the digest text\) = ([0-9a-f]{64})/.exec(text)?.[1];
    const digestLine = /\*\*Digest text\*\*[^\n]*\n\n```text\n(.*)\n```/.exec(text)?.[1] ?? '';
    expect(digest).toBe(await sha256Hex(digestLine));
    // Every attempt on the page: its HMAC recomputed, x its first 4 bytes, accepted below limit.
    const attempts = [
      ...text.matchAll(/message = (\S+)\n\s+HMAC {4}= ([0-9a-f]{64})\n\s+x {7}= 0x([0-9a-f]{8}) = (\d+)/g),
    ];
    expect(attempts).toHaveLength(WORKED_EXAMPLE.prizes.length);
    const key = fromHex(WORKED_EXAMPLE.serverSeed, 32) as Uint8Array;
    for (const [, message, hmac, xHex, x] of attempts) {
      expect(message).toMatch(new RegExp(`^${digest}:\\d+:0$`));
      expect(await hmacFromSha256(key, message as string)).toBe(hmac);
      expect(hmac?.slice(0, 8)).toBe(xHex);
      expect(parseInt(xHex as string, 16)).toBe(Number(x));
    }
  });

  it("has a proof that verifies and is the one the domain's functions build", async () => {
    const json = /```json\n([\s\S]*?)\n```/.exec(section('worked-example'))?.[1] ?? '';
    const proof = JSON.parse(json);
    expect(proof).toEqual(await buildProof(WORKED_EXAMPLE));
    const report = await verifyProof(proof);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');
  });

  it('states the formulas the code implements', () => {
    expect(page).toContain('entriesDigest + ":" + k + ":" + c');
    expect(page).toContain('limit     = floor(2^32 / n) × n');
    expect(page).toContain('number + "\\n" + name + "\\n" + phoneNumber');
    expect(page).toContain('JSON.stringify([code, startRange, endRange, betCents, prizes, entries])');
  });
});

describe('docs/lot-draw-2.md', () => {
  const jsonBlocks = (text: string) =>
    [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1] ?? ''));

  it('holds exactly the LOT-DRAW-2 worked example the code computes (every figure)', async () => {
    expect(normalize(section('worked-example-2', page2))).toBe(normalize(await renderWorkedExample2()));
  });

  it('holds exactly the voided example the code computes', async () => {
    expect(normalize(section('voided-example', page2))).toBe(normalize(await renderVoidedExample()));
  });

  it('is built on a real quicknet round, named 3.2 s before it after L = 4810401 (section 4)', () => {
    const beacon = WORKED_EXAMPLE_2.beacon!;
    const fixture = quicknet.rounds.find((r) => r.round === beacon.round);
    expect(fixture?.signature).toBe(beacon.signature);
    expect(beacon.chain).toEqual({
      chainHash: QUICKNET.chainHash,
      publicKey: QUICKNET.publicKey,
      genesisTime: QUICKNET.genesisTime,
      period: QUICKNET.period,
    });
    expect(verifyBeaconRound(QUICKNET, beacon.round, beacon.signature)).toBe(true);
    const frozenAt = Date.parse(WORKED_EXAMPLE_2.times!.frozenAt);
    expect(roundTimeMs(QUICKNET, beacon.round) - frozenAt).toBe(3200);
    expect(beacon.latest).toBe(4_810_401);
    expect(freezeRound(QUICKNET, { latest: 4_810_401, now: frozenAt, marginMs: FREEZE_MARGIN_MS })).toEqual({
      round: beacon.round,
    });
    // L was public at the freeze and L + 1 was not yet: the example's clock agrees with the beacon.
    expect(roundTimeMs(QUICKNET, 4_810_401)).toBeLessThanOrEqual(frozenAt);
    expect(roundTimeMs(QUICKNET, 4_810_402)).toBeGreaterThan(frozenAt);
    // The same four participants as LOT-DRAW-1's example, each with a nonce of 16 hex characters,
    // hashed in canonical form as every entry since 26 November 2026.
    expect(WORKED_EXAMPLE_2.entries.map(({ nonce: _, canonical: __, ...e }) => e)).toEqual(WORKED_EXAMPLE.entries);
    for (const e of WORKED_EXAMPLE_2.entries) expect(e.nonce).toMatch(/^[0-9a-f]{16}$/);
    for (const e of WORKED_EXAMPLE_2.entries) expect(e.canonical).toBe(2);
    expect(WORKED_EXAMPLE_2.serverSeed).toBe(WORKED_EXAMPLE.serverSeed);
  });

  it("reads back the example's figures from the page and recomputes them", async () => {
    const text = section('worked-example-2', page2);
    const commitmentText = /commitment text = (.*)/.exec(text)?.[1] ?? '';
    expect(JSON.parse(commitmentText)).toEqual([
      'LOT-DRAW-2',
      QUICKNET.chainHash,
      QUICKNET.publicKey,
      QUICKNET.genesisTime,
      QUICKNET.period,
      WORKED_EXAMPLE_2.serverSeed,
    ]);
    const commitment = /commitment {6}= SHA-256\(UTF-8 of the commitment text\) = ([0-9a-f]{64})/.exec(text)?.[1];
    expect(commitment).toBe(await sha256Hex(commitmentText));
    // Every entry's hashed text (a JSON string) hashes to the entryHash beside it, and ends with its nonce.
    const rows = [...text.matchAll(/\| `([0-9a-f]{16})` +\| `("[^`]*")` +\| `([0-9a-f]{64})` \|/g)];
    expect(rows).toHaveLength(4);
    for (const [, nonce, hashed, hash] of rows) {
      const hashedText = JSON.parse(hashed as string) as string;
      expect(hashedText.endsWith(`\n${nonce}`)).toBe(true);
      expect(await sha256Hex(hashedText)).toBe(hash);
    }
    const digestLine = /\*\*Digest text\*\*[^\n]*\n\n```text\n(.*)\n```/.exec(text)?.[1] ?? '';
    const digest = /entriesDigest = SHA-256\(UTF-8 of the digest text\) = ([0-9a-f]{64})/.exec(text)?.[1];
    expect(digest).toBe(await sha256Hex(digestLine));
    const signature = /signature {3}= ([0-9a-f]{96})/.exec(text)?.[1] ?? '';
    const randomness = /randomness {2}= SHA-256\(signature bytes\) = ([0-9a-f]{64})/.exec(text)?.[1];
    expect(randomness).toBe(await sha256Hex(fromHex(signature, 48) as Uint8Array));
    const roundBytes = /round bytes = ([0-9a-f]{16})/.exec(text)?.[1] ?? '';
    expect(parseInt(roundBytes, 16)).toBe(WORKED_EXAMPLE_2.beacon?.round);
    expect(/message {5}= SHA-256\(round bytes\) = ([0-9a-f]{64})/.exec(text)?.[1]).toBe(
      await sha256Hex(fromHex(roundBytes, 8) as Uint8Array),
    );
    // Every attempt: the message names the protocol, the digest and R's randomness; its HMAC recomputed.
    const attempts = [
      ...text.matchAll(/message = (\S+)\n\s+HMAC {4}= ([0-9a-f]{64})\n\s+x {7}= 0x([0-9a-f]{8}) = (\d+)/g),
    ];
    expect(attempts).toHaveLength(3);
    const key = fromHex(WORKED_EXAMPLE_2.serverSeed, 32) as Uint8Array;
    for (const [, message, hmac, xHex, x] of attempts) {
      expect(message).toMatch(new RegExp(`^LOT-DRAW-2:${digest}:${randomness}:\\d+:0$`));
      expect(message).toHaveLength(144);
      expect(await hmacFromSha256(key, message as string)).toBe(hmac);
      expect(hmac?.slice(0, 8)).toBe(xHex);
      expect(parseInt(xHex as string, 16)).toBe(Number(x));
    }
  });

  it('has proofs that verify and are the ones the domain builds: waiting, settled, voided', async () => {
    const [waitingBeacon, settled] = jsonBlocks(section('worked-example-2', page2));
    expect(settled).toEqual(await buildProof(WORKED_EXAMPLE_2));
    const report = await verifyProof(settled);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.verdict).toBe('verified');

    const waiting = await buildProof(WORKED_EXAMPLE_2, { status: 'drawing' });
    expect(waitingBeacon).toEqual(waiting.beacon);
    expect((await verifyProof(waiting)).verdict).toBe('pending');

    const [voidedFields] = jsonBlocks(section('voided-example', page2));
    const voided = await buildVoidedProof();
    expect(voidedFields).toEqual(Object.fromEntries(VOIDED_FIELDS.map((key) => [key, voided[key]])));
    expect({ ...settled, ...voidedFields }).toEqual(voided);
    const voidedReport = await verifyProof(voided);
    expect(voidedReport.checks.filter((c) => !c.ok)).toEqual([]);
    expect(voidedReport.verdict).toBe('verified');
    // The void shows the outcome the game would have had: the settled game's numbers, in order.
    expect([...voided.draws, ...voided.unplayedDraws].map((d) => d.number)).toEqual(
      settled.draws.map((d: { number: number }) => d.number),
    );
  });

  it('states the formulas the code implements', () => {
    expect(page2).toContain('JSON.stringify(["LOT-DRAW-2", chainHash, publicKey, genesisTime, period, seedHex])');
    expect(page2).toContain('number + "\\n" + canonicalName + "\\n" + canonicalPhone + "\\n" + nonce');
    expect(page2).toContain('number + "\\n" + name + "\\n" + phoneNumber');
    expect(page2).toContain('JSON.stringify([code, startRange, endRange, betCents, prizes, entries])');
    expect(page2).toContain('"LOT-DRAW-2:" + entriesDigest + ":" + randomness + ":" + k + ":" + c');
    expect(page2).toContain('limit     = floor(2^32 / n) × n');
    expect(page2).toContain('roundTime(r) = (genesisTime + (r − 1) · period) · 1000');
    expect(page2).toContain('R = floor((frozenAt − genesisTime · 1000) / (period · 1000)) + 2');
    expect(page2).toContain('byEvidence = L + 1 + ceil(margin / (period · 1000))');
    expect(page2).toContain('byClock    = floor((now + margin − genesisTime · 1000) / (period · 1000)) + 2');
    expect(page2).toContain('R          = max(byEvidence, byClock)');
    expect(page2).toContain('BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_');
    expect(page2).toContain('randomness = hex(SHA-256(the 48 signature bytes))');
    expect(page2).toContain('(lot-draw-2-randomness.md)');
  });

  it("names every check as verifyProof names it, in verifyProof's order", async () => {
    const steps = page2.slice(page2.indexOf('## How to verify a game'), page2.indexOf('## Verifying from a shell'));
    const named = [...steps.matchAll(/\*\*([A-Z][A-Za-z ]+?)\*\*/g)].map((m) => (m[1] ?? '').replace(/ k$/, ''));
    const settled = (await verifyProof(await buildProof(WORKED_EXAMPLE_2))).checks.map((c) =>
      c.name.replace(/ \d+$/, ''),
    );
    const voided = (await verifyProof(await buildVoidedProof())).checks.map((c) => c.name.replace(/ \d+$/, ''));
    const waiting = (await verifyProof(await buildProof(WORKED_EXAMPLE_2, { status: 'drawing' }))).checks.map((c) =>
      c.name.replace(/ \d+$/, ''),
    );
    const all = [...new Set([...waiting, ...settled, ...voided])];
    for (const name of all) expect(named).toContain(name);
    // In the page's order.
    const order = (names: string[]) => names.map((n) => named.indexOf(n));
    for (const names of [settled, voided, waiting]) {
      const positions = order([...new Set(names)]);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });
});

describe('the canonical form of a name and a phone', () => {
  it.each([
    ['Ørsted', 'orsted'],
    ['ØRSTED', 'orsted'],
    ['Ærø Bæk', 'aerobaek'],
    ['Œuvre', 'oeuvre'],
    ['Straße', 'strasse'],
    ['STRAẞE', 'strasse'],
    ['Łukasz Wałęsa', 'lukaszwalesa'],
    ['Đorđe', 'dorde'],
    ['Þórður', 'thordur'],
    ['Yıldız', 'yildiz'],
    ['İlkay', 'ilkay'],
    ['María  José\tNúñez', 'mariajosenunez'],
    ['mari\u0301a', 'maria'],
  ])('folds %j to %j', (name, folded) => {
    expect(canonicalName(name)).toBe(folded);
  });

  it('writes +CC and 00CC alike, and keeps a national number apart', () => {
    for (const phone of [
      '+49 170 555 0199',
      '0049 170 555 0199',
      '0049-170-555-0199',
      '(+49) 1705550199',
      '491705550199',
    ])
      expect(canonicalPhone(phone), phone).toBe('491705550199');
    expect(canonicalPhone('0170 555 0199')).toBe('01705550199');
    expect(canonicalPhone('+63 917-555 0199')).toBe('639175550199');
  });

  it('hashes a new entry in the new form, and an entry of the first form as it was', () => {
    const entry = { number: 4, name: 'Ørsted', phoneNumber: '0049 170', nonce: '0123456789abcdef' };
    expect(entryHashText({ ...entry, canonical: 2 })).toBe('4\norsted\n49170\n0123456789abcdef');
    expect(entryHashText({ ...entry, canonical: true })).toBe('4\nørsted\n0049170\n0123456789abcdef');
    expect(canonicalName1('Ørsted')).toBe('ørsted');
    expect(entryHashText(entry)).toBe('4\nØrsted\n0049 170\n0123456789abcdef');
    // Without a letter to fold or a 00 prefix the two forms are one text: the worked example's hashes stand.
    const plain = { number: 1, name: 'María José', phoneNumber: '+63 917', nonce: '0123456789abcdef' };
    expect(entryHashText({ ...plain, canonical: 2 })).toBe(entryHashText({ ...plain, canonical: true }));
  });
});

describe('known vectors', () => {
  it('SHA-256 (FIPS 180-2 examples, and the seed bytes 00…1f)', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(await sha256Hex(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(
      '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
    );
    // UTF-8, not UTF-16: "é" is the two bytes c3 a9.
    expect(await sha256Hex('é')).toBe(await sha256Hex(Uint8Array.from([0xc3, 0xa9])));
  });

  it('HMAC-SHA256 built from SHA-256 matches RFC 4231 test cases 1, 2 and 6', async () => {
    expect(await hmacFromSha256(new Uint8Array(20).fill(0x0b), 'Hi There')).toBe(
      'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    );
    expect(await hmacFromSha256(utf8('Jefe'), 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(
      await hmacFromSha256(new Uint8Array(131).fill(0xaa), 'Test Using Larger Than Block-Size Key - Hash Key First'),
    ).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
  });

  it("drawAt's HMAC is HMAC-SHA256 keyed with the seed's 32 bytes (not its hex text)", async () => {
    const seed = hexOf(Array.from({ length: 32 }, (_, i) => 255 - i));
    const { steps } = await drawAt(seed, 'd1gest', 3, { startRange: 1, endRange: 10 }, [2, 5]);
    const step = steps[0];
    expect(step?.message).toBe('d1gest:3:0');
    expect(step?.hmac).toBe(await hmacFromSha256(fromHex(seed, 32) as Uint8Array, 'd1gest:3:0'));
    expect(step?.x).toBe(parseInt(step?.hmac.slice(0, 8) ?? '', 16));
  });

  it('the commitment hashes the seed bytes; malformed seeds are refused', async () => {
    const seed = WORKED_EXAMPLE.serverSeed;
    expect(await commitmentOf(seed)).toBe('630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd');
    expect(await commitmentOf(seed)).not.toBe(await sha256Hex(seed));
    for (const bad of [seed.toUpperCase(), seed.slice(2), `${seed}00`, `${seed.slice(2)}zz`, ''])
      expect(await commitmentOf(bad)).toBeNull();
    await expect(drawAt(seed.toUpperCase(), 'x', 1, { startRange: 1, endRange: 5 }, [])).rejects.toThrow();
    expect(commitmentFingerprint('630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd')).toBe(
      '630d cd29 66c4 3366',
    );
  });

  it('entryHash and the digest text are byte-exact', async () => {
    expect(await entryHash({ number: 7, name: 'Ana', phoneNumber: '555' })).toBe(await sha256Hex('7\nAna\n555'));
    const text = digestText({
      code: 'C-1',
      startRange: 1,
      endRange: 20,
      betCents: 1000,
      prizes: [
        { position: 2, percentBps: 3000 },
        { position: 1, percentBps: 5000 },
      ],
      entries: [
        { number: 9, entryHash: 'bb' },
        { number: 3, entryHash: 'aa' },
      ],
    });
    // Sorted by position and by number, whatever order they come in; no spaces.
    expect(text).toBe('["C-1",1,20,1000,[[1,5000],[2,3000]],[[3,"aa"],[9,"bb"]]]');
    expect(
      await entriesDigest({ code: 'C-1', startRange: 1, endRange: 20, betCents: 1000, prizes: [], entries: [] }),
    ).toBe(await sha256Hex('["C-1",1,20,1000,[],[]]'));
  });
});

describe('draws', () => {
  it('never repeat and always end: every range size 2…100, whole range drawn, over many seeds', async () => {
    const list = await seeds('permutation', 5);
    for (const seed of list) {
      for (let size = 2; size <= 100; size++) {
        const range = { startRange: 101 - size, endRange: 100 };
        const sequence = await drawSequence(seed, `digest-${size}`, range, size);
        expect(new Set(sequence).size).toBe(size);
        expect(Math.min(...sequence)).toBe(range.startRange);
        expect(Math.max(...sequence)).toBe(range.endRange);
      }
    }
  });

  it('the first draws of a game never repeat, for 40 more seeds per range size', async () => {
    const list = await seeds('first-draws', 40);
    for (let size = 2; size <= 100; size++) {
      for (const seed of list) {
        const sequence = await drawSequence(seed, 'digest', { startRange: 1, endRange: size }, Math.min(size, 3));
        expect(new Set(sequence).size).toBe(sequence.length);
        expect(sequence.every((n) => n >= 1 && n <= size)).toBe(true);
      }
    }
  });

  it('refuses to draw from an exhausted range', async () => {
    await expect(drawAt(WORKED_EXAMPLE.serverSeed, 'd', 3, { startRange: 1, endRange: 2 }, [1, 2])).rejects.toThrow();
  });

  it('reaches every remaining number and never a drawn one', async () => {
    const list = await seeds('reach', 300);
    const seen = new Set<number>();
    for (const seed of list)
      seen.add((await drawAt(seed, 'digest', 3, { startRange: 1, endRange: 10 }, [3, 7])).number);
    expect([...seen].sort((a, b) => a - b)).toEqual([1, 2, 4, 5, 6, 8, 9, 10]);

    const wide = new Set<number>();
    for (const seed of await seeds('reach-100', 2000))
      wide.add((await drawAt(seed, 'digest', 1, { startRange: 1, endRange: 100 }, [])).number);
    expect(wide.size).toBe(100);
  });

  it('is a pure function of seed, digest, k and what was drawn', async () => {
    const seed = WORKED_EXAMPLE.serverSeed;
    const range = { startRange: 1, endRange: 20 };
    const a = await drawAt(seed, 'digest', 2, range, [5]);
    expect(await drawAt(seed, 'digest', 2, range, [5])).toEqual(a);
    // Another k, digest or seed is another message or key, so another HMAC.
    expect((await drawAt(seed, 'digest', 3, range, [5])).steps[0]?.hmac).not.toBe(a.steps[0]?.hmac);
    expect((await drawAt(seed, 'digest2', 2, range, [5])).steps[0]?.hmac).not.toBe(a.steps[0]?.hmac);
    expect((await drawAt(await sha256Hex('other'), 'digest', 2, range, [5])).steps[0]?.hmac).not.toBe(a.steps[0]?.hmac);
  });

  it('the limit is the largest multiple of n not above 2^32 (no rejection at all for a power of two)', async () => {
    for (let n = 1; n <= 100; n++) {
      const limit = Math.floor(2 ** 32 / n) * n;
      expect(limit % n).toBe(0);
      expect(2 ** 32 - limit).toBeLessThan(n);
      expect(2 ** 32 - limit).toBe(2 ** 32 % n);
    }
    const { steps } = await drawAt(WORKED_EXAMPLE.serverSeed, 'd', 1, { startRange: 1, endRange: 64 }, []);
    expect(steps[0]?.limit).toBe(2 ** 32);
  });

  it('rejects an attempt at or above the limit and tries the next counter (the rejection example)', async () => {
    const game = REJECTION_EXAMPLE;
    const proof = await buildProof(game);
    const outcome = await drawAt(game.serverSeed, proof.entriesDigest, 1, game, []);
    const [first, second] = outcome.steps;
    expect(outcome.steps).toHaveLength(2);
    expect(first?.n).toBe(100);
    expect(first?.limit).toBe(4_294_967_200);
    expect(first?.x).toBeGreaterThanOrEqual(first?.limit ?? 0);
    expect(first?.message).toBe(`${proof.entriesDigest}:1:0`);
    expect(second?.message).toBe(`${proof.entriesDigest}:1:1`);
    expect(second?.x).toBeLessThan(second?.limit ?? 0);
    // remaining is 1…100, so the number is x mod 100 + 1; the rejected x would have given 16.
    expect(outcome.number).toBe(((second?.x ?? 0) % 100) + 1);
    expect(outcome.number).not.toBe(((first?.x ?? 0) % 100) + 1);
    expect((await verifyProof(proof)).verdict).toBe('verified');
  });

  it('is uniform: chi-square of 6,000 first draws on 1–20 below the p = 0.001 bound', async () => {
    // 20 outcomes, so 19 degrees of freedom; P(chi² > 43.82) = 0.001 for a fair draw. The seeds
    // are fixed, so the statistic is the same on every run (the test cannot flake).
    const bins = new Array<number>(20).fill(0);
    const list = await seeds('chi-square', 6000);
    for (const seed of list) {
      const { number } = await drawAt(seed, 'chi-square digest', 1, { startRange: 1, endRange: 20 }, []);
      bins[number - 1] = (bins[number - 1] ?? 0) + 1;
    }
    const expected = list.length / 20;
    const chiSquare = bins.reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(43.82);
    // …and not suspiciously perfect either (P(chi² < 6.84) = 0.001 for 19 degrees of freedom).
    expect(chiSquare).toBeGreaterThan(6.84);
  });

  it('is uniform over the remaining numbers later in a game too (draw 3 of 1–20 after 2 and 17)', async () => {
    // 18 remaining numbers: 17 degrees of freedom, p = 0.001 bound 40.79.
    const remaining = Array.from({ length: 20 }, (_, i) => i + 1).filter((n) => n !== 2 && n !== 17);
    const counts = new Map<number, number>(remaining.map((n) => [n, 0]));
    const list = await seeds('chi-square-3', 3600);
    for (const seed of list) {
      const { number } = await drawAt(seed, 'digest', 3, { startRange: 1, endRange: 20 }, [2, 17]);
      counts.set(number, (counts.get(number) ?? Number.NaN) + 1);
    }
    const expected = list.length / 18;
    const chiSquare = [...counts.values()].reduce((sum, observed) => sum + (observed - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(40.79);
  });
});
