import { loadCommandConfig } from './command-config.ts';
import { checkLedger } from '../modules/balance/ledger.ts';
import { openForCommand } from '../db/open-from-config.ts';

// `npm run ledger:check`: exits 1 on any difference, so it can guard a deploy or a cron job; 2 when
// it did not run because a server has the embedded database open (decision 043).
const database = await openForCommand(loadCommandConfig('ledger:check'), 'ledger:check');
try {
  const report = await checkLedger(database.db);
  console.log(`Ledger check (${database.kind}): ${report.users} balances, ${report.transactions} transactions`);
  console.log(`  sum of balances      ${report.totals.balances}`);
  console.log(`  top-ups              ${report.totals.topups}`);
  console.log(`  decreases and games  ${report.totals.withdrawn}`);
  console.log(`  expected             ${report.totals.expected}`);
  for (const m of report.mismatches)
    console.log(`  MISMATCH user ${m.userId}: balance ${m.balance}, ledger ${m.ledger}`);
  if (report.negative > 0) console.log(`  NEGATIVE balances: ${report.negative}`);
  if (report.holds > 0) console.log(`  games whose held pool disagrees with the game: ${report.holds}`);
  if (report.rollups > 0)
    console.log(`  daily rollup cells that differ from the games and the ledger: ${report.rollups}`);
  console.log(report.ok ? 'OK: every cent is accounted for.' : 'FAILED: the ledger does not balance.');
  process.exitCode = report.ok ? 0 : 1;
} finally {
  await database.close();
}
