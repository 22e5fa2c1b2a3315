import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BeaconChain, firstRoundAfter, QUICKNET, roundTimeMs, verifyBeaconRound } from '@lot/domain/beacon';
import fixtures from '../../../domain/src/beacon-fixtures/quicknet.json';
import { startTestBeacon, TEST_BEACON_GENESIS, type TestBeacon } from '../test/test-beacon.ts';
import { BeaconClient, type BeaconClientOptions, type BeaconRound } from './beacon-client.ts';

const beacons: TestBeacon[] = [];
const clients: BeaconClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(beacons.splice(0).map((beacon) => beacon.close()));
});

/** Round 100 of the default 1-second test chain has just come, by this clock. */
const AT_ROUND_100 = (TEST_BEACON_GENESIS + 99) * 1000 + 500;

async function beacon(options: Parameters<typeof startTestBeacon>[0] = {}) {
  const started = await startTestBeacon({ clock: () => AT_ROUND_100, ...options });
  beacons.push(started);
  return started;
}

function logger() {
  return { warn: vi.fn(), debug: vi.fn() };
}

function client(options: Partial<BeaconClientOptions> & Pick<BeaconClientOptions, 'urls' | 'chain'>) {
  const made = new BeaconClient({ timeoutMs: 1_000, clock: () => AT_ROUND_100, ...options });
  clients.push(made);
  return made;
}

/** Wait until `check` holds, checking every 10 ms (at most `ms`). */
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('round', () => {
  it('answers a round verified under the pinned chain, then from the cache', async () => {
    const relay = await beacon();
    const beaconClient = client({ urls: [relay.url], chain: relay.chain });
    const round = await beaconClient.round(42);
    expect(round).toEqual(relay.sign(42));
    expect(verifyBeaconRound(relay.chain, 42, round!.signature)).toBe(true);
    expect(beaconClient.cached(42)).toEqual(round);

    const requests = relay.requests;
    expect(await beaconClient.round(42)).toEqual(round);
    expect(relay.requests).toBe(requests);
  });

  it('undefined for a round whose time has not come, without a warning', async () => {
    const relay = await beacon();
    const log = logger();
    const beaconClient = client({ urls: [relay.url], chain: relay.chain, log });
    expect(await beaconClient.round(101)).toBeUndefined();
    expect(beaconClient.cached(101)).toBeUndefined();
    expect(log.warn).not.toHaveBeenCalled();
    expect(log.debug).toHaveBeenCalledWith(
      expect.objectContaining({ relay: relay.url, round: 101, reason: 'HTTP 425' }),
      expect.any(String),
    );
  });

  it('throws on what is not a round number', async () => {
    const relay = await beacon();
    const beaconClient = client({ urls: [relay.url], chain: relay.chain });
    for (const r of [0, -1, 1.5, Number.NaN]) {
      expect(() => beaconClient.round(r)).toThrow(RangeError);
      expect(() => beaconClient.prefetch(r)).toThrow(RangeError);
    }
  });

  it('concurrent calls for one round share one request', async () => {
    const relay = await beacon();
    const beaconClient = client({ urls: [relay.url], chain: relay.chain });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => beaconClient.round(77)));
    expect(new Set(answers.map((a) => a?.signature)).size).toBe(1);
    expect(relay.requests).toBe(1);
  });

  it('reads a relay URL that already names the chain ({url}/public/{r})', async () => {
    const relay = await beacon();
    const beaconClient = client({ urls: [`${relay.url}/${relay.chain.chainHash}/`], chain: relay.chain });
    expect(await beaconClient.round(9)).toEqual(relay.sign(9));
    expect(await beaconClient.checkInfo()).toEqual(relay.chain);
  });

  it.each(['down', 'garbage', 'wrong-signature', 'hang'] as const)(
    'passes over a relay that is %s (warned) and takes the next',
    async (mode) => {
      const bad = await beacon();
      const good = await beacon();
      bad.setFailing(mode);
      const log = logger();
      const beaconClient = client({ urls: [bad.url, good.url], chain: good.chain, log, timeoutMs: 300 });
      expect(await beaconClient.round(60)).toEqual(good.sign(60));
      expect(bad.requests).toBeGreaterThanOrEqual(1);
      expect(log.warn).toHaveBeenCalledTimes(1);
      expect(log.warn).toHaveBeenCalledWith(
        expect.objectContaining({ relay: bad.url, round: 60, reason: expect.any(String) }),
        'beacon relay answer refused',
      );
    },
  );

  it('never returns an unverified round: every relay bad gives undefined and nothing cached', async () => {
    const relays = [await beacon(), await beacon(), await beacon()];
    relays[0]!.setFailing('wrong-signature');
    relays[1]!.setFailing('garbage');
    relays[2]!.setFailing('down');
    const log = logger();
    const beaconClient = client({ urls: relays.map((r) => r.url), chain: relays[0]!.chain, log });
    expect(await beaconClient.round(30)).toBeUndefined();
    expect(beaconClient.cached(30)).toBeUndefined();
    expect(log.warn).toHaveBeenCalledTimes(3);
  });

  it("refuses another key's rounds, another round's answer and a randomness that disagrees", async () => {
    const good = await beacon();
    const forger = await beacon({ secretKey: '3'.repeat(64) });
    const reason = async (rewrite: (body: BeaconRound) => unknown) => {
      const log = logger();
      const fakeFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const body = (await response.json()) as BeaconRound;
        return new Response(JSON.stringify(rewrite(body)), { status: response.status });
      };
      const beaconClient = client({ urls: [good.url], chain: good.chain, fetch: fakeFetch, log });
      expect(await beaconClient.round(50)).toBeUndefined();
      return (log.warn.mock.calls[0]?.[0] as { reason: string }).reason;
    };
    expect(await reason(() => forger.sign(50))).toMatch(/signature does not verify/);
    expect(await reason(() => good.sign(49))).toMatch(/answered round 49/);
    expect(await reason((body) => ({ ...body, round: '50' }))).toMatch(/answered round "50"/);
    expect(await reason((body) => ({ ...body, randomness: '00'.repeat(32) }))).toMatch(/randomness/);
    expect(await reason((body) => ({ ...body, signature: undefined }))).toMatch(/signature/);
    expect(await reason(() => [])).toMatch(/not a JSON object/);
    // No randomness field at all is fine: it is recomputed.
    const beaconClient = client({
      urls: [good.url],
      chain: good.chain,
      fetch: async (input, init) => {
        const { round, signature } = (await (await fetch(input, init)).json()) as BeaconRound;
        return new Response(JSON.stringify({ round, signature }));
      },
    });
    expect(await beaconClient.round(50)).toEqual(good.sign(50));
  });

  it('refuses an answer larger than a round could be', async () => {
    const relay = await beacon();
    const log = logger();
    const huge = JSON.stringify({ ...relay.sign(5), padding: 'x'.repeat(100_000) });
    const beaconClient = client({
      urls: [relay.url],
      chain: relay.chain,
      log,
      fetch: async () => new Response(huge),
    });
    expect(await beaconClient.round(5)).toBeUndefined();
    expect(log.warn.mock.calls[0]?.[0]).toMatchObject({ reason: 'answer too large' });
  });

  it('keeps only the newest cacheSize rounds', async () => {
    const relay = await beacon();
    const beaconClient = client({ urls: [relay.url], chain: relay.chain, cacheSize: 3 });
    for (const r of [1, 2, 3, 4, 5]) await beaconClient.round(r);
    expect([1, 2, 3, 4, 5].map((r) => beaconClient.cached(r) !== undefined)).toEqual([false, false, true, true, true]);
  });

  it('calls onRound once per round that arrives; a throwing listener is logged, not fatal', async () => {
    const relay = await beacon();
    const seen: number[] = [];
    const log = logger();
    const beaconClient = client({
      urls: [relay.url],
      chain: relay.chain,
      log,
      onRound: (round) => {
        seen.push(round.round);
        if (round.round === 8) throw new Error('listener broke');
      },
    });
    await beaconClient.round(7);
    await beaconClient.round(7);
    expect(await beaconClient.round(8)).toEqual(relay.sign(8));
    expect(seen).toEqual([7, 8]);
    expect(log.warn).toHaveBeenCalledWith({ round: 8, reason: 'listener broke' }, 'beacon onRound listener threw');
  });
});

describe('real quicknet rounds through the client', () => {
  /** A relay serving the recorded quicknet rounds as drand's relays do (404 for the rest). */
  const quicknetRelay =
    (rewrite: (signature: string) => string = (s) => s): typeof fetch =>
    async (input) => {
      const match = /\/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971\/public\/(\d+)$/.exec(
        String(input),
      );
      const round = fixtures.rounds.find((r) => r.round === Number(match?.[1]));
      if (!round) return new Response('not found', { status: 404 });
      const { randomness, signature } = round;
      return Response.json({ round: round.round, randomness, signature: rewrite(signature) });
    };

  it('verifies each recorded round under the pinned QUICKNET', async () => {
    const beaconClient = client({ urls: ['https://relay.invalid'], chain: QUICKNET, fetch: quicknetRelay() });
    for (const r of fixtures.rounds) expect(await beaconClient.round(r.round)).toEqual({ ...r, source: undefined });
  });

  it('refuses a relay that flips one bit and takes the next relay', async () => {
    const log = logger();
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith('0') ? '1' : '0');
    const relays: Record<string, typeof fetch> = {
      'https://liar.invalid': quicknetRelay(flip),
      'https://honest.invalid': quicknetRelay(),
    };
    const beaconClient = client({
      urls: Object.keys(relays),
      chain: QUICKNET,
      log,
      fetch: (input, init) => relays[new URL(String(input)).origin]!(input, init),
    });
    const real = fixtures.rounds[1]!;
    expect(await beaconClient.round(real.round)).toMatchObject({ signature: real.signature });
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ relay: 'https://liar.invalid', reason: expect.stringMatching(/signature/) }),
      'beacon relay answer refused',
    );
  });
});

describe('checkInfo', () => {
  it('accepts the pinned chain from the first relay that answers', async () => {
    const down = await beacon();
    const garbage = await beacon();
    const good = await beacon();
    down.setFailing('down');
    garbage.setFailing('garbage');
    const log = logger();
    const beaconClient = client({ urls: [down.url, garbage.url, good.url], chain: good.chain, log });
    expect(await beaconClient.checkInfo()).toEqual(good.chain);
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ relay: garbage.url }),
      'beacon relay /info refused',
    );
  });

  it('throws when a relay serves another chain', async () => {
    const other = await beacon({ secretKey: '4'.repeat(64) });
    const beaconClient = client({ urls: [other.url], chain: QUICKNET });
    await expect(beaconClient.checkInfo()).rejects.toThrow(
      `beacon relay ${other.url} serves chain ${other.chain.chainHash}, not the pinned ${QUICKNET.chainHash} (chainHash, publicKey, genesisTime, period, beaconId, groupHash differ)`,
    );
  });

  it('throws when a relay serves the chain hash with other fields (a relay that lies about its hash)', async () => {
    const relay = await beacon();
    const lying: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const info = (await response.json()) as Record<string, unknown>;
      return Response.json({ ...info, hash: QUICKNET.chainHash }, { status: response.status });
    };
    const log = logger();
    const beaconClient = client({ urls: [relay.url], chain: QUICKNET, fetch: lying, log });
    await expect(beaconClient.checkInfo()).rejects.toThrow(
      /no beacon relay answered \/info: .*not the hash of its fields/,
    );
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ relay: relay.url }), 'beacon relay /info refused');
  });

  it('throws when no relay answers', async () => {
    const down = await beacon();
    const hang = await beacon();
    down.setFailing('down');
    hang.setFailing('hang');
    const beaconClient = client({ urls: [down.url, hang.url], chain: down.chain, timeoutMs: 200 });
    await expect(beaconClient.checkInfo()).rejects.toThrow(
      new RegExp(`no beacon relay answered /info: ${down.url}: .+; ${hang.url}: .*timeout`),
    );
  });

  it('refuses a pinned chain whose hash is not the hash of its fields', () => {
    const wrong: BeaconChain = { ...QUICKNET, period: 30 };
    expect(() => new BeaconClient({ urls: ['https://relay.invalid'], chain: wrong })).toThrow(
      /not the hash of its fields/,
    );
    expect(() => new BeaconClient({ urls: [], chain: QUICKNET })).toThrow(/no relay/);
  });
});

describe('prefetch', () => {
  it('asks nothing before the round time by the clock, then fetches it once and tells onRound', async () => {
    const relay = await startTestBeacon(); // real time
    beacons.push(relay);
    const next = firstRoundAfter(relay.chain, Date.now() + 300);
    const arrived: BeaconRound[] = [];
    const beaconClient = client({
      urls: [relay.url],
      chain: relay.chain,
      clock: Date.now,
      onRound: (round) => arrived.push(round),
      retry: { firstMs: 20 },
    });
    beaconClient.prefetch(next);
    beaconClient.prefetch(next);
    expect(relay.requests).toBe(0);
    await until(() => Date.now() >= roundTimeMs(relay.chain, next) - 100);
    expect(relay.requests).toBe(0);
    await until(() => arrived.length > 0, 3_000);
    expect(Date.now()).toBeGreaterThanOrEqual(roundTimeMs(relay.chain, next));
    expect(arrived).toEqual([relay.sign(next)]);
    expect(beaconClient.cached(next)).toEqual(relay.sign(next));
    beaconClient.prefetch(next); // had: nothing to do
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrived).toHaveLength(1);
  });

  it('retries with backoff while the relays lag behind the clock', async () => {
    const beaconTime = { now: AT_ROUND_100 };
    const relay = await beacon({ clock: () => beaconTime.now });
    const arrived: number[] = [];
    const beaconClient = client({
      urls: [relay.url],
      chain: relay.chain,
      clock: () => AT_ROUND_100 + 1_000, // round 101 is due by the client's clock, not yet by the relay's
      onRound: (round) => arrived.push(round.round),
      retry: { firstMs: 10, maxMs: 40 },
    });
    beaconClient.prefetch(101);
    await until(() => relay.requests >= 5);
    expect(arrived).toEqual([]);
    beaconTime.now += 1_000;
    await until(() => arrived.length > 0);
    expect(arrived).toEqual([101]);
    const requests = relay.requests;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(relay.requests).toBe(requests);
  });

  it('backs off: the delays double up to the maximum', async () => {
    const relay = await beacon();
    relay.setFailing('garbage');
    const times: number[] = [];
    const beaconClient = client({
      urls: [relay.url],
      chain: relay.chain,
      fetch: (input, init) => {
        times.push(Date.now());
        return fetch(input, init);
      },
      retry: { firstMs: 20, maxMs: 80 },
    });
    beaconClient.prefetch(10);
    await until(() => times.length >= 6);
    beaconClient.close();
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 20, 40, 80, 80, 80 ms (timers fire late, never early)
    expect(gaps.slice(0, 5).map((gap, i) => gap >= [20, 40, 80, 80, 80][i]! - 2)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(Math.min(...gaps.slice(2, 5))).toBeLessThan(80 * 3);
  });

  it('close() stops retries and waits, and aborts a request in flight', async () => {
    const relay = await beacon();
    relay.setFailing('garbage');
    const beaconClient = client({ urls: [relay.url], chain: relay.chain, retry: { firstMs: 10 } });
    beaconClient.prefetch(20);
    beaconClient.prefetch(1_000_000); // far in the future: a timer
    await until(() => relay.requests >= 3);
    beaconClient.close();
    const requests = relay.requests;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(relay.requests).toBeLessThanOrEqual(requests + 1);

    const hanging = await beacon();
    hanging.setFailing('hang');
    const other = client({ urls: [hanging.url], chain: hanging.chain, timeoutMs: 10_000 });
    const pending = other.round(5);
    await until(() => hanging.requests === 1);
    const start = Date.now();
    other.close();
    expect(await pending).toBeUndefined();
    expect(Date.now() - start).toBeLessThan(1_000);
    expect(await other.round(6)).toBeUndefined();
    expect(hanging.requests).toBe(1);
  });
});
