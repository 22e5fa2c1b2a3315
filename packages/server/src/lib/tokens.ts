import { AppError } from '@lot/domain/errors';
import { MESSAGES } from '@lot/domain/messages';
import { idSchema } from '@lot/domain/schemas/common';
import type { Db, Tx } from '../db/client.ts';
import type { SessionOrigin } from './caller.ts';
import { extendSession, openSession } from './sessions.ts';

/**
 * The token signer (`ctx.tokens`, decision 070): sessions' access tokens and the short-lived
 * challenge of a sign-in with two-factor (decision 028), signed HS256 with the app's JWT_SECRET by
 * @fastify/jwt, which the auth plugin also verifies them with.
 */

/**
 * An access token names the user, the user's token version and the session (decision 028). A
 * sign-in challenge (`use: 'code'`: password right, code still to come) is signed by the same key
 * but is never an access token.
 */
export type TokenPayload = { sub: string; ver: number; sid?: string; use?: 'code' };

/** Whom a token is for: the user and the token version it carries. */
export type TokenUser = { id: number; tokenVersion: number };

export type Tokens = {
  /** Opens a session (a row in `sessions`, in `db`'s transaction if one is given) and signs its first token. */
  openSession: (user: TokenUser, origin?: SessionOrigin, db?: Db | Tx) => Promise<string>;
  /** A fresh token for an existing session (a password change goes on with it). */
  signToken: (user: TokenUser, sessionId: string) => Promise<string>;
  /** A short-lived token for the second step of a sign-in with two-factor (no session). */
  signChallenge: (user: TokenUser) => string;
  /** The user and token version a challenge names, or a 401 if it is not one or has expired. */
  verifyChallenge: (challenge: string) => TokenUser;
};

/** What the signer needs of @fastify/jwt's `app.jwt`: signing and verifying with the app's key. */
export type Jwt = {
  sign: (payload: TokenPayload, options?: { expiresIn: string }) => string;
  verify: <T>(token: string) => T;
};

export const TOKEN_LIFETIME = '12h';
const TOKEN_LIFETIME_SECONDS = 12 * 3600;
/** How long the second step of a sign-in may take. */
const CHALLENGE_LIFETIME = '5m';

/** Where a session opened by a test (or a script) comes from. */
const UNKNOWN_ORIGIN: SessionOrigin = { address: 'unknown', userAgent: undefined };

/** The app's signer: `jwt` is @fastify/jwt's, `db` the app's database (the sessions' rows). */
export function jwtTokens(jwt: Jwt, db: Db): Tokens {
  const sign = (user: TokenUser, sessionId: string) =>
    jwt.sign({ sub: String(user.id), ver: user.tokenVersion, sid: sessionId });
  return {
    openSession: async (user, origin, tx) =>
      sign(user, await openSession(tx ?? db, user.id, origin ?? UNKNOWN_ORIGIN, TOKEN_LIFETIME_SECONDS)),
    signToken: async (user, sessionId) => {
      // The session lives as long as its latest token (listed until then, unless ended).
      await extendSession(db, sessionId, TOKEN_LIFETIME_SECONDS);
      return sign(user, sessionId);
    },
    signChallenge: (user) =>
      jwt.sign({ sub: String(user.id), ver: user.tokenVersion, use: 'code' }, { expiresIn: CHALLENGE_LIFETIME }),
    verifyChallenge: (challenge) => {
      let payload: TokenPayload;
      try {
        payload = jwt.verify<TokenPayload>(challenge);
      } catch {
        throw new AppError('UNAUTHORIZED', MESSAGES.twoFactorChallengeExpired);
      }
      const id = idSchema.safeParse(payload.sub);
      if (payload.use !== 'code' || !id.success || typeof payload.ver !== 'number') {
        throw new AppError('UNAUTHORIZED', MESSAGES.twoFactorChallengeExpired);
      }
      return { id: id.data, tokenVersion: payload.ver };
    },
  };
}

/** A command's context signs nothing: a command-line tool opens no session. */
export const noTokens: Tokens = {
  openSession: () => Promise.reject(new Error('a command-line tool opens no session')),
  signToken: () => Promise.reject(new Error('a command-line tool signs no token')),
  signChallenge: () => {
    throw new Error('a command-line tool signs no challenge');
  },
  verifyChallenge: () => {
    throw new Error('a command-line tool verifies no challenge');
  },
};
