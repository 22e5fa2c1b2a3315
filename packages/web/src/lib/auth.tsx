import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { MESSAGES } from '@lot/domain/messages';
import type { SessionUser, SigninResponse } from '@lot/domain/schemas/auth';
import { api, ApiError, setSessionEndedHandler } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { storage } from './storage.ts';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

type AuthContextValue = {
  status: AuthStatus;
  user: SessionUser | null;
  /** Why the last session ended without a sign-out ('Your session has expired…'), until the next sign-in. */
  notice: string | null;
  login: (username: string, password: string) => Promise<SessionUser>;
  logout: () => void;
  /** A profile update: merged into the user and persisted (docs/product/screens.md#session). */
  updateUser: (changes: Partial<SessionUser>) => void;
  /** A password change hands out a fresh token. */
  replaceToken: (token: string) => void;
};

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

  const logout = useCallback(() => {
    setNotice(null);
    storage.clear();
    queryClient.clear();
    setState({ status: 'unauthenticated', user: null });
  }, []);

  // The server ended the session (expired, password changed elsewhere, deactivated): the sign-in
  // screen says why, in the server's words.
  useEffect(() => {
    setSessionEndedHandler((message) => {
      logout();
      setNotice(message || MESSAGES.sessionExpired);
    });
    return () => setSessionEndedHandler(undefined);
  }, [logout]);

  const login = useCallback(async (username: string, password: string) => {
    setState((s) => ({ ...s, status: 'loading' }));
    setNotice(null);
    try {
      const {
        accessToken,
        message: _message,
        ...user
      } = await api<SigninResponse>('/api/auth/signin', {
        method: 'POST',
        body: { username, password },
        anonymous: true,
      });
      storage.save(accessToken, user);
      queryClient.clear();
      setState({ status: 'authenticated', user });
      return user;
    } catch (caught) {
      const message = caught instanceof ApiError && caught.message ? caught.message : 'Login failed';
      setState({ status: 'unauthenticated', user: null });
      throw caught instanceof ApiError ? caught : new Error(message);
    }
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
    () => ({ ...state, notice, login, logout, updateUser, replaceToken }),
    [state, notice, login, logout, updateUser, replaceToken],
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
