/**
 * Usernames are compared as people read them (decision 047): sign-in, uniqueness among live users
 * and the sign-in throttle all go by this key, never by the name as typed.
 *
 * JavaScript has no full case folding, so the key is built from what it has: NFKC (fullwidth and
 * other compatibility forms become their plain letters), invisible format characters dropped,
 * lower case, then the two places where lower case and folding part: the final sigma (ς reads as
 * σ) and the Turkish dotted capital İ, whose lower case is i followed by a combining dot above
 * (U+0307), which would leave `admİn` apart from `admin`. A last NFKC puts it back in one form.
 * Migration 0015's `lot_username_key(text)` computes the same key in SQL for the database's unique
 * index; `username-key.test.ts` and the server's `usernames.test.ts` hold the two together.
 */

/** Zero-width and other invisible format characters people cannot see in a name (the SQL lists the same). */
export const INVISIBLE =
  // Each entry is one code point on its own (some are combining marks), not a character built of them.
  // eslint-disable-next-line no-misleading-character-class
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/g;

export function usernameKey(username: string): string {
  return username
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .replace(/i\u0307/g, 'i')
    .normalize('NFKC');
}
