import { parseCheckpoint } from '@lot/domain/tlog/checkpoint';
import { base64Encode } from '@lot/domain/tlog/encoding';
import { parseNote } from '@lot/domain/tlog/note';
import { leafHash } from '@lot/domain/tlog/merkle';
import { planAppend, rootOf, type LogHead } from '../../lib/game-log.ts';
import { readLogHead } from '../log/log.repository.ts';
import {
  gameAuditRows,
  gamesForAudit,
  latestWitnessedCheckpoint,
  logLeavesPage,
  type Db,
  type GameAuditRow,
} from './audit.repository.ts';

/**
 * Every game row held to its audit rows and to the game log (issue 41, decision 083): a game's
 * freeze, settlement and void each left a `game.frozen`, `game.settled` or `game.voided` audit row
 * (hash-chained, decision 029) and a leaf in the log (decision 081), written in the same
 * transaction. A row rewritten afterwards (a backdated freeze, another entries digest, other
 * numbers) no longer matches them; a game deleted leaves audit rows and leaves that name it with no
 * row. With `--log`, the log's leaves are hashed again and folded into its root, which must be the
 * root its head (and, once stored, its latest witnessed checkpoint) holds.
 */

/** Problems listed in full; the rest are counted. */
const LISTED = 20;

const bytesOf = (value: Uint8Array | string): Uint8Array =>
  typeof value === 'string' ? Buffer.from(value.replace(/^\\x/, ''), 'hex') : new Uint8Array(value);
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const fieldsOf = (text: string) =>
  new Map(
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)] as const),
  );

export type GamesAuditReport = {
  ok: boolean;
  games: number;
  auditRows: number;
  leaves: number;
  problems: string[];
  total: number;
  /**
   * Not failures: freezes that stood after an attempt whose round R was already public (decision
   * 080), listed for a person to look at.
   */
  reviews: string[];
};

export type LogRootReport = {
  ok: boolean;
  size: number;
  /** The root of the leaves as stored now, base64. */
  recomputed: string;
  /** The root the log's head holds, base64. */
  head: string;
  /** The size of the latest checkpoint witnesses cosigned, also compared; null without one. */
  witnessedSize: number | null;
  problems: string[];
  total: number;
};

/** What the game log holds of one game: its code as the leaves write it, its frozen leaf's fields, its end. */
type GameLeaves = {
  idx: number;
  code: string;
  opened: boolean;
  frozen: Map<string, string> | null;
  /** The rounds R named by freezes that did not stand (decision 080). */
  attempts: number[];
  ended: string | null;
};

/** Reads the log's leaves in order, a page at a time; `each` sees each leaf with its stored level-0 hash. */
async function eachLeaf(
  db: Db,
  each: (leaf: {
    idx: number;
    gameId: number;
    kind: string;
    data: Uint8Array;
    attempt: boolean;
    stored: Uint8Array | null;
  }) => void,
): Promise<void> {
  const PAGE = 5000;
  for (let from = 0; ; from += PAGE) {
    const { rows, more } = await logLeavesPage(db, from, PAGE);
    for (const row of rows)
      each({
        idx: Number(row.idx),
        gameId: row.game_id,
        kind: row.kind,
        data: bytesOf(row.data),
        attempt: row.attempt,
        stored: row.hash === null ? null : bytesOf(row.hash),
      });
    if (!more) return;
  }
}

/** Game rows, their `game.*` audit rows and the log's leaves, compared every way (decision 083). */
export async function compareGamesWithAuditAndLog(db: Db): Promise<GamesAuditReport> {
  const { games, base } = await gamesForAudit(db);
  const audits = await gameAuditRows(db);
  const leaves = new Map<number, GameLeaves>();
  let leafCount = 0;
  await eachLeaf(db, ({ idx, gameId, kind, data, attempt }) => {
    leafCount += 1;
    const fields = fieldsOf(new TextDecoder().decode(data));
    const game = leaves.get(gameId) ?? {
      idx,
      code: fields.get('code') ?? '?',
      opened: false,
      frozen: null,
      attempts: [],
      ended: null,
    };
    if (kind === 'opened') game.opened = true;
    else if (kind === 'frozen' && attempt) game.attempts.push(Number(fields.get('round')));
    else if (kind === 'frozen') game.frozen = fields;
    else game.ended = kind;
    leaves.set(gameId, game);
  });

  const problems: string[] = [];
  const reviews: string[] = [];
  const byId = new Map(games.map((g) => [g.id, g]));
  const auditOf = new Map<string, GameAuditRow & { details: Record<string, unknown> }>();
  for (const row of audits) {
    const details = (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<
      string,
      unknown
    >;
    const game = row.target_id === null ? undefined : byId.get(Number(row.target_id));
    const what = `audit row ${row.id} (${row.action} of game ${String(details.code)})`;
    if (!game) problems.push(`${what}: no game row has id ${String(row.target_id)}: the game was deleted`);
    else if (details.code !== game.code)
      problems.push(`${what}: game ${game.id} is now ${game.code}: its row was rewritten`);
    auditOf.set(`${row.action}/${String(row.target_id)}`, { ...row, details });
  }
  for (const [gameId, held] of leaves) {
    if (gameId <= 0) continue;
    const game = byId.get(gameId);
    if (!game)
      problems.push(
        `the game log's leaf ${held.idx} names game ${held.code} (id ${gameId}), which has no row: the game was deleted`,
      );
    else if (held.code !== game.code)
      problems.push(`the game log names game ${gameId} ${held.code}, its row says ${game.code}: the row was rewritten`);
  }
  // Games the log began with: every later game has leaves (earlier ones predate the log, decision 081).
  const logFrom = Math.min(...[...leaves].filter(([id, l]) => id > 0 && l.opened).map(([id]) => id));

  for (const game of games) {
    const name = `game ${game.code} (id ${game.id})`;
    const beforeTrail = game.transaction_id !== null && game.transaction_id <= (base?.ledger_from ?? 0);
    const beforeFrozenRows = game.transaction_id !== null && game.transaction_id <= (base?.pools_from ?? 0);
    const frozenAt = iso(game.frozen_at);
    const round = game.beacon_round === null ? null : Number(game.beacon_round);
    const numbers = (typeof game.numbers === 'string' ? JSON.parse(game.numbers) : (game.numbers ?? [])) as number[];
    if (!beforeTrail && !beforeFrozenRows && frozenAt !== null) {
      const audit = auditOf.get(`game.frozen/${game.id}`);
      const d = audit?.details;
      if (!d) problems.push(`${name} is frozen but no game.frozen audit row records it`);
      else {
        const differs = [
          d.entriesDigest !== game.entries_digest && `entries digest ${String(d.entriesDigest)}`,
          d.frozenAt !== frozenAt && `frozen at ${String(d.frozenAt)}`,
          (d.beaconRound ?? null) !== round && `round ${String(d.beaconRound)}`,
        ].filter(Boolean);
        if (differs.length > 0)
          problems.push(
            `${name}: its game.frozen audit row ${audit.id} says ${differs.join(', ')}: the row was rewritten`,
          );
      }
    }
    if (!beforeTrail && (game.status === 'settled' || game.status === 'voided')) {
      const action = game.status === 'settled' ? 'game.settled' : 'game.voided';
      const audit = auditOf.get(`${action}/${game.id}`);
      if (!audit) problems.push(`${name} is ${game.status} but no ${action} audit row records it`);
      else if (game.status === 'settled' && JSON.stringify(audit.details.numbers) !== JSON.stringify(numbers))
        problems.push(
          `${name}: its game.settled audit row ${audit.id} says ${JSON.stringify(audit.details.numbers)} were drawn, the row ${JSON.stringify(numbers)}`,
        );
    }
    if (!(game.id >= logFrom)) continue;
    const held = leaves.get(game.id);
    if (!held?.opened) {
      problems.push(`${name} has no opened leaf in the game log`);
      continue;
    }
    if (frozenAt !== null) {
      const leaf = held.frozen;
      if (!leaf) problems.push(`${name} is frozen but the game log has no frozen leaf for it`);
      else {
        const differs = [
          leaf.get('entries-digest') !== game.entries_digest && `entries digest ${String(leaf.get('entries-digest'))}`,
          leaf.get('frozen-at') !== frozenAt && `frozen at ${String(leaf.get('frozen-at'))}`,
          leaf.get('round') !== (round === null ? '-' : String(round)) && `round ${String(leaf.get('round'))}`,
          leaf.get('chain') !== (game.chain ?? '-') && `chain ${String(leaf.get('chain'))}`,
        ].filter(Boolean);
        if (differs.length > 0)
          problems.push(`${name}: its frozen leaf says ${differs.join(', ')}: the row was rewritten`);
      }
      // A freeze that stood after an attempt whose round R was already public (decision 080): the
      // outcome could have been known before the freeze stood: a re-roll, or a witness outage. Listed for review.
      const stoodAt = Date.parse(frozenAt);
      for (const attempted of held.attempts) {
        if (game.genesis === null || game.period === null || !Number.isSafeInteger(attempted)) continue;
        const publishedAt = (Number(game.genesis) + (attempted - 1) * game.period) * 1000;
        if (publishedAt <= stoodAt)
          reviews.push(
            `${name}: a freeze attempt named round ${attempted}, published at ${new Date(publishedAt).toISOString()}, before the freeze that stood at ${frozenAt}: review why it did not stand (a witness outage, or a re-roll)`,
          );
      }
    }
    const ended = ['settled', 'voided', 'discarded'].includes(game.status) ? game.status : null;
    if (held.ended !== ended)
      problems.push(
        `${name} is ${game.status} but the game log ${held.ended ? `ends it as ${held.ended}` : 'has not ended it'}`,
      );
  }
  return {
    ok: problems.length === 0,
    games: games.length,
    auditRows: audits.length,
    leaves: leafCount,
    problems: problems.slice(0, LISTED),
    total: problems.length,
    reviews: reviews.slice(0, LISTED),
  };
}

/**
 * `--log`: the log's leaves hashed again, in order, and folded into a root as appends do: each must
 * match its stored hash, none may be missing, and the root must be the head's (decision 083).
 */
export async function verifyLogRoot(db: Db): Promise<LogRootReport> {
  const problems: string[] = [];
  const logHead = await readLogHead(db);
  // The latest checkpoint witnesses cosigned (decision 080), on this log's origin: its root must be
  // the root of the leaves it covers, as they are now.
  const note = await latestWitnessedCheckpoint(db);
  const witnessed = note === null ? null : parseCheckpoint(parseNote(note).text);
  const cosigned = witnessed && witnessed.origin === logHead.origin ? witnessed : null;
  let cosignedRoot: string | null = cosigned?.size === 0 ? base64Encode(rootOf({ size: 0, edge: [] })) : null;
  let head: LogHead = { size: 0, edge: [] };
  let next = 0;
  let gaps = false;
  await eachLeaf(db, ({ idx, gameId, kind, data, stored }) => {
    if (idx !== next) {
      problems.push(`the game log has no leaf ${next}${idx > next + 1 ? ` to ${idx - 1}` : ''}: deleted`);
      gaps = true;
    }
    next = idx + 1;
    const hash = leafHash(data);
    if (!stored || Buffer.compare(Buffer.from(stored), Buffer.from(hash)) !== 0)
      problems.push(
        `the game log's leaf ${idx} (${kind} of game id ${gameId}) no longer hashes to its stored hash: rewritten`,
      );
    // The root is folded as appends fold it; past a gap there is no root to compare.
    if (!gaps) head = planAppend(head, data).head;
    if (!gaps && cosigned && head.size === cosigned.size) cosignedRoot = base64Encode(rootOf(head));
  });
  const recomputed = base64Encode(rootOf(head));
  const headRoot = base64Encode(rootOf(logHead));
  if (next < logHead.size)
    problems.push(
      `the game log has no leaf ${next}${logHead.size > next + 1 ? ` to ${logHead.size - 1}` : ''}: deleted (its head says ${logHead.size} leaves)`,
    );
  else if (next > logHead.size) problems.push(`the game log holds ${next} leaves, its head says ${logHead.size}`);
  else if (gaps) problems.push("the game log's root cannot be recomputed: leaves are missing");
  else if (recomputed !== headRoot)
    problems.push(`the game log's leaves hash to ${recomputed}, its head holds ${headRoot}`);
  if (cosigned && cosignedRoot !== null && cosignedRoot !== base64Encode(cosigned.rootHash))
    problems.push(
      `the game log's first ${cosigned.size} leaves hash to ${cosignedRoot}, the witnesses cosigned ${base64Encode(cosigned.rootHash)}: the log was rewritten`,
    );
  return {
    ok: problems.length === 0,
    size: logHead.size,
    recomputed,
    head: headRoot,
    witnessedSize: cosigned?.size ?? null,
    problems: problems.slice(0, LISTED),
    total: problems.length,
  };
}

const failed = (what: string, total: number, problems: string[]) => [
  `FAILED: ${total} problem${total === 1 ? '' : 's'} ${what}.`,
  ...problems.map((p) => `  ${p}`),
  ...(total > problems.length ? [`  … and ${total - problems.length} more`] : []),
];

export function describeGamesAudit(report: GamesAuditReport): string[] {
  const reviews = report.reviews.map((r) => `  To review: ${r}`);
  if (report.ok)
    return [
      `OK: ${report.games} games agree with their ${report.auditRows} game audit rows and the game log's ${report.leaves} leaves.`,
      ...reviews,
    ];
  return [...failed('between the games, their audit rows and the game log', report.total, report.problems), ...reviews];
}

export function describeLogRoot(report: LogRootReport): string[] {
  if (report.ok)
    return [
      `OK: the game log's ${report.size} leaves hash to the root its head holds, ${report.head}${
        report.witnessedSize === null
          ? ' (no witnessed checkpoint is stored)'
          : `, and its first ${report.witnessedSize} to the root its latest witnessed checkpoint holds`
      }.`,
    ];
  return failed("in the game log's leaves", report.total, report.problems);
}
