/**
 * C2SP tlog-tiles paths: `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`. N is written in
 * zero-padded 3-digit elements, every one but the last prefixed with `x` (1234067 is
 * `x001/x234/067`); L is 0 to 63 and W 1 to 255, without leading zeros. Only the one canonical
 * spelling of a tile is read: anything else is not a tile.
 */

/** A tile: `level` null for an entry bundle; `width` 256 for a full tile. */
export type TileAddress = { level: number | null; index: number; width: number };

/** Index groups: six 3-digit groups reach 10^18, past any log this server will hold. */
const MAX_GROUPS = 6;

/** N as tlog-tiles writes it in a path. */
export function tileIndexPath(index: number): string {
  const digits = String(index);
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  const padded = groups.map((group) => group.padStart(3, '0'));
  return padded.map((group, i) => (i < padded.length - 1 ? `x${group}` : group)).join('/');
}

/** The path of a tile under the log's prefix (without a leading slash). */
export function tilePath(tile: TileAddress): string {
  const level = tile.level === null ? 'entries' : String(tile.level);
  const partial = tile.width < 256 ? `.p/${tile.width}` : '';
  return `tile/${level}/${tileIndexPath(tile.index)}${partial}`;
}

/** Reads the part of a tile path after `tile/`; undefined when it is not one canonical tile path. */
export function parseTilePath(rest: string): TileAddress | undefined {
  const match = /^(entries|0|[1-9]\d?)\/((?:x\d{3}\/){0,5}\d{3})(?:\.p\/([1-9]\d{0,2}))?$/.exec(rest);
  if (!match) return undefined;
  const [, levelText = '', indexText = '', widthText] = match;
  const level = levelText === 'entries' ? null : Number(levelText);
  if (level !== null && level > 63) return undefined;
  const groups = indexText.split('/');
  if (groups.length > MAX_GROUPS) return undefined;
  const index = Number(groups.map((group) => group.replace(/^x/, '')).join(''));
  const width = widthText === undefined ? 256 : Number(widthText);
  if (width > 255 && widthText !== undefined) return undefined;
  // One spelling only: `x000/005` is not 5.
  if (tileIndexPath(index) !== indexText || !Number.isSafeInteger(index * 256)) return undefined;
  return { level, index, width };
}
