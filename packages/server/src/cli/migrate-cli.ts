import { loadCommandConfig } from './command-config.ts';
import { openForCommand } from '../db/open-from-config.ts';

// Opening the database applies every pending migration.
const database = await openForCommand(loadCommandConfig('db:migrate'), 'db:migrate');
await database.close();
console.log(`Migrations applied (${database.kind}).`);
