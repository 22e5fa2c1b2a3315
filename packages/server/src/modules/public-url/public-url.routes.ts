import type { FastifyInstance, FastifyRequest } from 'fastify';
import { publicUrlSchema, type PublicUrl } from '@lot/domain/schemas/public-url';

/**
 * The base of every public link (docs/product/runtime-and-security.md#public-url): PUBLIC_URL, or
 * the address this request came in on — its scheme and host as Fastify reads them, which follow
 * X-Forwarded-Proto and X-Forwarded-Host only from a proxy TRUST_PROXY names.
 */
export function publicBase(request: FastifyRequest, configured: string | undefined): PublicUrl {
  if (configured) return { publicUrl: configured, configured: true };
  return { publicUrl: `${request.protocol}://${request.host}`, configured: false };
}

export async function publicUrlRoutes(app: FastifyInstance, options: { publicUrl?: string }) {
  app.get(
    '/api/public-url',
    { schema: { tags: ['public-url'], operationId: 'getPublicUrl', security: [], response: { 200: publicUrlSchema } } },
    async (request, reply) => {
      // The answer depends on the request's Host: no cache may hand it to another address.
      void reply.header('cache-control', 'no-store');
      return publicBase(request, options.publicUrl);
    },
  );
}
