import { createHmac } from 'node:crypto';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A JWT built by hand, so suites can make the tokens the server must refuse: another
 * algorithm, another key, an edited payload, an expired one. `secret: null` leaves it unsigned.
 */
export function forgeToken(
  payload: Record<string, unknown>,
  secret: string | null,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
): string {
  const body = `${base64url(header)}.${base64url(payload)}`;
  if (secret === null) return `${body}.`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** A token the app would issue, expired an hour ago. */
export function expiredToken(secret: string, user: { id: number; tokenVersion: number }): string {
  const now = Math.floor(Date.now() / 1000);
  return forgeToken({ sub: String(user.id), ver: user.tokenVersion, iat: now - 13 * 3600, exp: now - 3600 }, secret);
}
