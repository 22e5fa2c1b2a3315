import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponses } from '../../plugins/errors.ts';
import type { SessionOrigin } from '../../lib/caller.ts';
import { withCaller } from '../../lib/context.ts';
import {
  changePasswordInputSchema,
  changePasswordResponseSchema,
  sessionResponseSchema,
  sessionSchema,
  signinAnswerSchema,
  signinCodeInputSchema,
  signinInputSchema,
  twoFactorCodeInputSchema,
  twoFactorEnabledSchema,
  twoFactorEnrolmentSchema,
  twoFactorPolicySchema,
  twoFactorStatusSchema,
} from '@lot/domain/schemas/auth';
import { changePassword, disableTwoFactor, signin, signinWithCode } from './auth.service.ts';
import { endOtherSessions, endSession, listSessions, signout } from './sessions.service.ts';
import {
  confirmEnrolment,
  setTwoFactorPolicy,
  startEnrolment,
  twoFactorPolicy,
  twoFactorStatus,
} from './two-factor.service.ts';

function originOf(request: FastifyRequest): SessionOrigin {
  return { address: request.ip, userAgent: request.headers['user-agent'] };
}

const messageSchema = z.object({ message: z.string() });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/auth/signin',
    {
      schema: {
        tags: ['auth'],
        operationId: 'signIn',
        description:
          'Signs in with a password. For a user with two-factor sign-in the answer is `{ twoFactorRequired: true, challenge }` and no session: `POST /api/auth/signin/code` finishes it.',
        security: [],
        body: signinInputSchema,
        response: {
          200: signinAnswerSchema,
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => signin(withCaller(app.context, null), request.body, originOf(request)),
  );

  app.post(
    '/api/auth/signin/code',
    {
      schema: {
        tags: ['auth'],
        operationId: 'signInWithCode',
        description:
          'The second step of a sign-in with two-factor: the challenge and a 6-digit code from the authenticator app, or a recovery code. Wrong codes count towards the sign-in throttle.',
        security: [],
        body: signinCodeInputSchema,
        response: { 200: sessionResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => signinWithCode(withCaller(app.context, null), request.body, originOf(request)),
  );

  app.post(
    '/api/auth/signout',
    {
      onRequest: app.authenticate,
      config: { allowBeforeTwoFactor: true },
      schema: { tags: ['auth'], operationId: 'signOut', response: { 200: messageSchema, ...errorResponses(401) } },
    },
    async (request) => signout(request.ctx, request.session.id),
  );

  app.post(
    '/api/auth/change-password',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        operationId: 'changePassword',
        body: changePasswordInputSchema,
        response: {
          200: changePasswordResponseSchema,
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request) => changePassword(request.ctx, request.session.id, request.body),
  );

  app.get(
    '/api/auth/two-factor',
    {
      onRequest: app.authenticate,
      config: { allowBeforeTwoFactor: true },
      schema: {
        tags: ['auth'],
        operationId: 'getTwoFactorStatus',
        response: { 200: twoFactorStatusSchema, ...errorResponses(401) },
      },
    },
    async (request) => twoFactorStatus(request.ctx, request.caller),
  );

  app.post(
    '/api/auth/two-factor/enrol',
    {
      onRequest: app.authenticate,
      config: { allowBeforeTwoFactor: true },
      schema: {
        tags: ['auth'],
        operationId: 'startTwoFactorEnrolment',
        description:
          'Starts the set-up: a new secret (as text and as an otpauth:// URI for a QR code), waiting for its first code.',
        response: { 200: twoFactorEnrolmentSchema, ...errorResponses(401, 409) },
      },
    },
    async (request, reply) => {
      // The secret must not be kept by a cache on the way.
      reply.header('cache-control', 'no-store');
      return startEnrolment(request.ctx, request.caller);
    },
  );

  app.post(
    '/api/auth/two-factor/confirm',
    {
      onRequest: app.authenticate,
      config: { allowBeforeTwoFactor: true },
      schema: {
        tags: ['auth'],
        operationId: 'confirmTwoFactorEnrolment',
        description:
          "Confirms the set-up with a first code: two-factor sign-in is on, the caller's other sessions end, and ten one-time recovery codes are answered, this once.",
        body: twoFactorCodeInputSchema,
        response: { 200: twoFactorEnabledSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return confirmEnrolment(request.ctx, request.caller, request.session.id, request.body.code);
    },
  );

  app.post(
    '/api/auth/two-factor/disable',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        operationId: 'disableTwoFactor',
        description:
          "Turns two-factor sign-in off with a code or a recovery code (refused while the role requires it); the caller's other sessions end.",
        body: twoFactorCodeInputSchema,
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => disableTwoFactor(request.ctx, request.session.id, request.body.code),
  );

  app.get(
    '/api/auth/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        operationId: 'listSessions',
        description: "The caller's active sessions: this one (`current`) first, then the most recently used.",
        response: { 200: z.array(sessionSchema), ...errorResponses(401, 403) },
      },
    },
    async (request) => listSessions(request.ctx, request.session.id),
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        operationId: 'endSession',
        params: z.strictObject({ id: z.uuid() }),
        response: { 200: messageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => endSession(request.ctx, request.params.id),
  );

  app.post(
    '/api/auth/sessions/end-others',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        operationId: 'endOtherSessions',
        response: { 200: messageSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => endOtherSessions(request.ctx, request.session.id),
  );

  // The admin's policy: which roles must sign in with two factors.
  const adminOnly = { onRequest: app.authenticate, preValidation: app.requireRole('admin') };
  app.get(
    '/api/admin/two-factor-policy',
    {
      ...adminOnly,
      schema: {
        tags: ['admin'],
        operationId: 'getTwoFactorPolicy',
        description: 'The roles whose users must sign in with two-factor.',
        response: { 200: twoFactorPolicySchema, ...errorResponses(401, 403) },
      },
    },
    async () => twoFactorPolicy(app.context),
  );
  app.put(
    '/api/admin/two-factor-policy',
    {
      ...adminOnly,
      schema: {
        tags: ['admin'],
        operationId: 'setTwoFactorPolicy',
        description:
          'Sets the roles whose users must sign in with two-factor. A user of such a role without it is sent to set it up at the next sign-in.',
        body: twoFactorPolicySchema,
        response: { 200: twoFactorPolicySchema.extend({ message: z.string() }), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => setTwoFactorPolicy(request.ctx, request.caller, request.body),
  );
};
