import { z } from 'zod';
import { passwordSchema, usernameSchema } from '@lot/domain/schemas/users';

/** Empty variables count as unset, so `PORT= npm start` means the default. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

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
    JWT_SECRET: optional(z.string().min(32, 'must be at least 32 characters long')),
    ADMIN_USERNAME: optional(usernameSchema).transform((v) => v ?? 'admin'),
    ADMIN_PASSWORD: optional(passwordSchema),
    LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).transform(
      (v) => v ?? 'info',
    ),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_URL && !env.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'is required when DATABASE_URL is set (every API process must share it)',
      });
    }
  });

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  logLevel: string;
};

export class ConfigError extends Error {}

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
    jwtSecret: e.JWT_SECRET,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
  };
}
