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
          "Up to 8 live people in the caller's scope whose username, full name or shop name holds `q` (those starting with it first), and up to 8 games the caller may read, newest first: whose code is `q` or starts with it (4 characters or more), whose number (`12` or `#12`: the game's or its sales record's) it is, or one of whose participants has `q` in their name (3 characters or more) or its digits in their phone (4 or more; `participant` names them). A user finds only themself.",
        querystring: searchQuerySchema,
        response: { 200: searchResultSchema, ...errorResponses(400, 401) },
      },
    },
    (request) => search(request.ctx, request.query.q),
  );
};
