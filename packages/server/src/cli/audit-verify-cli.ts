import { readFileSync } from 'node:fs';
import { loadCommandConfig } from './command-config.ts';
import { describeAudit, verifyAudit } from '../modules/audit/audit-chain.ts';
import {
  describeCheckpoint,
  existingCheckpointKey,
  parseCheckpoint,
  verifyCheckpoint,
  type Checkpoint,
} from '../modules/audit/checkpoint.ts';
import {
  compareGamesWithAuditAndLog,
  describeGamesAudit,
  describeLogRoot,
  verifyLogRoot,
} from '../modules/audit/games-audit.ts';
import { compareLedgerWithAudit, describeLedgerAudit } from '../modules/audit/ledger-audit.ts';
import { openForCommand } from '../db/open-from-config.ts';

// `npm run audit:verify [-- --checkpoint FILE] [--log]`: exits 1 when any audit row was changed,
// removed or inserted afterwards (decision 029), when the ledger and the audit trail disagree
// (decision 044), when a game row disagrees with its game.* audit rows or the game log's leaves, or
// names a game deleted (decision 083), when a chain was deleted, truncated or rewritten since the
// checkpoint (decision 045), or — with --log — when the game log's leaves no longer hash to the
// root it holds, naming the first problems of each, so it can guard a restore, a deploy or a cron
// job; 2 when it did not run: a bad argument or checkpoint file, or a server has the embedded
// database open (decision 043).
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
  const report = await verifyAudit(database.db);
  console.log(`Audit trail (${database.kind}):`);
  for (const line of describeAudit(report)) console.log(line);
  const ledger = await compareLedgerWithAudit(database.db);
  console.log('Ledger and audit trail:');
  for (const line of describeLedgerAudit(ledger)) console.log(line);
  const games = await compareGamesWithAuditAndLog(database.db);
  console.log('Games, their audit rows and the game log:');
  for (const line of describeGamesAudit(games)) console.log(line);
  let ok = report.ok && ledger.ok && games.ok;
  if (logCheck) {
    const root = await verifyLogRoot(database.db);
    console.log("The game log's root:");
    for (const line of describeLogRoot(root)) console.log(line);
    ok &&= root.ok;
  }
  if (checkpoint) {
    const verified = await verifyCheckpoint(database.db, checkpoint, existingCheckpointKey(config.dataDir));
    for (const line of describeCheckpoint(verified)) console.log(line);
    ok &&= verified.ok;
  }
  process.exitCode = ok ? 0 : 1;
} finally {
  await database.close();
}
