import { spawn } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWitnessFiles, trustLog, type WitnessFiles } from './witness-files.ts';
import { startWitnessServer } from './witness-server.ts';

/*
 * The repository's witness against a client written here from C2SP tlog-witness, signed-note,
 * tlog-checkpoint, tlog-cosignature and RFC 6962 alone: Node's crypto and string building, none
 * of @lot/domain/tlog, so a mistake shared by the witness and the domain code would show here.
 */

const sha256 = (...parts: (Buffer | string)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const b64 = (bytes: Buffer) => bytes.toString('base64');

// RFC 6962 §2.1, as written there.
const leaf = (data: string) => sha256(Buffer.from([0]), data);
const node = (l: Buffer, r: Buffer) => sha256(Buffer.from([1]), l, r);
const split = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha256('');
  if (d.length === 1) return d[0]!;
  const k = split(d.length);
  return node(mth(d.slice(0, k)), mth(d.slice(k)));
}
function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = split(d.length);
  return m <= k
    ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))]
    : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}
const proofOf = (m: number, d: Buffer[]) => (m === 0 ? [] : subproof(m, d, true));

// signed-note: Ed25519 keys, key IDs, vkeys, signature lines.
type Key = { name: string; privateKey: KeyObject; raw: Buffer; id: Buffer; vkey: string };
function newKey(name: string, type = 0x01): Key {
  const { privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x!, 'base64url');
  const id = sha256(name, Buffer.from([0x0a, type]), raw).subarray(0, 4);
  return {
    name,
    privateKey,
    raw,
    id,
    vkey: `${name}+${id.toString('hex')}+${b64(Buffer.concat([Buffer.from([type]), raw]))}`,
  };
}
const sigLine = (key: Key, text: string) =>
  `— ${key.name} ${b64(Buffer.concat([key.id, sign(null, Buffer.from(text), key.privateKey)]))}\n`;
const checkpointText = (origin: string, leaves: Buffer[]) => `${origin}\n${leaves.length}\n${b64(mth(leaves))}\n`;
const body = (old: number, proof: Buffer[], text: string, ...signers: Key[]) =>
  `old ${old}\n${proof.map((h) => `${b64(h)}\n`).join('')}\n${text}\n${signers.map((k) => sigLine(k, text)).join('')}`;

/** Checks a cosignature/v1 line against the witness vkey; returns its timestamp. */
function cosignatureTime(line: string, text: string, vkey: string): number {
  const [, name, sig] = /^— (\S+) (\S+)\n$/.exec(line)!;
  const [vname, vid, vb64] = [vkey.slice(0, vkey.indexOf('+')), ...vkey.slice(vkey.indexOf('+') + 1).split(/\+(.*)/s)];
  const material = Buffer.from(vb64!, 'base64');
  expect(material[0]).toBe(0x04);
  expect(name).toBe(vname);
  const bytes = Buffer.from(sig!, 'base64');
  expect(bytes.subarray(0, 4).toString('hex')).toBe(vid);
  expect(
    sha256(vname!, Buffer.from([0x0a, 0x04]), material.subarray(1))
      .subarray(0, 4)
      .toString('hex'),
  ).toBe(vid);
  expect(bytes.length).toBe(4 + 8 + 64);
  const time = Number(bytes.readBigUInt64BE(4));
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), material.subarray(1)]);
  const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  const message = Buffer.from(`cosignature/v1\ntime ${time}\n${text}`);
  expect(verify(null, message, publicKey, bytes.subarray(12))).toBe(true);
  return time;
}

const ORIGIN = 'lot.test/games';
const log = newKey(ORIGIN);
const leaves = Array.from({ length: 40 }, (_, i) => leaf(`game event ${i}`));
const cp = (n: number, from = leaves) => checkpointText(ORIGIN, from.slice(0, n));

let dir: string;
let files: WitnessFiles;
let server: Server;
let url: string;
let now: number;

async function start() {
  files = openWitnessFiles(dir, 'auditor.test/w1');
  ({ server, url } = await startWitnessServer({ files, clock: () => now, host: '127.0.0.1', port: 0 }));
}
const stop = () => new Promise((resolve) => server.close(resolve));
const post = async (text: string | Buffer) => {
  const response = await fetch(`${url}/add-checkpoint`, { method: 'POST', body: text });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'witness-'));
  now = 1_767_225_600_000;
  openWitnessFiles(dir, 'auditor.test/w1');
  trustLog(openWitnessFiles(dir), log.vkey);
  await start();
});
afterEach(async () => {
  await stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('first start', () => {
  it("creates its key (0600) and its configuration, and the key is the vkey's", () => {
    expect(statSync(join(dir, 'witness-key')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(join(dir, 'witness.json'), 'utf8'))).toEqual({
      name: 'auditor.test/w1',
      logs: [{ origin: ORIGIN, vkeys: [log.vkey] }],
    });
    expect(files.cosigner.vkey).toMatch(/^auditor\.test\/w1\+[0-9a-f]{8}\+B/);
    expect(openWitnessFiles(dir).cosigner.vkey).toBe(files.cosigner.vkey);
  });
});

describe('add-checkpoint, every status of the spec', () => {
  it('200: cosigns a new log from size 0, timestamped by its clock, and persists before answering', async () => {
    const text = cp(3);
    const answer = await post(body(0, [], text, log));
    expect(answer.status).toBe(200);
    expect(cosignatureTime(answer.text, text, files.cosigner.vkey)).toBe(now / 1000);
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
    expect(state[ORIGIN]).toMatchObject({ size: 3, rootHash: b64(mth(leaves.slice(0, 3))) });
    // The monitoring API serves it with the log's signature and the cosignature.
    const monitor = await fetch(`${url}/${sha256(ORIGIN).toString('hex')}/checkpoint`);
    expect(await monitor.text()).toBe(`${text}\n${sigLine(log, text)}${answer.text}`);
  });

  it('200 again along the log, with the RFC 6962 consistency proof from the last cosigned size', async () => {
    expect((await post(body(0, [], cp(1), log))).status).toBe(200);
    for (const [old, size] of [
      [1, 2],
      [2, 7],
      [7, 8],
      [8, 8],
      [8, 33],
    ] as const) {
      now += 1000;
      const answer = await post(body(old, proofOf(old, leaves.slice(0, size)), cp(size), log));
      expect(answer.status, `${old} → ${size}`).toBe(200);
      expect(cosignatureTime(answer.text, cp(size), files.cosigner.vkey)).toBe(now / 1000);
    }
  });

  it('404: an origin it does not know', async () => {
    const stranger = newKey('other.test/log');
    const answer = await post(body(0, [], checkpointText('other.test/log', leaves.slice(0, 2)), stranger));
    expect(answer.status).toBe(404);
  });

  it("403: no signature of the log's key, or the log's name and ID with a bad signature", async () => {
    const impostor = newKey(ORIGIN);
    expect((await post(body(0, [], cp(2), impostor))).status).toBe(403);
    const text = cp(2);
    const forged = `old 0\n\n${text}\n— ${ORIGIN} ${b64(Buffer.concat([log.id, Buffer.alloc(64, 7)]))}\n`;
    expect((await post(forged)).status).toBe(403);
    // A good signature does not save a note whose other signature by the same key fails.
    expect((await post(`${forged}${sigLine(log, text)}`)).status).toBe(403);
    expect(existsState()).toBe(false);
  });

  it.each([
    ['no old line', (t: string) => t.replace('old 0\n', '')],
    ['a leading zero', (t: string) => t.replace('old 0', 'old 00')],
    ['"old" alone', (t: string) => t.replace('old 0', 'old')],
    ['a proof line not base64', (t: string) => t.replace('old 0\n', 'old 0\nnot base64!\n')],
    ['a proof line of 31 bytes', (t: string) => t.replace('old 0\n', `old 0\n${b64(Buffer.alloc(31))}\n`)],
    ['64 proof lines', (t: string) => t.replace('old 0\n', `old 0\n${`${b64(Buffer.alloc(32))}\n`.repeat(64)}`)],
    ['no empty line', (t: string) => t.replace('old 0\n\n', 'old 0\n')],
    ['a checkpoint of two lines', (t: string) => t.replace(/\n[^\n]+=\n\n/, '\n\n')],
    ['no signature', (t: string) => t.slice(0, t.indexOf('—'))],
    ['a CR LF', (t: string) => t.replaceAll('\n', '\r\n')],
  ])('400: %s', async (_name, edit) => {
    const answer = await post(edit(body(0, [], cp(2), log)));
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/^Malformed add-checkpoint request: /);
  });

  it('400: a body that is not UTF-8, and an old size above the checkpoint size', async () => {
    expect((await post(Buffer.concat([Buffer.from('old 0\n\n'), Buffer.from([0xff, 0xfe])]))).status).toBe(400);
    expect((await post(body(3, [], cp(2), log))).status).toBe(400);
  });

  it('409 text/x.tlog.size with the size it last cosigned; the client resends from it', async () => {
    expect((await post(body(0, [], cp(5), log))).status).toBe(200);
    // A client that does not know (or restored an old view) starts from 0, as the spec allows.
    const conflict = await post(body(0, [], cp(9), log));
    expect(conflict).toEqual({ status: 409, type: 'text/x.tlog.size', text: '5\n' });
    const size = Number(conflict.text.trim());
    const resend = await post(body(size, proofOf(size, leaves.slice(0, 9)), cp(9), log));
    expect(resend.status).toBe(200);
    expect((await post(body(5, proofOf(5, leaves.slice(0, 12)), cp(12), log))).text).toBe('9\n');
  });

  it('422: a rewritten log (a game changed or deleted) is not consistent with what it cosigned', async () => {
    expect((await post(body(0, [], cp(6), log))).status).toBe(200);
    const rewritten = [...leaves];
    rewritten[3] = leaf('a game rewritten after the freeze');
    const answer = await post(body(6, proofOf(6, rewritten.slice(0, 10)), cp(10, rewritten), log));
    expect(answer.status).toBe(422);
    const deleted = leaves.filter((_, i) => i !== 2);
    expect((await post(body(6, proofOf(6, deleted.slice(0, 10)), cp(10, deleted), log))).status).toBe(422);
    // A restore from an older backup: the log is smaller than what it cosigned.
    expect((await post(body(6, [], cp(4), log))).status).toBe(400);
    expect((await post(body(4, [], cp(4), log))).status).toBe(409);
    // A proof with one bit flipped, and an empty proof.
    const proof = proofOf(6, leaves.slice(0, 10));
    proof[0]![0]! ^= 1;
    expect((await post(body(6, proof, cp(10), log))).status).toBe(422);
    expect((await post(body(6, [], cp(10), log))).status).toBe(422);
    // Same size, another root.
    expect((await post(body(6, [], cp(6, rewritten), log))).status).toBe(422);
    // None of it moved what it cosigned, and the signed requests are kept as evidence of the fork.
    expect(JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'))[ORIGIN].size).toBe(6);
    const evidence = readdirSync(join(dir, 'evidence'));
    expect(evidence).toHaveLength(5);
    expect(evidence.map((file) => readFileSync(join(dir, 'evidence', file), 'utf8'))).toContain(
      body(6, proofOf(6, rewritten.slice(0, 10)), cp(10, rewritten), log),
    );
  });

  it('422: a size-0 checkpoint whose root is not the empty tree, and a proof from old size 0', async () => {
    const wrongEmpty = `${ORIGIN}\n0\n${b64(leaves[0]!)}\n`;
    expect((await post(`old 0\n\n${wrongEmpty}\n${sigLine(log, wrongEmpty)}`)).status).toBe(422);
    expect((await post(body(0, [leaves[0]!], cp(2), log))).status).toBe(422);
    expect((await post(body(0, [], cp(0), log))).status).toBe(200);
  });
});

describe('state', () => {
  it('survives a restart: the new process answers 409 with the size cosigned before', async () => {
    expect((await post(body(0, [], cp(7), log))).status).toBe(200);
    await stop();
    await start();
    expect(await post(body(0, [], cp(8), log))).toEqual({ status: 409, type: 'text/x.tlog.size', text: '7\n' });
    expect((await post(body(7, proofOf(7, leaves.slice(0, 8)), cp(8), log))).status).toBe(200);
  });

  it('two requests from the same old size at once: one is cosigned, the other gets 409', async () => {
    const answers = await Promise.all([
      post(body(0, [], cp(3), log)),
      post(body(0, [], cp(4), log)),
      post(body(0, [], cp(5), log)),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
  });

  it('a clock set back never dates a cosignature before the last one of the log', async () => {
    expect((await post(body(0, [], cp(3), log))).status).toBe(200);
    const before = now / 1000;
    now -= 3_600_000;
    const answer = await post(body(3, proofOf(3, leaves.slice(0, 4)), cp(4), log));
    expect(cosignatureTime(answer.text, cp(4), files.cosigner.vkey)).toBe(before);
  });
});

describe('HTTP', () => {
  it('answers 405 to other methods, 404 elsewhere, 413 past 64 KiB, and 404 to a log it never cosigned', async () => {
    expect((await fetch(`${url}/add-checkpoint`)).status).toBe(405);
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await post(`old 0\n${'A'.repeat(70 * 1024)}`)).status).toBe(413);
    expect((await fetch(`${url}/${sha256(ORIGIN).toString('hex')}/checkpoint`)).status).toBe(404);
  });
});

const existsState = () => {
  try {
    statSync(join(dir, 'state.json'));
    return true;
  } catch {
    return false;
  }
};

describe('npm run witness', () => {
  const cliDir = mkdtempSync(join(tmpdir(), 'witness-cli-'));
  afterAll(() => rmSync(cliDir, { recursive: true, force: true }));

  async function runCli(...args: string[]): Promise<{ url: string; vkey: string; stop: () => Promise<void> }> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/cli/witness-cli.ts', '--data-dir', cliDir, '--port', '0', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/^vkey: /m.test(out)) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.once('exit', () => reject(new Error(`the witness exited: ${out}`)));
    });
    const stopped = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      url: /listening on (\S+)/.exec(out)![1]!,
      vkey: /^vkey: (\S+)$/m.exec(out)![1]!,
      stop: async () => {
        child.kill('SIGTERM');
        await stopped;
      },
    };
  }

  it('starts a witness process that cosigns, and its next start remembers the size', { timeout: 60_000 }, async () => {
    openWitnessFiles(cliDir, 'regulator.test/w');
    trustLog(openWitnessFiles(cliDir), log.vkey);
    const first = await runCli();
    const text = cp(2);
    const answer = await fetch(`${first.url}/add-checkpoint`, { method: 'POST', body: body(0, [], text, log) });
    expect(answer.status).toBe(200);
    expect(cosignatureTime(await answer.text(), text, first.vkey)).toBeGreaterThan(1_700_000_000);
    // A second witness on the same directory is refused while the first serves.
    await expect(runCli()).rejects.toThrow(/another witness \(pid \d+\) serves/);
    await first.stop();
    const second = await runCli();
    expect(second.vkey).toBe(first.vkey);
    const again = await fetch(`${second.url}/add-checkpoint`, { method: 'POST', body: body(0, [], cp(3), log) });
    expect([again.status, await again.text()]).toEqual([409, '2\n']);
    await second.stop();
  });
});
