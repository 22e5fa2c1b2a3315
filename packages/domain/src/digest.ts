/**
 * The part of an audit checkpoint's SHA-256 (hex) that people compare by eye: its first 16 hex
 * digits, as Z reports print it and the admin's dashboard shows it (decision 045).
 */
export const shortDigest = (digest: string) => digest.slice(0, 16);
