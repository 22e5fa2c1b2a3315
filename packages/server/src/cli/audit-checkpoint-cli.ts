import { join, resolve } from 'node:path';
import { loadCommandConfig } from './command-config.ts';
import { checkpointFileName, checkpointKey, shortDigest, takeCheckpoint } from '../modules/audit/checkpoint.ts';
import { openForCommand } from '../db/open-from-config.ts';

// `npm run audit:checkpoint [-- --out FILE | URL]` (decision 045): a signed checkpoint of every
// audit chain's head and row count, written to FILE, POSTed to URL, or by default into the
// checkpoint folder (AUDIT_CHECKPOINT_DIR, DATA_DIR/checkpoints). Keep a copy where the database's
// owner cannot reach it; `npm run audit:verify -- --checkpoint FILE` checks the database against it.
const args = process.argv.slice(2);
const out = args[0] === '--out' ? args[1] : undefined;
if (args.length > 0 && (args.length !== 2 || !out)) {
  console.error('Usage: npm run audit:checkpoint [-- --out FILE | URL]');
  process.exit(2);
}

const config = loadCommandConfig('audit:checkpoint');
const database = await openForCommand(config, 'audit:checkpoint');
try {
  const target = out && /^https?:\/\//i.test(out) ? out : out ? resolve(out) : undefined;
  const { checkpoint, target: written } = await takeCheckpoint(
    database.db,
    checkpointKey(config.dataDir),
    target ?? ((c) => resolve(join(config.checkpoints.dir, checkpointFileName(c)))),
    new Date(config.clock()),
  );
  console.log(
    `Audit checkpoint ${shortDigest(checkpoint.digest)} (${checkpoint.chains.length} chains, ${checkpoint.auditRows} rows, ${database.kind}) written to ${written}`,
  );
  console.log(`  SHA-256 ${checkpoint.digest}`);
} catch (error) {
  console.error(`The checkpoint was not written: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
