import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { binaryBody, exportHeaders, exportResponse, totalCountHeader } from '../../plugins/docs.ts';
import { errorResponses } from '../../plugins/errors.ts';
import { z } from 'zod';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { idParamsSchema } from '@lot/domain/schemas/common';
import {
  LOGO_MAX_BYTES,
  createUserInputSchema,
  listUsersQuerySchema,
  parentRoleParamsSchema,
  publicUserSchema,
  roleParamsSchema,
  updateUserInputSchema,
  userSchema,
} from '@lot/domain/schemas/users';
import {
  createUser,
  deleteUser,
  getLogo,
  getUserInScope,
  listUsers,
  updateUser,
  USER_EXPORT_COLUMNS,
  userExportPages,
} from './users.service.ts';
import { exportFields } from '@lot/domain/schemas/exports';
import { exportFileName, sendExport } from '../../lib/export.ts';
import { sendPage } from '../../lib/page.ts';

const userListSchema = z.array(z.union([userSchema, publicUserSchema]));
const errors = errorResponses(400, 401, 403, 404);
const image = binaryBody(LOGO_MAX_BYTES);
const logoResponse = {
  description: 'The image, its type as stored.',
  content: { 'image/jpeg': { schema: image }, 'image/png': { schema: image }, 'image/gif': { schema: image } },
};

/** A logo arrives as a multipart file (a Buffer once parsed); JSON bodies cannot carry one. */
const updateBodySchema = updateUserInputSchema.extend({
  logo: z.custom<Buffer>((value) => Buffer.isBuffer(value), { message: SERVER_MESSAGES.logoNotAFile }).optional(),
});

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/api/users',
    {
      schema: {
        tags: ['users'],
        operationId: 'listUsers',
        responseHeaders: { 200: totalCountHeader },
        querystring: listUsersQuerySchema,
        response: { 200: userListSchema, ...errors },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await listUsers(request.ctx, request.query));
    },
  );

  app.get(
    '/api/users/role/:role/export',
    {
      schema: {
        tags: ['users'],
        operationId: 'exportUsersByRole',
        description:
          "Everyone of a role in the caller's scope (the users screens' list, with its search and status) as a CSV or Excel file (docs/product/reports.md#exports).",
        params: roleParamsSchema,
        querystring: listUsersQuerySchema.omit({ limit: true, offset: true }).extend(exportFields),
        response: { ...exportResponse, ...errors },
        responseHeaders: exportHeaders,
      },
    },
    async (request, reply) => {
      const { format, tz, ...filter } = request.query;
      const { role } = request.params;
      const pages = await userExportPages(request.ctx, { ...filter, role });
      const fileName = exportFileName(`users-${role}`, {}, tz, request.ctx.clock());
      return sendExport(reply, format, tz ?? 'UTC', { fileName, columns: USER_EXPORT_COLUMNS, pages });
    },
  );

  app.get(
    '/api/users/role/:role',
    {
      schema: {
        tags: ['users'],
        operationId: 'listUsersByRole',
        responseHeaders: { 200: totalCountHeader },
        params: roleParamsSchema,
        querystring: listUsersQuerySchema,
        response: { 200: userListSchema, ...errors },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await listUsers(request.ctx, { ...request.query, role: request.params.role }));
    },
  );

  app.get(
    '/api/users/parent/:parentId/role/:role',
    {
      schema: {
        tags: ['users'],
        operationId: 'listUsersByParent',
        responseHeaders: { 200: totalCountHeader },
        params: parentRoleParamsSchema,
        querystring: listUsersQuerySchema,
        response: { 200: userListSchema, ...errors },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await listUsers(request.ctx, { ...request.query, ...request.params }));
    },
  );

  app.get(
    '/api/users/:id',
    {
      schema: {
        tags: ['users'],
        operationId: 'getUser',
        params: idParamsSchema,
        response: { 200: userSchema, ...errors },
      },
    },
    async (request) => getUserInScope(request.ctx, request.params.id),
  );

  app.post(
    '/api/users',
    {
      // Before validation: a role that may not make the call gets 403 whatever it sent.
      preValidation: app.requireRole('admin', 'superagent', 'agent'),
      schema: {
        tags: ['users'],
        operationId: 'createUser',
        body: createUserInputSchema,
        response: { 201: userSchema, ...errorResponses(409), ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await createUser(request.ctx, request.body)),
  );

  app.put(
    '/api/users/:id',
    {
      schema: {
        tags: ['users'],
        operationId: 'updateUser',
        description: 'JSON, or multipart form data from the profile page (fullName, shopName, optional logo file).',
        params: idParamsSchema,
        body: updateBodySchema,
        response: {
          200: z.object({ message: z.string(), user: userSchema }),
          ...errors,
          ...errorResponses(413, 415),
        },
      },
    },
    async (request) => {
      const { logo, ...input } = request.body;
      return updateUser(request.ctx, request.params.id, input, logo);
    },
  );

  app.delete(
    '/api/users/:id',
    {
      preValidation: app.requireRole('admin', 'superagent', 'agent'),
      schema: {
        tags: ['users'],
        operationId: 'deleteUser',
        params: idParamsSchema,
        response: { 200: z.object({ message: z.string() }), ...errorResponses(409), ...errors },
      },
    },
    async (request) => deleteUser(request.ctx, request.params.id),
  );

  app.get(
    '/api/users/:id/logo',
    {
      schema: {
        tags: ['users'],
        operationId: 'getUserLogo',
        description: 'The logo image as stored (JPG, PNG or GIF); `t` only tells caches apart.',
        params: idParamsSchema,
        querystring: z.object({ t: z.string().optional() }),
        response: { 200: logoResponse },
      },
    },
    async (request, reply) => {
      const logo = await getLogo(request.ctx, request.params.id);
      return reply.type(logo.mimeType).header('Cache-Control', 'private, max-age=0, must-revalidate').send(logo.data);
    },
  );
};
