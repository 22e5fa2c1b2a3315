import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parseChainInfo, QUICKNET, randomnessOf, roundTimeMs, verifyBeaconRound } from '@lot/domain/beacon';
import fixtures from '../../../domain/src/beacon-fixtures/quicknet.json';
import { exitOf } from './server-process.ts';
import { startTestBeacon, TEST_BEACON_GENESIS, type TestBeacon } from './test-beacon.ts';

/** The default chain's hash: the fixed key and genesis keep it the same on every run. */
const DEFAULT_CHAIN_HASH = '9680fde2e6b6fa61023ed475daea0597335dba43565715f394d17a8d4dc8270d';

const started: TestBeacon[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((beacon) => beacon.close()));
});

/** A beacon at a clock the test moves: round 100 of a 1-second chain has just come. */
async function beaconAt(options: Parameters<typeof startTestBeacon>[0] = {}) {
  const clock = { now: (TEST_BEACON_GENESIS + 99) * 1000 + 500 };
  const beacon = await startTestBeacon({ clock: () => clock.now, ...options });
  started.push(beacon);
  return { beacon, clock };
}

async function get(url: string) {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('test beacon', () => {
  it("serves drand's /info in both forms, and its chain hash is stable", async () => {
    const { beacon } = await beaconAt();
    const plain = await get(`${beacon.url}/info`);
    const hashed = await get(`${beacon.url}/${beacon.chain.chainHash}/info`);
    expect(plain).toEqual(hashed);
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body).sort()).toEqual(
      ['genesis_time', 'groupHash', 'hash', 'metadata', 'period', 'public_key', 'schemeID'].sort(),
    );
    expect(plain.body).toMatchObject({
      schemeID: 'bls-unchained-g1-rfc9380',
      period: 1,
      metadata: { beaconID: 'lot-test' },
    });
    expect(parseChainInfo(plain.body)).toEqual(beacon.chain);
    expect(beacon.chain.chainHash).toBe(DEFAULT_CHAIN_HASH);
  });

  it('serves past rounds in both forms, each verifying under its chain with its randomness', async () => {
    const { beacon } = await beaconAt();
    for (const path of ['/public/100', `/${beacon.chain.chainHash}/public/100`, '/public/1', '/public/57']) {
      const { status, body } = await get(beacon.url + path);
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(['randomness', 'round', 'signature']);
      const round = body.round as number;
      expect(verifyBeaconRound(beacon.chain, round, body.signature as string)).toBe(true);
      expect(body.randomness).toBe(randomnessOf(body.signature as string));
    }
  });

  it('never signs a round before its time: 425, until the clock reaches it', async () => {
    const { beacon, clock } = await beaconAt();
    const early = await get(`${beacon.url}/public/101`);
    expect(early.status).toBe(425);
    expect(JSON.stringify(early.body)).not.toContain(beacon.sign(101).signature);
    expect((await get(`${beacon.url}/public/1000000`)).status).toBe(425);

    clock.now = roundTimeMs(beacon.chain, 101) - 1;
    expect((await get(`${beacon.url}/public/101`)).status).toBe(425);
    clock.now = roundTimeMs(beacon.chain, 101);
    expect((await get(`${beacon.url}/public/101`)).body).toEqual(beacon.sign(101));
  });

  it('/public/latest follows the clock; before genesis there is none', async () => {
    const { beacon, clock } = await beaconAt();
    expect((await get(`${beacon.url}/public/latest`)).body.round).toBe(100);
    expect((await get(`${beacon.url}/${beacon.chain.chainHash}/public/latest`)).body.round).toBe(100);
    clock.now += 2_600;
    expect((await get(`${beacon.url}/public/latest`)).body).toEqual(beacon.sign(103));
    clock.now = TEST_BEACON_GENESIS * 1000 - 1;
    expect((await get(`${beacon.url}/public/latest`)).status).toBe(425);
  });

  it('answers 404 for another chain, a bad round and an unknown path', async () => {
    const { beacon } = await beaconAt();
    const other = QUICKNET.chainHash;
    for (const path of [
      `/${other}/info`,
      `/${other}/public/5`,
      '/public/0',
      '/public/-1',
      '/public/abc',
      '/chains',
      '/',
    ]) {
      expect((await get(beacon.url + path)).status, path).toBe(404);
    }
  });

  it('counts requests', async () => {
    const { beacon } = await beaconAt();
    expect(beacon.requests).toBe(0);
    await get(`${beacon.url}/info`);
    await get(`${beacon.url}/nothing`);
    expect(beacon.requests).toBe(2);
  });

  it("another key's rounds fail, and quicknet's and the beacon's never pass for each other", async () => {
    const { beacon } = await beaconAt();
    const { beacon: other } = await beaconAt({ secretKey: '2'.repeat(64) });
    expect(other.chain.publicKey).not.toBe(beacon.chain.publicKey);
    expect(other.chain.chainHash).not.toBe(beacon.chain.chainHash);
    const forged = other.sign(100);
    expect(verifyBeaconRound(other.chain, 100, forged.signature)).toBe(true);
    expect(verifyBeaconRound(beacon.chain, 100, forged.signature)).toBe(false);

    const real = fixtures.rounds[0]!;
    expect(verifyBeaconRound(beacon.chain, real.round, real.signature)).toBe(false);
    expect(verifyBeaconRound(QUICKNET, real.round, beacon.sign(real.round).signature)).toBe(false);
  });

  it('a genesis and a period of its own give a chain of its own', async () => {
    const { beacon } = await beaconAt({ period: 3, genesisTime: TEST_BEACON_GENESIS - 600 });
    expect(beacon.chain.chainHash).not.toBe(DEFAULT_CHAIN_HASH);
    expect((await get(`${beacon.url}/public/latest`)).body.round).toBe(1 + Math.floor((600 + 99.5) / 3));
  });

  describe('failing', () => {
    it('down: the connection drops', async () => {
      const { beacon } = await beaconAt();
      beacon.setFailing('down');
      await expect(get(`${beacon.url}/public/1`)).rejects.toThrow();
      beacon.setFailing('none');
      expect((await get(`${beacon.url}/public/1`)).status).toBe(200);
    });

    it('garbage: 200 with a body that is not JSON', async () => {
      const { beacon } = await beaconAt();
      beacon.setFailing('garbage');
      const response = await fetch(`${beacon.url}/public/1`);
      expect(response.status).toBe(200);
      await expect(response.json()).rejects.toThrow();
    });

    it("wrong-signature: the next round's signature, consistent randomness, that does not verify", async () => {
      const { beacon } = await beaconAt();
      beacon.setFailing('wrong-signature');
      const { status, body } = await get(`${beacon.url}/public/50`);
      expect(status).toBe(200);
      expect(body).toEqual({ ...beacon.sign(51), round: 50 });
      expect(verifyBeaconRound(beacon.chain, 50, body.signature as string)).toBe(false);
    });

    it('hang: no answer, and close() still ends the connection', async () => {
      const { beacon } = await beaconAt();
      beacon.setFailing('hang');
      const request = fetch(`${beacon.url}/public/1`, { signal: AbortSignal.timeout(300) });
      await expect(request).rejects.toThrow(/timeout|aborted/i);
      const pending = fetch(`${beacon.url}/public/1`).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await beacon.close();
      expect(await pending).toBeInstanceOf(Error);
    });
  });
});

describe('test-beacon-cli', () => {
  it('prints { url, chainHash, publicKey } and serves until killed', async () => {
    const cli = fileURLToPath(new URL('./test-beacon-cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--period', '2'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
      const line = JSON.parse(chunk.toString().trim()) as { url: string; chainHash: string; publicKey: string };
      expect(Object.keys(line).sort()).toEqual(['chainHash', 'publicKey', 'url']);
      const info = parseChainInfo((await get(`${line.url}/${line.chainHash}/info`)).body);
      expect(info).toMatchObject({ chainHash: line.chainHash, publicKey: line.publicKey, period: 2 });
      const latest = await get(`${line.url}/public/latest`);
      expect(verifyBeaconRound(info, latest.body.round as number, latest.body.signature as string)).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exitOf(child)).toBe(0);
  });

  it('refuses a bad argument', async () => {
    const cli = fileURLToPath(new URL('./test-beacon-cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--period', '0'], { stdio: 'ignore' });
    expect(await exitOf(child)).toBe(2);
  });
});
