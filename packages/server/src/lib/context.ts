import type { DrawCrypto } from '@lot/domain/draw';
import type { Db } from '../db/client.ts';
import { BoundedMemory } from './bounded-memory.ts';
import { systemClock, type Clock } from './clock.ts';
import { unsignedGameLog } from './game-log-signer.ts';
import type { Caller } from './caller.ts';
import { noDisplays, type Displays } from './display-streams.ts';
import type { WitnessConfig } from '../config.ts';
import { noWitnessRounds, type WitnessRounds } from './witness-client.ts';
import type { DrawBeacon } from './draw-beacon.ts';
import type { GameLogSigner } from './game-log-signer.ts';
import { noMetrics, type Metrics } from './metrics.ts';
import type { SeedBox } from './seed-box.ts';
import { noTokens, type Tokens } from './tokens.ts';

/**
 * What a service reaches besides its input (docs/ARCHITECTURE.md#context). The app builds one per
 * process (`AppContext`) and every request adds its caller (`Context`); a command-line tool builds
 * its own with `commandContext`. Services take it as their first argument and reach nothing else:
 * no registry keyed by the database, no global set at import time, no decoration of the app that
 * duplicates a field (decision 070).
 */

/** Changes committed, told to whoever keeps a copy: this process's displays and caller cache (and, on PostgreSQL, every process). */
export type Events = {
  /** The game with this code changed: its customer displays re-read it. */
  gameChanged(code: string): void;
  /** The user changed (password, status, deletion): its cached caller goes now. */
  callerChanged(id: number): void;
  /** These sessions ended or changed. */
  sessionsChanged(ids: readonly string[]): void;
};

export type Witnesses = { list: WitnessConfig[]; quorum: number; rounds: WitnessRounds };
export const noWitnesses = (): Witnesses => ({ list: [], quorum: 0, rounds: noWitnessRounds() });

/** The few configured values services read. */
export type Config = {
  /** TOTP_KEY: two-factor secrets are sealed with it (decision 028). */
  totpKey: string;
};

/** A logger as services use it (pino's, in the app). */
export type Log = {
  info: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
  error: (object: object, message: string) => void;
};

export type AppContext = {
  db: Db;
  /**
   * Milliseconds since the epoch: every time a service, a route or a command reads (decision 069).
   * The machine's clock in production; tests move it, set it back, or skew it for one request.
   */
  clock: Clock;
  log: Log;
  /** Seals and opens the games' secret seeds with SEED_KEY (decision 034). */
  seeds: SeedBox;
  /** The public randomness LOT-DRAW-2 games wait for (decision 033). */
  beacon: DrawBeacon;
  /** The draw's hashes (Node's crypto in the app, decision 013). */
  drawCrypto: DrawCrypto;
  /** The game log's origin and key: signs its checkpoints (LOG_KEY, LOG_ORIGIN; decision 081). */
  gameLog: GameLogSigner;
  /**
   * The freeze's witnesses (DRAW_WITNESSES, DRAW_WITNESS_QUORUM; decision 080), and this process's
   * submissions to them: one round in flight at a time (decision 093).
   */
  witnesses: Witnesses;
  events: Events;
  metrics: Metrics;
  config: Config;
  /** Signs sessions' access tokens and sign-in challenges with the app's key (decisions 028, 070). */
  tokens: Tokens;
  /** The customer displays' live streams of this process (decisions 014, 046, 070). */
  displays: Displays;
  /**
   * Per game id, the game as this process last left or read it while it draws, so its next draw
   * skips the read (decision 052).
   */
  games: GameMemory;
};

/**
 * What the draw's memory keeps of a game. lib/ sits below the modules, so it only names the slot:
 * the games module says what a remembered game is (modules/games/draw-memory.ts, by declaration
 * merging), as a plugin declares its decorations on Fastify's instance.
 */
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions, @typescript-eslint/no-empty-object-type -- filled in by the games module
export interface RememberedGame {}

/** The draw's memory of games: a few thousand at most (decision 052). */
export type GameMemory = BoundedMemory<number, RememberedGame>;
const GAME_MEMORY_LIMIT = 4096;
export const gameMemory = (): GameMemory => new BoundedMemory<number, RememberedGame>(GAME_MEMORY_LIMIT);

/** A request's context: the process's collaborators and who is calling. */
export type Context<C extends Caller | null = Caller> = AppContext & { caller: C };

export const withCaller = <C extends Caller | null>(app: AppContext, caller: C): Context<C> => ({ ...app, caller });

/**
 * A command-line tool's context (seeds, checks): the machine's clock, nobody listening, nothing
 * counted, no tokens signed and no displays served.
 */
export function commandContext(
  parts: Pick<AppContext, 'db' | 'seeds' | 'beacon' | 'drawCrypto' | 'config'> & { log?: Log; gameLog?: GameLogSigner },
): AppContext {
  const quiet = () => {};
  return {
    gameLog: unsignedGameLog,
    witnesses: noWitnesses(),
    ...parts,
    clock: systemClock,
    log: parts.log ?? { info: quiet, warn: quiet, error: quiet },
    events: { gameChanged: quiet, callerChanged: quiet, sessionsChanged: quiet },
    metrics: noMetrics,
    tokens: noTokens,
    displays: noDisplays,
    games: gameMemory(),
  };
}
