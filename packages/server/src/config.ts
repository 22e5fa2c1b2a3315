import { isIP } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { QUICKNET } from '@lot/domain/beacon';
import { FREEZE_MARGIN_MS, MAX_FREEZE_MARGIN_MS, MIN_FREEZE_MARGIN_MS } from '@lot/domain/freeze-round';
import { SIG_TYPE_COSIGNATURE_V1, parseVerifierKey } from '@lot/domain/tlog/note';
import { passwordSchema, usernameSchema } from '@lot/domain/schemas/users';

/** drand's public relays of quicknet (decision 033). */
export const DEFAULT_BEACON_URLS = ['https://api.drand.sh', 'https://api2.drand.sh', 'https://api3.drand.sh'];

/** Empty variables count as unset, so `PORT= npm start` means the default. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** An IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrRange(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A comma list of addresses and ranges; blanks around commas are ignored. */
const addressList = z
  .string()
  .transform((text) => text.split(',').map((item) => item.trim()))
  .refine((items) => items.every(isAddressOrRange), 'must be a comma-separated list of IP addresses or CIDR ranges');

/**
 * PUBLIC_URL: the address customers reach LOT at (docs/product/runtime-and-security.md#public-url).
 * An http or https origin: no path (the app is served at the root), query, fragment or credentials;
 * a trailing slash is dropped, so links append `/verify/…` to it.
 */
function parsePublicUrl(text: string, ctx: z.RefinementCtx): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (
    !url ||
    !['http:', 'https:'].includes(url.protocol) ||
    !/^https?:\/\/[^\s/?#]+/i.test(text) ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    text.includes('?') ||
    text.includes('#') ||
    url.username !== '' ||
    url.password !== ''
  ) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an http:// or https:// address without a path, query or fragment, e.g. https://lot.example.com',
    });
    return z.NEVER;
  }
  return url.origin;
}

/** A witness of the freeze (decision 080): its cosignature/v1 vkey and where to submit checkpoints. */
export type WitnessConfig = { vkey: string; url: string; name: string };

/**
 * DRAW_WITNESSES: `<witness vkey>@<submission URL prefix>`, comma-separated; each vkey a C2SP
 * cosignature/v1 Ed25519 key (type 0x04), each prefix an http(s) URL (its add-checkpoint path
 * follows it). The same witness twice is refused.
 */
function parseWitnesses(text: string, ctx: z.RefinementCtx): WitnessConfig[] {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const witnesses: WitnessConfig[] = [];
  for (const item of items) {
    const match = /^(.+?)@(https?:\/\/\S+)$/.exec(item);
    let problem: string | undefined;
    let name = '';
    try {
      if (!match || !URL.canParse(match[2] ?? '')) throw new Error('it is not <witness vkey>@<http(s) URL prefix>');
      const key = parseVerifierKey(match[1] ?? '');
      if (key.type !== SIG_TYPE_COSIGNATURE_V1)
        throw new Error('the vkey is not a cosignature/v1 witness key (type 0x04)');
      name = key.name;
      if (witnesses.some((w) => w.vkey === match[1])) throw new Error('the same witness is named twice');
    } catch (error) {
      problem = (error as Error).message;
    }
    if (problem || !match) {
      ctx.addIssue({ code: 'custom', message: `${item.slice(0, 60)}: ${problem ?? 'unreadable'}` });
      return z.NEVER;
    }
    witnesses.push({ vkey: match[1] ?? '', url: (match[2] ?? '').replace(/\/+$/, ''), name });
  }
  return witnesses;
}

/** Fastify's `trustProxy`: every proxy, a number of hops, or the proxies' addresses and ranges. */
export type TrustProxy = boolean | number | string[];

function parseTrustProxy(text: string, ctx: z.RefinementCtx): TrustProxy {
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d{1,2}$/.test(text) && Number(text) > 0) return Number(text);
  const items = text.split(',').map((item) => item.trim());
  if (items.every(isAddressOrRange)) return items;
  ctx.addIssue({
    code: 'custom',
    message: 'must be true, false, a hop count from 1 to 99, or a comma-separated list of IP addresses or CIDR ranges',
  });
  return z.NEVER;
}

const FREEZE_MARGIN_TEXT = `must be a number of milliseconds from ${MIN_FREEZE_MARGIN_MS} to ${MAX_FREEZE_MARGIN_MS}`;

const envSchema = z
  .object({
    // Digits only: a number coercion would read ' ' as port 0 (a random port) and '0x10' as 16.
    PORT: optional(
      z
        .string()
        .regex(/^\d{1,5}$/, 'must be a port number from 0 to 65535')
        .transform(Number)
        .refine((port) => port <= 65535, 'must be a port number from 0 to 65535'),
    ).transform((v) => v ?? 3000),
    HOST: optional(z.string()).transform((v) => v ?? '127.0.0.1'),
    DATA_DIR: optional(z.string()).transform((v) => v ?? './data'),
    DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')),
    // Behind PgBouncer in transaction mode (decision 055): LISTEN and the migration lock on a direct
    // connection, and statements without names.
    DATABASE_DIRECT_URL: optional(
      z.string().regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL'),
    ),
    DATABASE_PREPARED: optional(z.enum(['on', 'off'], { error: 'must be on or off' })).transform((v) => v !== 'off'),
    JWT_SECRET: optional(z.string().min(32, 'must be at least 32 characters long')),
    TOTP_KEY: optional(z.string().min(32, 'must be at least 32 characters long')),
    SEED_KEY: optional(z.string().min(32, 'must be at least 32 characters long')),
    // The game log's signing key (decision 081): its Ed25519 key is derived from this string.
    LOG_KEY: optional(z.string().min(32, 'must be at least 32 characters long')),
    LOG_ORIGIN: optional(
      z
        .string()
        .trim()
        .regex(
          /^[\x21-\x2a\x2c-\x7e]{1,200}$/,
          'must be a name without spaces or "+", e.g. lot.example.com/games (the log\'s origin line)',
        ),
    ),
    ADMIN_USERNAME: optional(usernameSchema).transform((v) => v ?? 'admin'),
    ADMIN_PASSWORD: optional(passwordSchema),
    LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).transform(
      (v) => v ?? 'info',
    ),
    METRICS_ALLOW: optional(addressList).transform((v) => v ?? ['127.0.0.1', '::1']),
    // Public randomness for LOT-DRAW-2 (decision 033): required, auto (LOT-DRAW-1 while unreachable) or off.
    DRAW_BEACON: optional(z.enum(['required', 'auto', 'off'], { error: 'must be required, auto or off' })),
    DRAW_BEACON_URL: optional(
      z
        .string()
        .transform((text) => text.split(',').map((item) => item.trim().replace(/\/+$/, '')))
        .refine(
          (urls) => urls.every((url) => /^https?:\/\/[^\s/]+/.test(url) && URL.canParse(url)),
          'must be a comma-separated list of http:// or https:// URLs',
        ),
    ).transform((v) => v ?? DEFAULT_BEACON_URLS),
    DRAW_BEACON_CHAIN: optional(
      z.string().regex(/^[0-9a-f]{64}$/, 'must be a chain hash: 64 lowercase hex characters'),
    ).transform((v) => v ?? QUICKNET.chainHash),
    // The room a LOT-DRAW-2 freeze leaves before its round R is published (decision 076).
    DRAW_FREEZE_MARGIN_MS: optional(
      z
        .string()
        .regex(/^\d{1,5}$/, FREEZE_MARGIN_TEXT)
        .transform(Number)
        .refine((ms) => ms >= MIN_FREEZE_MARGIN_MS && ms <= MAX_FREEZE_MARGIN_MS, FREEZE_MARGIN_TEXT),
    ).transform((v) => v ?? FREEZE_MARGIN_MS),
    // Off by default: X-Forwarded-For is believed only from proxies the operator names.
    TRUST_PROXY: optional(z.string().transform(parseTrustProxy)).transform((v): TrustProxy => v ?? false),
    // Signed checkpoints of the audit chains (decision 045): where the server writes them, and how often.
    AUDIT_CHECKPOINT_DIR: optional(z.string()),
    AUDIT_CHECKPOINT_MINUTES: optional(
      z
        .string()
        .regex(/^\d{1,6}$/, 'must be a number of minutes (0 turns the scheduled checkpoints off)')
        .transform(Number),
    ).transform((v) => v ?? 60),
    // Behind a balancer (docs/deploy.md): how long a stopping process refuses its health check, while
    // it still serves every call, before it closes its listener (0: it closes at once).
    STOP_DRAIN_MS: optional(
      z
        .string()
        .regex(/^\d{1,5}$/, 'must be a number of milliseconds from 0 to 60000')
        .transform(Number)
        .refine((ms) => ms <= 60_000, 'must be a number of milliseconds from 0 to 60000'),
    ).transform((v) => v ?? 0),
    // Witnesses of the freeze (decision 080): none by default.
    DRAW_WITNESSES: optional(z.string().transform(parseWitnesses)).transform((v) => v ?? []),
    DRAW_WITNESS_QUORUM: optional(
      z
        .string()
        .regex(/^[1-9]\d{0,2}$/, 'must be a whole number of witnesses, at least 1')
        .transform(Number),
    ),
    // Unset: links use the address each request came in on.
    PUBLIC_URL: optional(z.string().trim().transform(parsePublicUrl)),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_URL && !env.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'is required when DATABASE_URL is set (every API process must share it)',
      });
    }
    if (env.DATABASE_URL && !env.TOTP_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['TOTP_KEY'],
        message: 'is required when DATABASE_URL is set (every API process must share it)',
      });
    }
    if (env.DATABASE_URL && !env.SEED_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SEED_KEY'],
        message: 'is required when DATABASE_URL is set (every API process must share it)',
      });
    }
    if (env.DRAW_WITNESS_QUORUM !== undefined && env.DRAW_WITNESS_QUORUM > env.DRAW_WITNESSES.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['DRAW_WITNESS_QUORUM'],
        message: `must be at most the number of DRAW_WITNESSES (${env.DRAW_WITNESSES.length})`,
      });
    }
    if (env.DATABASE_URL && !env.LOG_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['LOG_KEY'],
        message: 'is required when DATABASE_URL is set (every API process must share it)',
      });
    }
  });

/** The game log's default origin: the public host plus `/games`; without PUBLIC_URL, `localhost/games`. */
export function defaultLogOrigin(publicUrl: string | undefined): string {
  return `${publicUrl ? new URL(publicUrl).host : 'localhost'}/games`;
}

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_DIRECT_URL: the same database without a pooler, for LISTEN and the migration lock (decision 055). */
  databaseDirectUrl: string | undefined;
  /** DATABASE_PREPARED: false runs the hot statements unnamed, as PgBouncer's transaction mode needs (decision 055). */
  databasePrepared: boolean;
  jwtSecret: string | undefined;
  /** The key two-factor secrets are encrypted with (decision 028). */
  totpKey: string | undefined;
  /** The key the games' secret seeds are sealed with (decision 034). */
  seedKey: string | undefined;
  /** LOG_KEY: the game log's checkpoints are signed with the Ed25519 key derived from it (decision 081). */
  logKey: string | undefined;
  /** LOG_ORIGIN: the game log's name on its checkpoints; default the public host plus `/games`. */
  logOrigin: string;
  adminUsername: string;
  adminPassword: string | undefined;
  logLevel: string;
  /** Who may read GET /metrics (addresses and CIDR ranges). */
  metricsAllow: string[];
  trustProxy: TrustProxy;
  /** PUBLIC_URL without its trailing slash: the base of every printed and shared link; unset: the request's. */
  publicUrl: string | undefined;
  /** Scheduled audit checkpoints (decision 045): the folder (default DATA_DIR/checkpoints) and minutes between them (0: off). */
  checkpoints: { dir: string; minutes: number };
  /**
   * STOP_DRAIN_MS: on SIGTERM or SIGINT the process first answers its health check 503 "stopping"
   * for this long, serving every other call, so that the balancer stops choosing it before its
   * listener closes (decision 068).
   */
  stopDrainMs: number;
  /** DRAW_WITNESSES and DRAW_WITNESS_QUORUM (decision 080): who cosigns each freeze, and how many must. */
  witnesses: { list: WitnessConfig[]; quorum: number };
  /** LOT-DRAW-2's beacon (decision 033): required by default on PostgreSQL, auto on the embedded database. */
  beacon: { mode: 'required' | 'auto' | 'off'; urls: string[]; chainHash: string; freezeMarginMs: number };
};

export class ConfigError extends Error {}

/**
 * For the npm scripts: the configuration, or the problem named on stderr (one line per variable,
 * no stack trace) and exit code 2, the code of a command that did not run.
 */
/** Parses and validates the environment once at start-up; a bad value stops the server. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databasePrepared: e.DATABASE_PREPARED,
    jwtSecret: e.JWT_SECRET,
    totpKey: e.TOTP_KEY,
    seedKey: e.SEED_KEY,
    logKey: e.LOG_KEY,
    logOrigin: e.LOG_ORIGIN ?? defaultLogOrigin(e.PUBLIC_URL),
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    metricsAllow: e.METRICS_ALLOW,
    trustProxy: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL,
    stopDrainMs: e.STOP_DRAIN_MS,
    checkpoints: {
      dir: e.AUDIT_CHECKPOINT_DIR ?? join(e.DATA_DIR, 'checkpoints'),
      minutes: e.AUDIT_CHECKPOINT_MINUTES,
    },
    witnesses: { list: e.DRAW_WITNESSES, quorum: e.DRAW_WITNESS_QUORUM ?? e.DRAW_WITNESSES.length },
    beacon: {
      mode: e.DRAW_BEACON ?? (e.DATABASE_URL ? 'required' : 'auto'),
      urls: e.DRAW_BEACON_URL,
      chainHash: e.DRAW_BEACON_CHAIN,
      freezeMarginMs: e.DRAW_FREEZE_MARGIN_MS,
    },
  };
}
