import { ShieldCheck } from 'lucide-react';
import { shortDigest } from '@lot/domain/digest';
import { Card } from '../../../components/ui/panels.tsx';
import { count, dateTime } from '../../../lib/format.ts';
import { useAuditCheckpoint } from '../api/get-audit-checkpoint.ts';

/**
 * The Audit checkpoint card atop the admin's audit trail (decision 045): the latest signed checkpoint of the
 * audit chains, its short digest (the one every Z report prints since) and when it was made, so
 * the admin can compare it with the file kept elsewhere and with the paper.
 */
export function AuditCheckpointCard() {
  const checkpoint = useAuditCheckpoint();
  return (
    <Card
      title={
        <span className="inline-flex items-center gap-2">
          <ShieldCheck className="h-5 w-5 text-indigo-500" aria-hidden="true" />
          Audit checkpoint
        </span>
      }
    >
      <div data-testid="audit-checkpoint">
        {checkpoint.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            Couldn&apos;t load the checkpoint: {checkpoint.error.message || 'Failed to fetch the checkpoint'}
          </p>
        ) : checkpoint.data === undefined ? (
          <p className="text-sm text-slate-500">…</p>
        ) : checkpoint.data === null ? (
          <p className="text-sm text-slate-600">
            No checkpoint yet. The server signs one every hour; <code>npm run audit:checkpoint</code> signs one now.
          </p>
        ) : (
          <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:gap-4">
            <p
              data-testid="audit-checkpoint-digest"
              className="font-mono text-xl font-bold tracking-wider break-all text-slate-900"
              title={`SHA-256 ${checkpoint.data.digest}`}
            >
              {shortDigest(checkpoint.data.digest)}
            </p>
            <p className="text-sm text-slate-600">
              Made <time dateTime={checkpoint.data.madeAt}>{dateTime(checkpoint.data.madeAt)}</time> ·{' '}
              {count(checkpoint.data.chains)} chains · {count(checkpoint.data.rows)} rows
            </p>
          </div>
        )}
        <p className="mt-3 text-xs text-slate-500">
          Each Z report prints the latest digest. Keep the checkpoint files away from this server;{' '}
          <code>
            {/* Lines break at the spaces, never inside "--". */}
            npm run audit:verify <span className="whitespace-nowrap">-- --checkpoint</span> FILE
          </code>{' '}
          names any chain removed or rewritten since.
        </p>
      </div>
    </Card>
  );
}
