import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import { AppError } from '@lot/domain/errors';
import { isTimeZone } from '@lot/domain/dates';
import { MESSAGES } from '@lot/domain/messages';
import { SERVER_MESSAGES } from '@lot/domain/server-messages';
import { idSchema } from '@lot/domain/schemas/common';
import type { Role } from '@lot/domain/roles';
import type { Caller } from '../lib/caller.ts';
import type { CallerLookup } from '../lib/caller-lookup.ts';
import { TOKEN_LIFETIME, type TokenPayload } from '../lib/tokens.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A session as `request.session`: its id, and whether it may only set up two-factor sign-in. */
export type RequestSession = { id: string; enrolRequired: boolean };

declare module '@fastify/jwt' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyJWT {
    payload: TokenPayload;
    user: TokenPayload;
  }
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyInstance {
    /** onRequest hook: verifies the bearer token and loads `request.caller`. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preValidation hook factory: 403 unless the caller has one of the roles (checked before the body). */
    requireRole: (...roles: Role[]) => (request: FastifyRequest) => Promise<void>;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyRequest {
    caller: Caller;
    session: RequestSession;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyContextConfig {
    /** The route answers a session that must set up two-factor sign-in first (decision 028). */
    allowBeforeTwoFactor?: boolean;
  }
}

/**
 * Verifies access tokens (`authenticate`) and roles (`requireRole`). Tokens are signed by the
 * context's signer (`ctx.tokens`, lib/tokens.ts) on the @fastify/jwt this plugin registers.
 */
export const authPlugin = fp(async (app: FastifyInstance, options: { secret: string; callers: CallerLookup }) => {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256', expiresIn: TOKEN_LIFETIME },
    verify: { algorithms: ['HS256'] },
  });

  app.decorateRequest('caller', null as unknown as Caller);
  app.decorateRequest('session', null as unknown as RequestSession);

  app.decorate('authenticate', async (request: FastifyRequest) => {
    let payload: TokenPayload;
    try {
      payload = await request.jwtVerify<TokenPayload>();
    } catch {
      throw new AppError('UNAUTHORIZED', MESSAGES.sessionExpired);
    }
    // An id the database cannot hold (beyond int4), or a session id that is no UUID, must be a 401,
    // not a query error. A challenge carries no session: it is not an access token.
    const id = idSchema.safeParse(payload.sub);
    const sessionId = typeof payload.sid === 'string' && UUID.test(payload.sid) ? payload.sid : undefined;
    const user = id.success && sessionId && !payload.use ? await options.callers.find(id.data, sessionId) : undefined;
    // A password change, deactivation or deletion bumps the version and so ends every older token;
    // an ended session (signed out, ended from the profile, a two-factor change) ends its own.
    if (!user || user.status !== 'active' || user.tokenVersion !== payload.ver || user.sessionEnded) {
      throw new AppError('UNAUTHORIZED', MESSAGES.sessionExpired);
    }
    // The role requires two-factor sign-in and the user had none: only the set-up answers.
    if (user.enrolRequired && !request.routeOptions.config.allowBeforeTwoFactor) {
      throw new AppError('TWO_FACTOR_ENROLMENT_REQUIRED', MESSAGES.twoFactorEnrolmentRequired);
    }
    await options.callers.touch(user);
    request.session = { id: user.sessionId, enrolRequired: user.enrolRequired };
    request.caller = {
      id: user.id,
      username: user.username,
      fullName: user.fullName,
      role: user.role,
      parentId: user.parentId,
      tokenVersion: user.tokenVersion,
      address: request.ip,
      ...timeZoneOf(request.headers['time-zone']),
    };
  });

  app.decorate('requireRole', (...roles: Role[]) => async (request: FastifyRequest) => {
    if (!roles.includes(request.caller.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  });
});

/** The `Time-Zone` header's zone, when it names one this runtime knows; anything else is ignored (decision 090). */
function timeZoneOf(header: string | string[] | undefined): { timeZone?: string } {
  return typeof header === 'string' && isTimeZone(header) ? { timeZone: header } : {};
}
