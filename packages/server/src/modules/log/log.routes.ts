import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '@lot/domain/errors';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { gameLogInfoSchema } from '@lot/domain/schemas/log';
import { parseTilePath } from '@lot/domain/tlog/tiles';
import { binaryBody } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { currentCheckpoint, readTile } from './log.service.ts';

/** A full tile: 256 hashes of 32 bytes. */
const tile = binaryBody(8192);
const tileResponse = {
  description: 'The tile or entry bundle (C2SP tlog-tiles).',
  content: { 'application/octet-stream': { schema: tile } },
};

/** A tile never changes once served (a partial one too: it is the prefix of a width that was reached). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The game log, public (decision 081): C2SP tlog-tiles under /log/ — the signed checkpoint, the
 * hash tiles and the entry bundles — and GET /api/log, the log's origin, verifier key and latest
 * checkpoint. No sign-in: anyone may follow the log.
 */
export const logRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/log',
    {
      schema: {
        tags: ['log'],
        operationId: 'getGameLog',
        security: [],
        description:
          "The game log's origin, verifier key and latest signed checkpoint, and the witnesses a freeze needs (docs/lot-draw-2.md#the-game-log).",
        response: { 200: gameLogInfoSchema },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-cache');
      const { origin, vkey } = app.context.gameLog;
      const { list, quorum } = app.context.witnesses;
      return {
        origin,
        vkey,
        checkpoint: await currentCheckpoint(app.context),
        witnesses: list.map((w) => ({ name: w.name, vkey: w.vkey })),
        quorum,
      };
    },
  );

  app.get(
    '/log/checkpoint',
    {
      schema: {
        tags: ['log'],
        operationId: 'getGameLogCheckpoint',
        security: [],
        description: 'The latest checkpoint (C2SP tlog-checkpoint, signed note), text/plain.',
        response: { 200: z.string() },
      },
    },
    async (_request, reply) => {
      const checkpoint = await currentCheckpoint(app.context);
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(checkpoint);
    },
  );

  app.get(
    '/log/tile/*',
    {
      schema: {
        tags: ['log'],
        operationId: 'getGameLogTile',
        security: [],
        description:
          'A tile of hashes (`tile/<L>/<N>[.p/<W>]`) or an entry bundle (`tile/entries/<N>[.p/<W>]`), C2SP tlog-tiles, application/octet-stream.',
        params: z.object({ '*': z.string().max(100) }),
        response: { 200: tileResponse, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const address = parseTilePath(`tile/${request.params['*']}`);
      if (!address) throw new AppError('NOT_FOUND', SERVER_MESSAGES.noSuchTile);
      const bytes = await readTile(app.context, {
        ...address,
        level: address.level === 'entries' ? null : address.level,
      });
      return reply.type('application/octet-stream').header('cache-control', IMMUTABLE).send(Buffer.from(bytes));
    },
  );
};
