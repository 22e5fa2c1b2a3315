import { readFileSync } from 'node:fs';
import { loadCommandConfig } from './command-config.ts';
import { auditVerify } from '../modules/audit/audit-verify.ts';
import { existingCheckpointKey, parseCheckpoint, type Checkpoint } from '../modules/audit/checkpoint.ts';
import { openForCommand } from '../db/open-from-config.ts';

// `npm run audit:verify [-- --checkpoint FILE] [--log]`: exits 1 when any audit row was changed,
// removed or inserted afterwards (decision 029), when the ledger and the audit trail disagree
// (decision 044), when a game row disagrees with its game.* audit rows or the game log's leaves, or
// names a game deleted (decision 083), when a paid prize claim or a closed shift disagrees with its
// claim.paid or shift.closed audit row or a shop's Z numbers have a gap (decision 087), when a chain
// was deleted, truncated or rewritten since the checkpoint (decision 045), or — with --log — when
// the game log's leaves no longer hash to the root it holds, naming the first problems of each, so
// it can guard a restore, a deploy or a cron job; 2 when it did not run: a bad argument or
// checkpoint file, or a server has the embedded database open (decision 043).
const args = process.argv.slice(2);
const logCheck = args.includes('--log');
const rest = args.filter((a) => a !== '--log');
const at = rest.indexOf('--checkpoint');
const checkpointFile = at >= 0 ? rest[at + 1] : undefined;
// Every argument is --checkpoint, its file, or --log (an unknown first argument too).
if ((at >= 0 && !checkpointFile) || rest.some((a, i) => a !== '--checkpoint' && (at < 0 || i !== at + 1))) {
  console.error('Usage: npm run audit:verify [-- --checkpoint FILE] [--log]');
  process.exit(2);
}

let checkpoint: Checkpoint | undefined;
if (checkpointFile) {
  try {
    checkpoint = parseCheckpoint(readFileSync(checkpointFile, 'utf8'));
  } catch (error) {
    console.error(`Cannot read the checkpoint ${checkpointFile}: ${(error as Error).message}`);
    process.exit(2);
  }
}

const config = loadCommandConfig('audit:verify');
const database = await openForCommand(config, 'audit:verify');
try {
  const { ok, lines } = await auditVerify(database.db, {
    kind: database.kind,
    log: logCheck,
    checkpoint: checkpoint && { checkpoint, ownKey: existingCheckpointKey(config.dataDir) },
  });
  for (const line of lines) console.log(line);
  process.exitCode = ok ? 0 : 1;
} finally {
  await database.close();
}
