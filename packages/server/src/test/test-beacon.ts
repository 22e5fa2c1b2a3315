import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  BEACON_DST,
  BEACON_SCHEME,
  type BeaconChain,
  chainHashOf,
  randomnessOf,
  roundMessage,
  roundTimeMs,
} from '@lot/domain/beacon';

/**
 * A drand relay of a chain of its own, for tests, browser tests and benches (decision 033): real
 * HTTP on 127.0.0.1, drand's paths and JSON, rounds signed with the quicknet scheme (G1
 * signatures, G2 public key) under a key of its own. A round is signed only once its time has come
 * by `clock`; before that it answers 425 as drand's relays do.
 */

/** The default secret key: fixed, so that the default chain (and its hash) is the same on every run. Public: test only. */
export const TEST_BEACON_SECRET_KEY = '1c0ffee5ca1ab1e0b5e55ed0d15ea5edbeac0beac0beac0beac0beac0beac0b1';
/** The default genesis, 2023-11-14T22:13:20Z: fixed for the same reason. */
export const TEST_BEACON_GENESIS = 1_700_000_000;

export type TestBeaconOptions = {
  /** Seconds between rounds (default 1). */
  period?: number;
  /** Unix seconds (default TEST_BEACON_GENESIS). */
  genesisTime?: number;
  /** Unix ms (default Date.now). */
  clock?: () => number;
  /** 32 bytes hex (default TEST_BEACON_SECRET_KEY). */
  secretKey?: string;
  /** Default 0: any free port. */
  port?: number;
  beaconId?: string;
};

/**
 * How the relay misbehaves: `down` drops every connection unanswered, `garbage` answers 200 with a
 * body that is not JSON, `wrong-signature` answers each round with the signature (and its
 * randomness) of the next round, `hang` never answers, `early` serves the rounds of the next
 * minute already while its latest is still the round whose time has come (a relay that lags in
 * what it calls latest, or a beacon that leaks rounds).
 */
export type TestBeaconFailure = 'none' | 'down' | 'garbage' | 'wrong-signature' | 'hang' | 'early';

export type TestBeaconRound = { round: number; randomness: string; signature: string };

export type TestBeacon = {
  /** http://127.0.0.1:port, without a trailing slash. */
  url: string;
  chain: BeaconChain;
  /** The requests received so far, every path and answer counted. */
  readonly requests: number;
  /** Round `round` as the relay serves it, whatever the clock says (tests that forge or inspect). */
  sign(round: number): TestBeaconRound;
  setFailing(mode: TestBeaconFailure): void;
  close(): Promise<void>;
};

/** The newest round whose time has come at `t` (unix ms), 0 before genesis: what the relay serves as latest. */
export function latestRoundAt(chain: Pick<BeaconChain, 'genesisTime' | 'period'>, t: number): number {
  const first = roundTimeMs(chain, 1);
  return t < first ? 0 : Math.floor((t - first) / (chain.period * 1000)) + 1;
}

export async function startTestBeacon(options: TestBeaconOptions = {}): Promise<TestBeacon> {
  const period = options.period ?? 1;
  const genesisTime = options.genesisTime ?? TEST_BEACON_GENESIS;
  const clock = options.clock ?? Date.now;
  const secretKey = hexToBytes(options.secretKey ?? TEST_BEACON_SECRET_KEY);
  const publicKey = bls12_381.shortSignatures.getPublicKey(secretKey).toHex();
  const fields = {
    publicKey,
    genesisTime,
    period,
    scheme: BEACON_SCHEME,
    beaconId: options.beaconId ?? 'lot-test',
    groupHash: bytesToHex(sha256(hexToBytes(publicKey))),
  } as const;
  const chain: BeaconChain = { chainHash: chainHashOf(fields), ...fields };
  const info = {
    public_key: chain.publicKey,
    period: chain.period,
    genesis_time: chain.genesisTime,
    hash: chain.chainHash,
    groupHash: chain.groupHash,
    schemeID: chain.scheme,
    metadata: { beaconID: chain.beaconId },
  };

  const signed = new Map<number, TestBeaconRound>();
  const sign = (round: number): TestBeaconRound => {
    let answer = signed.get(round);
    if (!answer) {
      const message = bls12_381.shortSignatures.hash(roundMessage(round), BEACON_DST);
      const signature = bls12_381.shortSignatures.sign(message, secretKey).toHex();
      answer = { round, randomness: randomnessOf(signature), signature };
      if (signed.size >= 10_000) signed.clear();
      signed.set(round, answer);
    }
    return answer;
  };
  const latest = () => latestRoundAt(chain, clock());

  let failing: TestBeaconFailure = 'none';
  let requests = 0;

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const sendRound = (response: ServerResponse, round: number) => {
    const served = latest() + (failing === 'early' ? 60 / period : 0);
    if (round < 1 || round > served) return send(response, 425, { error: 'round not yet available' });
    if (failing === 'wrong-signature') {
      const { signature, randomness } = sign(round + 1);
      return send(response, 200, { round, randomness, signature });
    }
    send(response, 200, sign(round));
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    requests++;
    if (failing === 'down') return request.socket.destroy();
    if (failing === 'hang') return;
    if (failing === 'garbage') return send(response, 200, '{"round": <html>oops');
    if (request.method !== 'GET') return send(response, 405, { error: 'method not allowed' });

    const segments = new URL(request.url ?? '/', 'http://beacon').pathname.split('/').filter(Boolean);
    // drand's two forms: /{chainHash}/… for any chain, /… for the relay's default chain (ours).
    if (segments.length > 1 && /^[0-9a-f]{64}$/.test(segments[0]!)) {
      if (segments.shift() !== chain.chainHash) return send(response, 404, { error: 'unknown chain' });
    }
    const [first, second, ...rest] = segments;
    if (first === 'info' && second === undefined) return send(response, 200, info);
    if (first === 'public' && rest.length === 0) {
      if (second === 'latest') return sendRound(response, latest());
      if (second && /^[1-9][0-9]{0,15}$/.test(second)) return sendRound(response, Number(second));
    }
    send(response, 404, { error: 'not found' });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    chain,
    get requests() {
      return requests;
    },
    sign,
    setFailing(mode) {
      failing = mode;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
