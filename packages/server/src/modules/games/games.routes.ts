import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@lot/domain/schemas/common';
import {
  drawInputSchema,
  drawResultSchema,
  gameEntriesInputSchema,
  gameProofSchema,
  gameSchema,
  gamesQuerySchema,
  gameSummarySchema,
  openGameInputSchema,
  voidGameInputSchema,
} from '@lot/domain/schemas/games';
import { errorResponses } from '../../plugins/errors.ts';
import {
  currentGame,
  drawNext,
  gameProof,
  getGame,
  listGames,
  openGame,
  replaceEntries,
  voidGame,
} from './games.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422);
const gameResponse = { 200: gameSchema, ...errors };

/** The server-run game (decision 013): the player opens, fills, draws and voids; the upline reads. */
export const gamesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const player = app.requireRole('user');

  app.post(
    '/api/games',
    {
      preValidation: player,
      schema: { tags: ['games'], body: openGameInputSchema, response: { 201: gameSchema, ...errors } },
    },
    async (request, reply) => reply.status(201).send(await openGame(app.db, request.caller, request.body)),
  );

  app.get(
    '/api/games/current',
    { preValidation: player, schema: { tags: ['games'], response: gameResponse } },
    (request) => currentGame(app.db, request.caller),
  );

  app.get(
    '/api/games',
    {
      schema: {
        tags: ['games'],
        description: "Games in the caller's scope by status (voided games for the upline), newest first.",
        querystring: gamesQuerySchema,
        response: { 200: z.array(gameSummarySchema), ...errors },
      },
    },
    async (request, reply) => {
      const page = await listGames(app.db, request.caller, request.query);
      reply.header('X-Total-Count', String(page.total));
      return page.items;
    },
  );

  app.get(
    '/api/games/:id',
    { schema: { tags: ['games'], params: idParamsSchema, response: gameResponse } },
    (request) => getGame(app.db, request.caller, request.params.id),
  );

  app.put(
    '/api/games/:id/entries',
    {
      preValidation: player,
      schema: { tags: ['games'], params: idParamsSchema, body: gameEntriesInputSchema, response: gameResponse },
    },
    (request) => replaceEntries(app.db, request.caller, request.params.id, request.body),
  );

  app.post(
    '/api/games/:id/draws',
    {
      preValidation: player,
      schema: {
        tags: ['games'],
        description:
          'Draws the next position with LOT-DRAW-1. A position already drawn answers its draw again; the first draw holds the pool, the last settles the game.',
        params: idParamsSchema,
        body: drawInputSchema,
        response: { 200: drawResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const outcome = await drawNext(app.db, request.caller, request.params.id, request.body.position);
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      return outcome.result;
    },
  );

  app.post(
    '/api/games/:id/void',
    {
      preValidation: player,
      schema: { tags: ['games'], params: idParamsSchema, body: voidGameInputSchema, response: gameResponse },
    },
    (request) => voidGame(app.db, request.caller, request.params.id, request.body.reason),
  );
};

/** A public code: base64url, as the server makes them. Anything else is simply not found. */
const codeParamsSchema = z.strictObject({ code: z.string().max(64) });

/** GET /api/verify/{code}: the public proof, no sign-in (names and phones masked). */
export const verifyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/verify/:code',
    {
      schema: {
        tags: ['games'],
        description: 'The proof of a game for anyone to re-check (docs/lot-draw-1.md).',
        params: codeParamsSchema,
        response: { 200: gameProofSchema, ...errorResponses(400, 404) },
      },
    },
    (request) => gameProof(app.db, request.params.code),
  );
};
