import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { drawRandomnessSchema, setServerRandomnessSchema } from '@lot/domain/schemas/randomness';
import { errorResponses } from '../../plugins/errors.ts';
import { readDrawRandomness, setServerRandomness } from './randomness.service.ts';

const errors = errorResponses(400, 401, 403);

/** The admin's view and switch of where games get their randomness (decision 061). */
export const randomnessRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/admin/draw-randomness',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['admin'],
        operationId: 'getDrawRandomness',
        description:
          'The beacon as this process sees it, the sticky rule of DRAW_BEACON=auto, the LOT-DRAW-1 permission and LOT-DRAW-1 games per shop (decision 061).',
        response: { 200: drawRandomnessSchema, ...errors },
      },
    },
    (request) => readDrawRandomness(request.ctx),
  );

  app.put(
    '/api/admin/draw-randomness',
    {
      preValidation: app.requireRole('admin'),
      schema: {
        tags: ['admin'],
        operationId: 'setServerRandomness',
        description:
          'Allows (or stops) new games falling back to LOT-DRAW-1 (server randomness only) while the beacon cannot be reached, with DRAW_BEACON=auto. Audited.',
        body: setServerRandomnessSchema,
        response: { 200: drawRandomnessSchema, ...errors },
      },
    },
    (request) => setServerRandomness(request.ctx, request.body),
  );
};
