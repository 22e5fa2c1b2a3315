import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchQuerySchema, searchResultSchema } from '@lot/domain/schemas/search';
import { errorResponses } from '../../plugins/errors.ts';
import { search } from './search.service.ts';

/** The header's search (docs/product/screens.md#header, decision 022). */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/search',
    {
      schema: {
        tags: ['search'],
        operationId: 'searchPeopleAndGames',
        description:
          "Up to 8 live people in the caller's scope whose username or full name holds `q` (those starting with it first), and up to 8 games the caller may read whose code is `q` or whose number (`12` or `#12`: the game's or its sales record's) it is. A user finds only themself.",
        querystring: searchQuerySchema,
        response: { 200: searchResultSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => search(app.db, request.caller, request.query.q),
  );
};
