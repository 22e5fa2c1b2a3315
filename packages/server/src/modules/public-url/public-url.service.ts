import type { PublicUrl } from '@lot/domain/schemas/public-url';

/**
 * The base of every public link (docs/product/runtime-and-security.md#public-url): PUBLIC_URL, or
 * the address the request came in on — its scheme and host as Fastify reads them, which follow
 * X-Forwarded-Proto and X-Forwarded-Host only from a proxy TRUST_PROXY names. No database: the
 * module has no repository.
 */
export function publicBase(configured: string | undefined, seen: { protocol: string; host: string }): PublicUrl {
  if (configured) return { publicUrl: configured, configured: true };
  return { publicUrl: `${seen.protocol}://${seen.host}`, configured: false };
}
