import { z } from 'zod';
import { sessionUserSchema, type SessionUser } from '@lot/domain/schemas/auth';

/** Browser storage keys of spec section 3. */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  selectedNumbers: 'selectedNumbers',
  betAmount: 'betAmount',
  /** Beyond the spec's keys: the game in play (range, draws, its settlement key) and the play screen's theme. */
  numberGame: 'numberGame',
  gameTheme: 'gameTheme',
} as const;

/** The stored user record can be anything another version of the app left; only a valid one is used. */
const storedUserSchema = sessionUserSchema.extend({ hasLogo: z.boolean().default(false) });

export const storage = {
  getToken: () => localStorage.getItem(STORAGE_KEYS.token),
  /** The stored user, or null when there is none; `corrupt` when something unreadable is stored. */
  getUser(): SessionUser | null | 'corrupt' {
    const raw = localStorage.getItem(STORAGE_KEYS.user);
    if (raw === null) return null;
    try {
      const parsed = storedUserSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : 'corrupt';
    } catch {
      return 'corrupt';
    }
  },
  save(token: string, user: SessionUser) {
    localStorage.setItem(STORAGE_KEYS.token, token);
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  },
  saveToken: (token: string) => localStorage.setItem(STORAGE_KEYS.token, token),
  saveUser: (user: SessionUser) => localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user)),
  clear() {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.user);
  },
};
