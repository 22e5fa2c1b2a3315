import type { FastifyInstance } from 'fastify';
import { publicUrlSchema } from '@lot/domain/schemas/public-url';
import { publicBase } from './public-url.service.ts';

export async function publicUrlRoutes(app: FastifyInstance, options: { publicUrl?: string }) {
  app.get(
    '/api/public-url',
    { schema: { tags: ['public-url'], operationId: 'getPublicUrl', security: [], response: { 200: publicUrlSchema } } },
    async (request, reply) => {
      // The answer depends on the request's Host: no cache may hand it to another address.
      void reply.header('cache-control', 'no-store');
      return publicBase(options.publicUrl, { protocol: request.protocol, host: request.host });
    },
  );
}
