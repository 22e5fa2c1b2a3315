import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyJwt from '@fastify/jwt';
import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import type { Role } from '@lot/domain/roles';
import { idSchema } from '@lot/domain/schemas/common';
import type { CallerLookup } from '../lib/caller-lookup.ts';

/** The signed-in user behind a request: its row as it stands now (a change ends the cached one: decision 025). */
export type Caller = {
  id: number;
  username: string;
  fullName: string;
  role: Role;
  parentId: number | null;
  tokenVersion: number;
  /** The address the request came from (`request.ip`, decision 026): what the audit trail records. */
  address?: string;
};

type TokenPayload = { sub: string; ver: number };

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
    signToken: (user: { id: number; tokenVersion: number }) => string;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmentation needs an interface
  interface FastifyRequest {
    caller: Caller;
  }
}

export const TOKEN_LIFETIME = '12h';

export const authPlugin = fp(async (app: FastifyInstance, options: { secret: string; callers: CallerLookup }) => {
  await app.register(fastifyJwt, {
    secret: options.secret,
    sign: { algorithm: 'HS256', expiresIn: TOKEN_LIFETIME },
    verify: { algorithms: ['HS256'] },
  });

  app.decorateRequest('caller', null as unknown as Caller);

  app.decorate('signToken', (user: { id: number; tokenVersion: number }) =>
    app.jwt.sign({ sub: String(user.id), ver: user.tokenVersion }),
  );

  app.decorate('authenticate', async (request: FastifyRequest) => {
    let payload: TokenPayload;
    try {
      payload = await request.jwtVerify<TokenPayload>();
    } catch {
      throw new AppError('UNAUTHORIZED', MESSAGES.sessionExpired);
    }
    // An id the database cannot hold (beyond int4) must be a 401, not a query error.
    const id = idSchema.safeParse(payload.sub);
    const user = id.success ? await options.callers.find(id.data) : undefined;
    // A password change, deactivation or deletion bumps the version and so ends every older token.
    if (!user || user.status !== 'active' || user.tokenVersion !== payload.ver) {
      throw new AppError('UNAUTHORIZED', MESSAGES.sessionExpired);
    }
    request.caller = {
      id: user.id,
      username: user.username,
      fullName: user.fullName,
      role: user.role,
      parentId: user.parentId,
      tokenVersion: user.tokenVersion,
      address: request.ip,
    };
  });

  app.decorate('requireRole', (...roles: Role[]) => async (request: FastifyRequest) => {
    if (!roles.includes(request.caller.role)) throw new AppError('FORBIDDEN', MESSAGES.forbidden);
  });
});
