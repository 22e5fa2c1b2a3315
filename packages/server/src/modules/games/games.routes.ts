import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@lot/domain/schemas/common';
import {
  drawInputSchema,
  drawResultSchema,
  displayStreamQuerySchema,
  displayTicketSchema,
  drawWaitingSchema,
  gameEntriesInputSchema,
  gameProofSchema,
  gameSchema,
  gamesExportQuerySchema,
  gamesQuerySchema,
  gameSummarySchema,
  openGameInputSchema,
  participantsQuerySchema,
  rememberedParticipantSchema,
  slipPrintInputSchema,
  slipPrintSchema,
  voidGameInputSchema,
} from '@lot/domain/schemas/games';
import {
  exportHeaders,
  exportResponse,
  moneyHeader,
  replayedHeader,
  retryAfterHeader,
  totalCountHeader,
} from '../../plugins/docs.ts';
import { exportFileName, sendExport } from '../../lib/export.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { GAME_EXPORT_COLUMNS, gameExportPages, listGames } from './game-lists.ts';
import { gameProof } from './game-view.ts';
import {
  assertGameReadable,
  currentGame,
  drawNext,
  getGame,
  openGame,
  replaceEntries,
  voidGame,
} from './games.service.ts';
import { rememberedParticipants } from './participants.service.ts';
import { listSlips, printSlip } from './slips.service.ts';
import { sendPage } from '../../lib/page.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 422, 503);
const gameResponse = { 200: gameSchema, ...errors };

/**
 * The server-run game (decision 013): the player opens, fills, draws and voids it before its freeze;
 * once frozen, the upline and an admin may finish or void it too (decision 033); the upline reads.
 */
export const gamesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const player = app.requireRole('user');
  playRoutes(app, player);
  listRoutes(app);
  gameRoutes(app, player);
  slipAndVoidRoutes(app, player);
};

type App = Parameters<FastifyPluginAsyncZod>[0];
/** The routes only a shop (role user) may call. */
type PlayerOnly = ReturnType<App['requireRole']>;

/** The shop's own: a game opened, the game in progress, the participants it entered before. */
function playRoutes(app: App, player: PlayerOnly): void {
  app.post(
    '/api/games',
    {
      preValidation: player,
      schema: {
        tags: ['games'],
        operationId: 'openGame',
        body: openGameInputSchema,
        response: { 201: gameSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await openGame(request.ctx, request.body)),
  );

  app.get(
    '/api/games/current',
    {
      preValidation: player,
      schema: {
        tags: ['games'],
        operationId: 'getCurrentGame',
        description: "The caller's game in progress (open or drawing), or null when there is none.",
        response: { 200: gameSchema.nullable(), ...errors },
      },
    },
    (request) => currentGame(request.ctx),
  );

  app.get(
    '/api/games/participants',
    {
      preValidation: player,
      schema: {
        tags: ['games'],
        operationId: 'listRememberedParticipants',
        description: "This shop's past participants (name and phone), once each, most recently used first.",
        querystring: participantsQuerySchema,
        response: { 200: z.array(rememberedParticipantSchema), ...errors },
      },
    },
    (request) => rememberedParticipants(request.ctx, request.query),
  );
}

/** The games in the caller's scope, and their export. */
function listRoutes(app: App): void {
  app.get(
    '/api/games',
    {
      schema: {
        tags: ['games'],
        operationId: 'listGames',
        responseHeaders: {
          200: {
            ...totalCountHeader,
            'X-Total-Pool': moneyHeader("Every pool of the filtered set added up (the Voided games tab's total)."),
          },
        },
        description: "Games in the caller's scope by status (voided games for the upline), newest first.",
        querystring: gamesQuerySchema,
        response: { 200: z.array(gameSummarySchema), ...errors },
      },
    },
    async (request, reply) => {
      const page = await listGames(request.ctx, request.query);
      return sendPage(reply, page, { totals: { 'X-Total-Pool': page.totalPool } });
    },
  );

  app.get(
    '/api/games/export',
    {
      schema: {
        operationId: 'exportGames',
        tags: ['games'],
        description:
          "The games list (the Voided games tab's with status=voided) as a CSV or Excel file, every row (docs/product/reports.md#exports).",
        querystring: gamesExportQuerySchema,
        response: { ...exportResponse, ...errors },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, tz, ...query } = request.query;
      const pages = gameExportPages(request.ctx, query);
      const fileName = exportFileName(`games-${query.status ?? 'all'}`, query, tz, request.ctx.clock());
      return sendExport(reply, format, tz ?? 'UTC', { fileName, columns: GAME_EXPORT_COLUMNS, pages });
    },
  );
}

/** One game: read it, its participants replaced, its next draw. */
function gameRoutes(app: App, player: PlayerOnly): void {
  app.get(
    '/api/games/:id',
    { schema: { tags: ['games'], operationId: 'getGame', params: idParamsSchema, response: gameResponse } },
    (request) => getGame(request.ctx, request.params.id),
  );

  app.put(
    '/api/games/:id/entries',
    {
      preValidation: player,
      schema: {
        tags: ['games'],
        operationId: 'setGameEntries',
        params: idParamsSchema,
        body: gameEntriesInputSchema,
        response: gameResponse,
      },
    },
    (request) => replaceEntries(request.ctx, request.params.id, request.body),
  );

  app.post(
    '/api/games/:id/draws',
    {
      schema: {
        tags: ['games'],
        operationId: 'drawNumber',
        responseHeaders: { 200: replayedHeader, 202: { 'Retry-After': retryAfterHeader } },
        description:
          'Draws the next position. The first request freezes the game and holds the pool; a LOT-DRAW-2 game then answers 202 until its beacon round exists (ask again at `expectedAt`). A position already drawn answers its draw again; the last draw settles the game. The shop starts the draw; once frozen, its upline and an admin may finish it.',
        params: idParamsSchema,
        body: drawInputSchema,
        response: { 200: drawResultSchema, 202: drawWaitingSchema, ...errors },
      },
    },
    async (request, reply) => {
      const outcome = await drawNext(request.ctx, request.params.id, request.body.position);
      if (outcome.kind === 'waiting') {
        reply.header('Retry-After', String(Math.max(1, Math.ceil(outcome.waiting.retryAfterMs / 1000))));
        return reply.status(202).send(outcome.waiting);
      }
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      return outcome.result;
    },
  );
}

/** A game's slips counted and listed, and the game voided. */
function slipAndVoidRoutes(app: App, player: PlayerOnly): void {
  app.post(
    '/api/games/:id/slips/prints',
    {
      preValidation: player,
      schema: {
        tags: ['games'],
        operationId: 'recordSlipPrint',
        description:
          'Counts one print of a slip of the own game: an entry slip (its number) or the result slip. From the second print on the slip is a COPY.',
        params: idParamsSchema,
        body: slipPrintInputSchema,
        response: { 200: slipPrintSchema, ...errors },
      },
    },
    (request) => printSlip(request.ctx, request.params.id, request.body),
  );

  app.get(
    '/api/games/:id/slips',
    {
      schema: {
        tags: ['games'],
        operationId: 'listSlipPrints',
        description: "How many times each of a game's slips was printed.",
        params: idParamsSchema,
        response: { 200: z.array(slipPrintSchema), ...errors },
      },
    },
    (request) => listSlips(request.ctx, request.params.id),
  );

  app.post(
    '/api/games/:id/void',
    {
      schema: {
        tags: ['games'],
        operationId: 'voidGame',
        description:
          'Stops a game with a reason. Before the freeze the shop (or its upline) discards it; once frozen only its upline or an admin may void it: the pool goes back, the proof shows the draws it would have made, none paid. After a draw named a winner the body must carry afterWinner: true (else 422 WINNER_ANNOUNCED, nothing changes); its audit row then keeps what was announced, the admin is notified and the dashboards count it (decision 094).',
        params: idParamsSchema,
        body: voidGameInputSchema,
        response: gameResponse,
      },
    },
    (request) => voidGame(request.ctx, request.params.id, request.body),
  );
}

/** A public code: base64url, as the server makes them. Anything else is simply not found. */
const codeParamsSchema = z.strictObject({ code: z.string().max(64) });

/** GET /api/verify/{code}: the public proof, no sign-in (names and phones masked). */
export const verifyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/verify/:code',
    {
      schema: {
        tags: ['games'],
        operationId: 'verifyGame',
        description: 'The proof of a game for anyone to re-check (docs/lot-draw-2.md, docs/lot-draw-1.md).',
        params: codeParamsSchema,
        response: { 200: gameProofSchema, ...errorResponses(400, 404) },
      },
    },
    (request) => gameProof(app.context, request.params.code),
  );
};

/**
 * GET /api/display/{code}/events: the customer display's live stream (server-sent events), no
 * sign-in (the code is unguessable; names and phones masked). Decision 014. Anonymous streams are
 * limited per client network and per game, last a while and end with the game (decision 088); a
 * signed-in display opens its stream with a ticket (decision 046).
 */
export const displayRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/display/:code/tickets',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'createDisplayTicket',
        tags: ['games'],
        description:
          "A ticket for the caller's customer display of a game they may read: `?ticket=` on its event stream opens it from the signed-in displays' own capacity. Good for a minute.",
        params: codeParamsSchema,
        response: { 200: displayTicketSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await assertGameReadable(request.ctx, request.params.code);
      return request.ctx.displays.ticket(request.params.code, request.caller.id, request.ctx.clock());
    },
  );

  app.get(
    '/api/display/:code/events',
    {
      schema: {
        tags: ['games'],
        operationId: 'streamDisplayEvents',
        description:
          'text/event-stream: an event `game` with the public view (as GET /api/verify/{code}) now and on every change of the game; a `ping` event every 15 s keeps it open. `ticket` (POST /api/display/{code}/tickets) opens it as a signed-in display; an expired one is 401. Without a ticket the stream ends after about 10 minutes with an event `renew` (open a new one now), and after the view of a settled, voided or discarded game with an event `end` (nothing more will come). 429 past 20 anonymous streams from one IPv4 /24 or IPv6 /56 (an address of a private network counts by itself), 200 of one game, or 2,000 in the process once the game has 20.',
        params: codeParamsSchema,
        querystring: displayStreamQuerySchema,
        response: {
          200: {
            description: 'Server-sent events, open until the client or the server closes them.',
            content: { 'text/event-stream': { schema: z.string().meta({ maxLength: 2 ** 31 }) } },
          },
          ...errorResponses(400, 401, 404, 429),
        },
      },
    },
    async (request, reply) => {
      if (request.ctx.displays.stopping) reply.header('connection', 'close');
      const { code } = request.params;
      const { ticket } = request.query;
      const viewer =
        ticket === undefined
          ? { address: request.ip }
          : request.ctx.displays.viewerOf(code, ticket, request.ctx.clock());
      const admission = await request.ctx.displays.admit(code, viewer);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      reply.hijack();
      request.ctx.displays.open(code, reply.raw, headers, admission);
    },
  );
};
