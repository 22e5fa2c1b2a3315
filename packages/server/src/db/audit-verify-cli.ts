import { loadConfig } from '../config.ts';
import { describeAudit, verifyAudit } from '../modules/audit/audit-chain.ts';
import { openConfiguredDatabase } from './open-from-config.ts';

// `npm run audit:verify`: exits 1 when any audit row was changed, removed or inserted afterwards
// (decision 029), naming the first bad one, so it can guard a restore, a deploy or a cron job.
const database = await openConfiguredDatabase(loadConfig());
try {
  const report = await verifyAudit(database.db);
  console.log(`Audit trail (${database.kind}):`);
  for (const line of describeAudit(report)) console.log(line);
  process.exitCode = report.ok ? 0 : 1;
} finally {
  await database.close();
}
