import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { MESSAGES } from '@lot/domain/messages';
import type { SessionResponse, SessionUser, SigninAnswer } from '@lot/domain/schemas/auth';
import { api, ApiError, setSessionEndedHandler, setTwoFactorSetupHandler } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { storage } from './storage.ts';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

type AuthContextValue = {
  status: AuthStatus;
  user: SessionUser | null;
  /** Why the last session ended without a sign-out ('Your session has expired…'), until the next sign-in. */
  notice: string | null;
  /** A user with two-factor sign-in gets a challenge for the code step instead of a session. */
  login: (username: string, password: string) => Promise<LoginResult>;
  /** The code step: the challenge from `login` and a code from the app (or a recovery code). */
  loginWithCode: (challenge: string, code: string) => Promise<SessionUser>;
  logout: () => void;
  /** The role requires two-factor sign-in and it is not set up: nothing but the set-up until it is. */
  twoFactorSetupRequired: boolean;
  /** The set-up is done: the session reaches everything again. */
  twoFactorSetupDone: () => void;
  /** A profile update: merged into the user and persisted (docs/product/screens.md#session). */
  updateUser: (changes: Partial<SessionUser>) => void;
  /** A password change hands out a fresh token. */
  replaceToken: (token: string) => void;
};

export type LoginResult = { user: SessionUser; twoFactorSetupRequired: boolean } | { challenge: string };

const AuthContext = createContext<AuthContextValue | null>(null);

/** Startup (docs/product/screens.md#session): a stored token restores the stored user; a corrupt record clears both. */
function restore(): { status: AuthStatus; user: SessionUser | null } {
  const token = storage.getToken();
  const user = storage.getUser();
  if (user === 'corrupt') {
    storage.clear();
    return { status: 'unauthenticated', user: null };
  }
  return token && user ? { status: 'authenticated', user } : { status: 'unauthenticated', user: null };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState(restore);
  const [notice, setNotice] = useState<string | null>(null);
  const [twoFactorSetupRequired, setTwoFactorSetupRequired] = useState(storage.getTwoFactorSetup);

  const forget = useCallback(() => {
    storage.clear();
    queryClient.clear();
    setTwoFactorSetupRequired(false);
    setState({ status: 'unauthenticated', user: null });
  }, []);

  const logout = useCallback(() => {
    setNotice(null);
    // The server ends the session too (it leaves the list of sessions); the browser forgets it at once.
    const token = storage.getToken();
    if (token) {
      api('/api/auth/signout', {
        method: 'POST',
        anonymous: true,
        headers: { authorization: `Bearer ${token}` },
      }).catch(() => undefined);
    }
    forget();
  }, [forget]);

  // The server ended the session (expired, password changed elsewhere, deactivated): the sign-in
  // screen says why, in the server's words.
  useEffect(() => {
    setSessionEndedHandler((message) => {
      forget();
      setNotice(message || MESSAGES.sessionExpired);
    });
    setTwoFactorSetupHandler(() => {
      storage.saveTwoFactorSetup(true);
      setTwoFactorSetupRequired(true);
    });
    return () => {
      setSessionEndedHandler(undefined);
      setTwoFactorSetupHandler(undefined);
    };
  }, [forget]);

  /** Keeps the session the server answered and signs in with it. */
  const start = useCallback((session: SessionResponse) => {
    const { accessToken, message: _message, enrolTwoFactor, ...user } = session;
    storage.save(accessToken, user);
    storage.saveTwoFactorSetup(Boolean(enrolTwoFactor));
    queryClient.clear();
    setTwoFactorSetupRequired(Boolean(enrolTwoFactor));
    setState({ status: 'authenticated', user });
    return { user, twoFactorSetupRequired: Boolean(enrolTwoFactor) };
  }, []);

  const attempt = useCallback(async <T,>(call: () => Promise<T>): Promise<T> => {
    setState((s) => ({ ...s, status: 'loading' }));
    setNotice(null);
    try {
      return await call();
    } catch (caught) {
      const message = caught instanceof ApiError && caught.message ? caught.message : 'Login failed';
      setState({ status: 'unauthenticated', user: null });
      throw caught instanceof ApiError ? caught : new Error(message);
    }
  }, []);

  const login = useCallback(
    (username: string, password: string) =>
      attempt(async (): Promise<LoginResult> => {
        const answer = await api<SigninAnswer>('/api/auth/signin', {
          method: 'POST',
          body: { username, password },
          anonymous: true,
        });
        if ('twoFactorRequired' in answer) {
          setState({ status: 'unauthenticated', user: null });
          return { challenge: answer.challenge };
        }
        return start(answer);
      }),
    [attempt, start],
  );

  const loginWithCode = useCallback(
    (challenge: string, code: string) =>
      attempt(async () => {
        const session = await api<SessionResponse>('/api/auth/signin/code', {
          method: 'POST',
          body: { challenge, code },
          anonymous: true,
        });
        return start(session).user;
      }),
    [attempt, start],
  );

  const twoFactorSetupDone = useCallback(() => {
    storage.saveTwoFactorSetup(false);
    setTwoFactorSetupRequired(false);
  }, []);

  const updateUser = useCallback((changes: Partial<SessionUser>) => {
    setState((s) => {
      if (!s.user) return s;
      const user = { ...s.user, ...changes };
      storage.saveUser(user);
      return { ...s, user };
    });
  }, []);

  const replaceToken = useCallback((token: string) => storage.saveToken(token), []);

  const value = useMemo(
    () => ({
      ...state,
      notice,
      login,
      loginWithCode,
      logout,
      updateUser,
      replaceToken,
      twoFactorSetupRequired,
      twoFactorSetupDone,
    }),
    [state, notice, login, loginWithCode, logout, updateUser, replaceToken, twoFactorSetupRequired, twoFactorSetupDone],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

/** The signed-in user, for screens behind the auth guard. */
export function useCurrentUser(): SessionUser {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser without a signed-in user');
  return user;
}
