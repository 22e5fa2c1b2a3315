import { parseArgs } from 'node:util';
import { startTestBeacon } from './test-beacon.ts';

/**
 * The test beacon as a process, for browser tests and benches:
 * `node --import tsx packages/server/src/test/test-beacon-cli.ts [--port N] [--period S] [--genesis T]`
 * prints one JSON line `{ url, chainHash, publicKey }` and serves until killed (SIGINT, SIGTERM).
 */
const { values } = parseArgs({
  options: { port: { type: 'string' }, period: { type: 'string' }, genesis: { type: 'string' } },
  strict: true,
});

function whole(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    console.error(`--${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
}

const beacon = await startTestBeacon({
  port: whole('port', values.port, 0, 65_535),
  period: whole('period', values.period, 1, 3_600),
  genesisTime: whole('genesis', values.genesis, 0, 2 ** 40),
});
process.stdout.write(
  `${JSON.stringify({ url: beacon.url, chainHash: beacon.chain.chainHash, publicKey: beacon.chain.publicKey })}\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void beacon.close().then(() => process.exit(0)));
}
