import { loadConfig } from '../config.ts';
import { describeAudit, verifyAudit } from '../modules/audit/audit-chain.ts';
import { openForCommand } from './open-from-config.ts';

// `npm run audit:verify`: exits 1 when any audit row was changed, removed or inserted afterwards
// (decision 029), naming the first bad one, so it can guard a restore, a deploy or a cron job; 2 when
// it did not run because a server has the embedded database open (decision 043).
const database = await openForCommand(loadConfig(), 'audit:verify');
try {
  const report = await verifyAudit(database.db);
  console.log(`Audit trail (${database.kind}):`);
  for (const line of describeAudit(report)) console.log(line);
  process.exitCode = report.ok ? 0 : 1;
} finally {
  await database.close();
}
