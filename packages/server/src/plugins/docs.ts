import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import './openapi-components.ts';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A response header as the OpenAPI document shows it. */
export type ResponseHeader = {
  type: 'string' | 'integer';
  description: string;
  format?: string;
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifySchema {
    /** Headers the answer carries, by status: documentation only (docs/api.md#headers). */
    responseHeaders?: Partial<Record<number, Record<string, ResponseHeader>>>;
  }
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * A file in an answer (a Buffer or a stream, which Fastify sends as they are): a binary string in
 * the document, at most `maxLength` bytes.
 */
export function binaryBody(maxLength: number) {
  return z.custom<Buffer | Readable>().meta({ type: 'string', format: 'binary', maxLength });
}
const file = binaryBody(2 ** 31);

/** The success answer of every export (lib/export.ts `sendExport`): a CSV or Excel file, streamed. */
export const exportResponse = {
  200: {
    description: 'The file, as `format` asks: CSV (UTF-8) or Excel, streamed, every row.',
    content: { 'text/csv': { schema: file }, [XLSX]: { schema: file } },
  },
};

/** The headers that go with an export's file. */
export const exportHeaders: Record<number, Record<string, ResponseHeader>> = {
  200: {
    'Content-Disposition': {
      type: 'string',
      description: 'attachment; filename="{name}-{from}-to-{to}.{format}" (docs/product/reports.md#exports)',
    },
    'Cache-Control': { type: 'string', description: 'no-store' },
  },
};

/** X-Total-Count: the whole filtered set's row count, where a list answers one page as an array. */
export const totalCountHeader: Record<string, ResponseHeader> = {
  'X-Total-Count': {
    type: 'integer',
    description: "How many rows the whole filtered set has (not only this page's).",
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
  },
};

/**
 * The answer headers of a list whose `{ items, total, … }` body is deprecated (decision 072): the
 * one shape's count, and the deprecation pair unless the client sent `Prefer: list=array`.
 */
export const envelopeSunsetHeaders: Record<string, ResponseHeader> = {
  ...totalCountHeader,
  Deprecation: {
    type: 'string',
    description: 'On the `{ items, total }` body (RFC 9745): deprecated since `@1795910400`, 2026-11-29.',
  },
  Sunset: {
    type: 'string',
    description:
      'On the `{ items, total }` body (RFC 8594): it goes on Mon, 31 May 2027 00:00:00 GMT. Send `Prefer: list=array` for the array.',
  },
  'Preference-Applied': { type: 'string', description: '`list=array` when the array was answered (RFC 7240).' },
};

/** A money total in a header: the same decimal string as the body's `Money`. */
export function moneyHeader(description: string): ResponseHeader {
  return { type: 'string', format: 'decimal', pattern: '^-?\\d{1,17}\\.\\d{2}$', maxLength: 21, description };
}

/** A money call replayed with its Idempotency-Key answers the stored response and says so. */
export const replayedHeader: Record<string, ResponseHeader> = {
  'Idempotent-Replayed': {
    type: 'string',
    description: '`true` when this is the stored answer of an earlier call with the same Idempotency-Key.',
  },
};

/** Retry-After: the errors plugin sends it with every 429, the draws with a 202 that waits for the beacon. */
export const retryAfterHeader: ResponseHeader = {
  type: 'integer',
  description: 'Seconds to wait before trying again.',
  minimum: 1,
  maximum: 86_400,
};

/** What each tag (a module of packages/server/src/modules) holds; a tag missing here is listed without one. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  admin: "Running the system: backups, the two-factor policy, business settings (the admin's only).",
  audit: 'The audit trail (decision 029).',
  auth: 'Sign-in, two-factor, sessions.',
  balance: 'Balances and the money calls: top-up, transfer, correction, take-back.',
  claims: 'Prize claims and payouts (decision 038).',
  games: 'Games run on the server, their public proof and the customer display.',
  health: 'Liveness and readiness.',
  notifications: "The header bell's notifications.",
  'public-url': 'The address public links are built on.',
  reports: 'Day close, statements, downline and activity reports.',
  'sales-history': 'The record of finished games.',
  search: 'The header search.',
  shifts: 'Shop shifts and their X/Z reports (decision 039).',
  transactions: 'The ledger rows.',
  users: 'People in the hierarchy.',
  winners: 'Prize settings.',
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * The route's zod schemas as JSON Schema (fastify-type-provider-zod), plus its `responseHeaders`
 * and a Retry-After on every 429.
 */
const transform: SwaggerTransform = (input) => {
  const { responseHeaders, ...schema } = input.schema ?? {};
  const result = jsonSchemaTransform({ ...input, schema } as Parameters<typeof jsonSchemaTransform>[0]);
  const responses = (result.schema as Json | undefined)?.response;
  if (!isObject(responses)) return result;
  for (const [status, response] of Object.entries(responses)) {
    if (!isObject(response)) continue;
    const headers = {
      ...responseHeaders?.[Number(status)],
      ...(status === '429' && { 'Retry-After': retryAfterHeader }),
    };
    if (Object.keys(headers).length > 0) responses[status] = { ...response, headers };
  }
  return result;
};

/** Every `$ref` target in a part of the document. */
function refsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.add(child.replace('#/components/schemas/', ''));
      else refsIn(child, found);
    }
  }
  return found;
}

/** An integer's format from its bounds: int32 when they fit, else int64 (zod's int is a safe integer). */
function integerFormats(value: unknown): void {
  if (Array.isArray(value)) for (const item of value) integerFormats(item);
  else if (isObject(value)) {
    if (value.type === 'integer' && value.format === undefined) {
      const fits = (bound: unknown) => typeof bound === 'number' && Math.abs(bound) <= 2 ** 31 - 1;
      value.format = fits(value.minimum) && fits(value.maximum) ? 'int32' : 'int64';
    }
    for (const child of Object.values(value)) integerFormats(child);
  }
}

/**
 * A type for every `nullable` (OpenAPI 3.0 gives `nullable` a meaning only beside a `type`). zod
 * writes a nullable shared schema as `{ nullable, allOf: [$ref] }` and a nullable union as
 * `{ nullable, anyOf }`: when every branch has one type (a $ref's is its component's) that type is
 * added; a union of several types carries `nullable` on each branch instead.
 */
function nullableTypes(value: unknown, schemas: Record<string, unknown>): void {
  if (Array.isArray(value)) for (const item of value) nullableTypes(item, schemas);
  if (!isObject(value)) return;
  const branches = value.allOf ?? value.anyOf;
  if (value.nullable === true && value.type === undefined && Array.isArray(branches)) {
    const typeOf = (branch: Json) =>
      typeof branch.$ref === 'string'
        ? (schemas[branch.$ref.replace('#/components/schemas/', '')] as Json | undefined)?.type
        : branch.type;
    const types = new Set((branches as Json[]).map(typeOf));
    const [only] = types;
    if (types.size === 1 && typeof only === 'string') value.type = only;
    else if (value.anyOf && (branches as Json[]).every((branch) => typeof branch.type === 'string')) {
      for (const branch of branches as Json[]) branch.nullable = true;
      delete value.nullable;
    }
  }
  for (const child of Object.values(value)) nullableTypes(child, schemas);
}

/** An operation's summary from its id when the route gives none: `getPublicUrl` → 'Get public URL'. */
export function summaryOf(operationId: string): string {
  const words = operationId.replace(/([A-Z])/g, ' $1').toLowerCase();
  const text = words.replace(/\burl\b/g, 'URL').replace(/\btwo factor\b/g, 'two-factor');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The shared component schemas (zod schemas registered with an id, `.meta({ id })`), kept only
 * where a route refers to them; the tags the operations use, described; a summary for every
 * operation; integer formats and nullable types.
 */
const transformObject: SwaggerTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as Json & {
    paths: Json;
    components: { schemas: Record<string, unknown> };
  };
  const schemas = document.components.schemas;
  const used = refsIn(document.paths, new Set());
  for (const queue = [...used]; queue.length > 0;) {
    for (const ref of refsIn(schemas[queue.pop() ?? ''], new Set())) {
      if (used.has(ref)) continue;
      used.add(ref);
      queue.push(ref);
    }
  }
  const kept = Object.fromEntries(
    Object.keys(schemas)
      .filter((name) => used.has(name))
      .sort()
      .map((name) => [name, schemas[name]]),
  );
  const tags = new Set<string>();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations as Json) as Json[]) {
      for (const tag of (operation.tags as string[] | undefined) ?? []) tags.add(tag);
      if (!operation.summary && typeof operation.operationId === 'string')
        operation.summary = summaryOf(operation.operationId);
    }
  }
  const result = {
    ...document,
    tags: [...tags]
      .sort()
      .map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] && { description: TAG_DESCRIPTIONS[name] }) })),
    components: { ...document.components, schemas: kept },
  };
  integerFormats(result);
  nullableTypes(result, kept);
  return result as ReturnType<SwaggerTransformObject>;
};

/**
 * The document's server: PUBLIC_URL, or '/' (wherever the document was read from). It names its
 * audience (`x-internal`) and environment, as the OWASP ruleset's inventory rules ask.
 */
function serverOf(publicUrl: string | undefined): { url: string; description: string; 'x-internal': boolean } {
  const server = publicUrl
    ? { url: publicUrl, description: 'This LOT server in production (PUBLIC_URL)' }
    : { url: '/', description: 'The LOT server this document was read from (production or local)' };
  return { ...server, 'x-internal': false };
}

/**
 * OpenAPI document at /api/openapi.json, browsable at /api/docs; built from the route schemas
 * (docs/api.md). Its server is PUBLIC_URL, or '/' (wherever the document was read from).
 */
export const docsPlugin = fp(async (app: FastifyInstance, options: { publicUrl?: string }) => {
  await app.register(swagger, {
    openapi: {
      servers: [serverOf(options.publicUrl)],
      info: {
        title: 'LOT API',
        version: '1.0.0',
        description:
          'Lottery management system API. Money is a decimal string with two places (`Money`); every failure answers `Error`. docs/api.md says how this document is checked.',
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The access token from sign-in: a JWT signed with HS256 only (other algorithms and `none` are refused), with an expiry, checked against the session and the user on every call (decision 028), following RFC8725.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform,
    transformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
