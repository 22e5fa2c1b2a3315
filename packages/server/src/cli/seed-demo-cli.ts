import { ConfigError } from '../config.ts';
import { loadCommandConfig } from './command-config.ts';
import { openSeedBox } from '../lib/seed-box.ts';
import { resolveSealingKey } from '../secrets.ts';
import { openForCommand } from '../db/open-from-config.ts';
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from './seed.ts';

const config = loadCommandConfig('seed:demo');
const database = await openForCommand(config, 'seed:demo');
try {
  const seeds = await openSeedBox(
    database.db,
    await resolveSealingKey(database.db, 'seed-key', config.seedKey, config.dataDir),
  );
  const result = await seedDemo(database.db, seeds);
  if (!result.seeded) {
    console.log('The database already has users besides the admin: nothing seeded.');
  } else {
    console.log('Demo hierarchy created. Logins:');
    console.log(
      `  admin      ${result.adminPassword ? `admin / ${result.adminPassword}` : '(the existing admin account)'}`,
    );
    for (const user of DEMO_USERS) console.log(`  ${user.role.padEnd(10)} ${user.username} / ${DEMO_PASSWORD}`);
  }
} catch (error) {
  // A seed key the database refuses, or its file missing (decision 042): the one line, no stack.
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await database.close();
}
