import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/errors.ts';
import {
  changePasswordInputSchema,
  changePasswordResponseSchema,
  signinInputSchema,
  signinResponseSchema,
} from '@lot/domain/schemas/auth';
import { AppError } from '@lot/domain/errors';
import { changePassword, signin } from './auth.service.ts';

/** How a refused sign-in is counted (GET /metrics). */
function signinOutcome(error: unknown): string {
  if (!(error instanceof AppError)) return 'error';
  if (error.code === 'RATE_LIMITED') return 'throttled';
  if (error.code === 'UNAUTHORIZED') return 'failed';
  return 'refused';
}

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
    async (request) => {
      try {
        const session = await signin(app.db, app.signToken, request.body, request.ip);
        app.metrics.signins.inc({ outcome: 'ok' });
        return session;
      } catch (error) {
        app.metrics.signins.inc({ outcome: signinOutcome(error) });
        throw error;
      }
    },
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
