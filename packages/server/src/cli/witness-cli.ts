import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { DataDirBusy, lockDataDir } from '../db/data-dir-lock.ts';
import { systemClock } from '../lib/clock.ts';
import { openWitnessFiles, trustLog, WitnessSetupError } from '../witness/witness-files.ts';
import { startWitnessServer } from '../witness/witness-server.ts';

/**
 * `npm run witness`: a standalone C2SP tlog-witness (docs/deploy.md#9-run-a-witness, decision 078),
 * independent of the LOT app and its database. Run it on another machine, with its own clock.
 *
 *     npm run witness [-- --data-dir DIR --host HOST --port PORT --name NAME]
 *     npm run witness -- trust <log vkey> [--origin ORIGIN] [--data-dir DIR]
 *     npm run witness -- vkey [--data-dir DIR]
 *
 * Flags win over WITNESS_DATA_DIR, WITNESS_HOST, WITNESS_PORT and WITNESS_NAME.
 */
const USAGE = `Usage:
  npm run witness [-- --data-dir DIR --host HOST --port PORT --name NAME]   serve add-checkpoint
  npm run witness -- trust <log vkey> [--origin ORIGIN] [--data-dir DIR]     trust a log's key
  npm run witness -- vkey [--data-dir DIR]                                   print this witness's vkey`;

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      name: { type: 'string' },
      origin: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const env = process.env;
  const portText = values.port ?? env.WITNESS_PORT ?? '7380';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) throw new WitnessSetupError(`not a port: ${portText}`);
  return {
    command: positionals[0] ?? 'serve',
    args: positionals.slice(1),
    help: values.help ?? false,
    dataDir: resolve(values['data-dir'] ?? env.WITNESS_DATA_DIR ?? 'witness-data'),
    host: values.host ?? env.WITNESS_HOST ?? '127.0.0.1',
    port,
    name: values.name ?? env.WITNESS_NAME,
    origin: values.origin,
  };
}

async function main() {
  const opts = options();
  if (opts.help) return console.log(USAGE);
  const files = openWitnessFiles(opts.dataDir, opts.name);
  for (const file of files.created) console.log(`Created ${file}`);
  if (opts.command === 'vkey') return console.log(files.cosigner.vkey);
  if (opts.command === 'trust') {
    const [vkey] = opts.args;
    if (!vkey || opts.args.length > 1) throw new WitnessSetupError(`trust takes one log vkey.\n${USAGE}`);
    const log = trustLog(files, vkey, opts.origin);
    return console.log(`Trusting ${log.vkeys.length} key(s) for the log ${log.origin}. Restart the witness to apply.`);
  }
  if (opts.command !== 'serve') throw new WitnessSetupError(`unknown command ${opts.command}.\n${USAGE}`);
  // One witness per data directory: two would each check and persist on their own (the spec's
  // rollback race). The lock names the process holding it; one left by a dead process is taken over.
  try {
    lockDataDir(join(opts.dataDir, 'witness'), 'witness');
  } catch (error) {
    if (!(error instanceof DataDirBusy)) throw error;
    throw new WitnessSetupError(`another witness (pid ${error.holder.pid}) serves ${opts.dataDir}: stop it first`);
  }
  const { server, url } = await startWitnessServer({
    files,
    clock: systemClock,
    host: opts.host,
    port: opts.port,
    log: (line) => console.log(line),
  });
  console.log(`Witness ${files.config.name} listening on ${url} (data: ${opts.dataDir})`);
  console.log(`vkey: ${files.cosigner.vkey}`);
  if (files.config.logs.length === 0) console.log('It trusts no log yet: npm run witness -- trust <log vkey>');
  for (const log of files.config.logs) console.log(`Trusts ${log.origin} (${log.vkeys.length} key(s))`);
  console.log(`For the operator (DRAW_WITNESSES): ${files.cosigner.vkey}@<this witness's public URL>`);
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

try {
  await main();
} catch (error) {
  const known = error instanceof WitnessSetupError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  console.error(
    `Witness: ${known || !(error instanceof Error) ? String((error as Error).message ?? error) : error.stack}`,
  );
  process.exitCode = 1;
}
