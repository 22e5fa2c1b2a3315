import type { KeyObject } from 'node:crypto';
import { describeAudit, verifyAudit } from './audit-chain.ts';
import type { Db } from './audit.repository.ts';
import { describeCheckpoint, verifyCheckpoint, type Checkpoint } from './checkpoint.ts';
import { compareClaimsAndShiftsWithAudit, describeClaimsAndShiftsAudit } from './claims-shifts-audit.ts';
import { compareGamesWithAuditAndLog, describeGamesAudit, describeLogRoot, verifyLogRoot } from './games-audit.ts';
import { compareLedgerWithAudit, describeLedgerAudit } from './ledger-audit.ts';

export type AuditVerifyOptions = {
  /** Names the database in the first line (`pglite`, `postgres`). */
  kind: string;
  /** `--log`: the game log's leaves hashed again into its root (decision 083). */
  log?: boolean;
  /** `--checkpoint FILE`: the checkpoint read from it, and this DATA_DIR's key to tell whose it is (decision 045). */
  checkpoint?: { checkpoint: Checkpoint; ownKey: KeyObject | undefined };
};

/**
 * Everything `npm run audit:verify` checks, in order, and the lines it prints: the chains (decision
 * 029), the ledger against the audit trail (044), the games against their audit rows and the game
 * log (083), the prize claims and shifts against theirs (087), and with the options the log's root
 * and a checkpoint. `ok` is false when any fails: the command then exits 1.
 */
export async function auditVerify(db: Db, options: AuditVerifyOptions): Promise<{ ok: boolean; lines: string[] }> {
  const chains = await verifyAudit(db);
  const ledger = await compareLedgerWithAudit(db);
  const games = await compareGamesWithAuditAndLog(db);
  const counter = await compareClaimsAndShiftsWithAudit(db);
  const lines = [
    `Audit trail (${options.kind}):`,
    ...describeAudit(chains),
    'Ledger and audit trail:',
    ...describeLedgerAudit(ledger),
    'Games, their audit rows and the game log:',
    ...describeGamesAudit(games),
    'Prize claims, shifts and the audit trail:',
    ...describeClaimsAndShiftsAudit(counter),
  ];
  let ok = chains.ok && ledger.ok && games.ok && counter.ok;
  if (options.log) {
    const root = await verifyLogRoot(db);
    lines.push("The game log's root:", ...describeLogRoot(root));
    ok &&= root.ok;
  }
  if (options.checkpoint) {
    const verified = await verifyCheckpoint(db, options.checkpoint.checkpoint, options.checkpoint.ownKey);
    lines.push(...describeCheckpoint(verified));
    ok &&= verified.ok;
  }
  return { ok, lines };
}
