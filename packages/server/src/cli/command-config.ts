import { ConfigError, loadConfig, type Config } from '../config.ts';
import { systemClock, type Clock } from '../lib/clock.ts';

/** A command's settings and its clock: the time a command stamps comes from here (decision 069). */
export type CommandConfig = Config & { clock: Clock };

/** A command's settings; a bad environment stops it with the message and exit code 2. */
export function loadCommandConfig(command: string, env: NodeJS.ProcessEnv = process.env): CommandConfig {
  try {
    return { ...loadConfig(env), clock: systemClock };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${command}: ${error.message}`);
    process.exit(2);
  }
}
