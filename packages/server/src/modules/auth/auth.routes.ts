import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@lot/domain/errors';
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
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
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
          400: errorBodySchema,
          401: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => changePassword(app.db, app.signToken, request.caller, request.body, request.ip),
  );
};
