import { createHash } from 'node:crypto';
import { auditHeads, auditPage, type ChainRow, type Db } from './audit.repository.ts';

/** The hash a chain starts from (the migration's `decode(repeat('00', 32), 'hex')`). */
export const GENESIS = Buffer.alloc(32);

/** One field of the canonical content: its length in bytes, a colon and its text; NULL as '~'. */
const field = (value: string | number | null) =>
  value === null ? '~' : `${Buffer.byteLength(String(value))}:${String(value)}`;

/**
 * A row's hash, rebuilt in Node from its columns: SHA-256 of the previous row's hash and the row's
 * canonical content, exactly as the trigger `audit_log_chain` (migration 0011) computes it.
 */
export function rowHash(row: Omit<ChainRow, 'hash'>): Buffer {
  const content = [
    row.id,
    row.chain,
    row.seq,
    row.at_us,
    row.actor_id,
    row.address,
    row.action,
    row.target_kind,
    row.target_id,
    row.target_user_id,
    row.details,
  ]
    .map(field)
    .join('');
  return createHash('sha256').update(Buffer.from(row.prev_hash)).update(content, 'utf8').digest();
}

export type AuditProblem = {
  chain: number;
  seq: number;
  /** The row's id; null when the problem is a row missing at the end of its chain. */
  id: number | null;
  problem: string;
};

export type AuditReport = { ok: boolean; rows: number; chains: number; problems: AuditProblem[] };

/** Rows read per statement: a long trail is walked in pages. */
const PAGE = 5_000;

/**
 * Walks every chain of the audit trail (decision 029): each row must follow the one before in its
 * chain (seq one more, prev_hash its hash) and carry the hash of its own content, and the last row
 * must be the chain's head in `audit_heads`. A row edited, removed or inserted afterwards breaks
 * one of these; the first bad row of each chain is reported (what follows it cannot be judged).
 * Problems are sorted by row id, so the first is the earliest row that is wrong.
 */
export async function verifyAudit(db: Db): Promise<AuditReport> {
  const heads = new Map((await auditHeads(db)).map((h) => [h.chain, h]));
  const problems: AuditProblem[] = [];
  const broken = new Set<number>();
  const last = new Map<number, { seq: number; hash: Buffer }>();
  let rows = 0;
  let after: [number, number] = [-2_147_483_648, 0];
  for (;;) {
    const page = await auditPage(db, after, PAGE);
    for (const row of page) {
      rows++;
      if (broken.has(row.chain)) continue;
      const before = last.get(row.chain) ?? { seq: 0, hash: GENESIS };
      const hash = Buffer.from(row.hash);
      const report = (problem: string) => {
        problems.push({ chain: row.chain, seq: row.seq, id: Number(row.id), problem });
        broken.add(row.chain);
      };
      if (row.seq !== before.seq + 1) report(`expected seq ${before.seq + 1}: a row before it was removed or inserted`);
      else if (!Buffer.from(row.prev_hash).equals(before.hash))
        report('its previous hash is not the hash of the row before it');
      else if (!rowHash(row).equals(hash)) report('its content does not match its hash: the row was changed');
      last.set(row.chain, { seq: row.seq, hash });
    }
    const end = page[page.length - 1];
    if (!end || page.length < PAGE) break;
    after = [end.chain, end.seq];
  }
  for (const [chain, head] of heads) {
    if (broken.has(chain)) continue;
    const tail = last.get(chain) ?? { seq: 0, hash: GENESIS };
    if (tail.seq < head.seq) {
      problems.push({
        chain,
        seq: tail.seq + 1,
        id: null,
        problem: `rows ${tail.seq + 1} to ${head.seq} were removed`,
      });
    } else if (tail.seq > head.seq || !tail.hash.equals(Buffer.from(head.hash))) {
      problems.push({
        chain,
        seq: head.seq + 1,
        id: null,
        problem: 'the chain does not end at its head: rows were inserted or the head changed',
      });
    }
  }
  for (const chain of last.keys()) {
    if (!heads.has(chain) && !broken.has(chain))
      problems.push({ chain, seq: 1, id: null, problem: 'the chain has no head' });
  }
  problems.sort((a, b) => (a.id ?? Number.MAX_SAFE_INTEGER) - (b.id ?? Number.MAX_SAFE_INTEGER));
  return { ok: problems.length === 0, rows, chains: new Set([...heads.keys(), ...last.keys()]).size, problems };
}

/** The report as the CLI prints it, naming the first bad row. */
export function describeAudit(report: AuditReport): string[] {
  if (report.ok) return [`OK: ${report.rows} audit rows in ${report.chains} chains, every hash matches.`];
  const lines = report.problems.map(
    (p) => `  chain ${p.chain}, seq ${p.seq}${p.id === null ? '' : `, row id ${p.id}`}: ${p.problem}`,
  );
  const first = report.problems[0];
  return [
    `FAILED: ${report.problems.length} broken chain(s) among ${report.chains}; ${report.rows} rows read.`,
    first ? `First bad row: chain ${first.chain}, seq ${first.seq}${first.id === null ? '' : `, id ${first.id}`}` : '',
    ...lines,
  ];
}
