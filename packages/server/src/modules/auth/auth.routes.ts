import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.ts';
import {
  changePasswordInputSchema,
  changePasswordResponseSchema,
  signinInputSchema,
  signinResponseSchema,
} from '@lot/domain/schemas/auth';
import { changePassword, signin } from './auth.service.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/auth/signin',
    {
      schema: {
        tags: ['auth'],
        security: [],
        body: signinInputSchema,
        response: {
          200: signinResponseSchema,
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => signin(app.db, app.signToken, request.body, request.ip),
  );

  app.post(
    '/api/auth/change-password',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        body: changePasswordInputSchema,
        response: {
          200: changePasswordResponseSchema,
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request) => changePassword(app.db, app.signToken, request.caller, request.body, request.ip),
  );
};
