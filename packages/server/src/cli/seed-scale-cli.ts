import { loadCommandConfig } from './command-config.ts';
import { openForCommand } from '../db/open-from-config.ts';
import { ensureAdmin } from './seed.ts';
import { SCALE_PASSWORD, seedScale } from './seed-scale.ts';

// `npm run seed:scale`: 100,000 users and 1,000,000 games into the PostgreSQL of DATABASE_URL.
const config = loadCommandConfig('seed:scale');
if (!config.databaseUrl) {
  console.error('seed:scale loads PostgreSQL: set DATABASE_URL (and JWT_SECRET, TOTP_KEY, SEED_KEY).');
  process.exit(1);
}
const database = await openForCommand(config, 'seed:scale');
try {
  const admin = await ensureAdmin(database.db, { username: config.adminUsername, password: config.adminPassword });
  if (admin.created) console.log(`Admin login: ${admin.username} / ${admin.password}`);
  const options = {
    users: Number(process.env.SCALE_USERS ?? 100_000),
    games: Number(process.env.SCALE_GAMES ?? 1_000_000),
    superagents: 100,
    agentsPerSuperagent: 10,
  };
  const started = performance.now();
  await seedScale(database.db, options);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Loaded ${options.users} users and ${options.games} games in ${seconds} s.`);
  console.log(`Logins: sa_1 (superagent), ag_1 (agent), u_1 (user) … password ${SCALE_PASSWORD}`);
} finally {
  await database.close();
}
