import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from './open-from-config.ts';

// Opening the database applies every pending migration.
const database = await openConfiguredDatabase(loadConfig());
await database.close();
console.log(`Migrations applied (${database.kind}).`);
