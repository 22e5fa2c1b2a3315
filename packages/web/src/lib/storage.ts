import { ROLES } from '@lot/domain/roles';
import type { SessionUser } from '@lot/domain/schemas/auth';

/**
 * Browser storage keys (docs/product/screens.md#browser-storage): the session, the play screen's
 * theme, this device's slip width and how far the bell has been read. The game in play is the server's (docs/decisions/013), so the browser keeps nothing of it.
 */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  gameTheme: 'gameTheme',
  slipWidth: 'slipWidth',
  notificationsSeenUntil: 'notificationsSeenUntil',
  /** Set while the session may only set up two-factor sign-in (the role requires it, decision 028). */
  twoFactorSetup: 'twoFactorSetup',
} as const;

const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const nullable = (value: unknown, type: 'string' | 'number') =>
  value === null || (type === 'number' ? isNumber(value) : typeof value === type);

/**
 * The stored user record can be anything another version of the app left; only a valid one (the
 * shape of sessionUserSchema, hasLogo optional) is used. Checked by hand rather than with zod, which
 * would add 30 kB gzip before every first screen: this module loads with the app. It accepts exactly
 * what the schema accepts (a property test in storage.test.ts holds it to that).
 */
export function readStoredUser(value: unknown): SessionUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, username, fullName, shopName, hasLogo = false, role, parentId } = value as Record<string, unknown>;
  const valid =
    isNumber(id) &&
    typeof username === 'string' &&
    typeof fullName === 'string' &&
    nullable(shopName, 'string') &&
    typeof hasLogo === 'boolean' &&
    ROLES.some((known) => known === role) &&
    nullable(parentId, 'number');
  return valid ? ({ id, username, fullName, shopName, hasLogo, role, parentId } as SessionUser) : null;
}

export const storage = {
  getToken: () => localStorage.getItem(STORAGE_KEYS.token),
  /** The stored user, or null when there is none; `corrupt` when something unreadable is stored. */
  getUser(): SessionUser | null | 'corrupt' {
    const raw = localStorage.getItem(STORAGE_KEYS.user);
    if (raw === null) return null;
    try {
      return readStoredUser(JSON.parse(raw)) ?? 'corrupt';
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
  /**
   * The instant up to which the bell's events have been seen on this device, as `{userId}:{ISO}`
   * (another account signed in here starts unread); null when there is none or it is unreadable.
   */
  getSeenUntil(userId: number): string | null {
    const raw = localStorage.getItem(STORAGE_KEYS.notificationsSeenUntil) ?? '';
    const [owner, at] = raw.split(/:(.*)/s);
    return owner === String(userId) && at && !Number.isNaN(Date.parse(at)) ? at : null;
  },
  saveSeenUntil: (userId: number, at: string) =>
    localStorage.setItem(STORAGE_KEYS.notificationsSeenUntil, `${userId}:${at}`),
  getTwoFactorSetup: () => localStorage.getItem(STORAGE_KEYS.twoFactorSetup) === 'required',
  saveTwoFactorSetup(required: boolean) {
    if (required) localStorage.setItem(STORAGE_KEYS.twoFactorSetup, 'required');
    else localStorage.removeItem(STORAGE_KEYS.twoFactorSetup);
  },
  clear() {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.user);
    localStorage.removeItem(STORAGE_KEYS.twoFactorSetup);
  },
};
