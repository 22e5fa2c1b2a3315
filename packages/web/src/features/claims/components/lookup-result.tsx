import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, RotateCcw } from 'lucide-react';
import { gameTitle } from '@lot/domain/game';
import type { ClaimLookup } from '@lot/domain/schemas/claims';
import { Button } from '../../../components/ui/button.tsx';
import { Card, ErrorPanel, Spinner } from '../../../components/ui/panels.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { dateTime, money } from '../../../lib/format.ts';
import { lookupClaim } from '../api/lookup-claim.ts';
import type { PaidClaim } from '../api/pay-claim.ts';
import type { ClaimKey } from './entry-code.ts';
import { PayForm, sumAmounts } from './pay-form.tsx';
import { PrizeRow } from './prize-row.tsx';

const claimLookupKey = (key: ClaimKey) => ['claims', 'lookup', key.code, key.entry] as const;

/**
 * What an entry slip won (docs/product/screens.md#pay-prizes), looked up by its code: the lookup's
 * refusal, or the game and its prizes with the form to pay them. `onPrint` prints receipts.
 */
export function LookupResult({
  claimKey,
  onPrint,
  onDone,
}: {
  claimKey: ClaimKey;
  onPrint: (claims: readonly PaidClaim[] | readonly number[]) => Promise<void>;
  onDone: () => void;
}) {
  const lookup = useQuery({
    queryKey: claimLookupKey(claimKey),
    queryFn: () => lookupClaim(claimKey),
    retry: false,
    staleTime: 0,
  });
  const [paid, setPaid] = useState<PaidClaim[]>([]);
  // On a phone the answer is under the scanner: bring it up once it has come.
  const answerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const answer = answerRef.current;
    if (lookup.status !== 'pending' && answer && answer.getBoundingClientRect().top > window.innerHeight * 0.6) {
      answer.scrollIntoView({ block: 'start' });
    }
  }, [lookup.status]);

  return (
    <div ref={answerRef} className="scroll-mt-20">
      {lookup.isPending ? (
        <Spinner label="Looking up the entry slip..." />
      ) : lookup.isError ? (
        <LookupFailed error={lookup.error} onRetry={() => void lookup.refetch()} onDone={onDone} />
      ) : (
        <ClaimView
          lookup={lookup.data}
          entryCode={claimKey.entry}
          paid={paid}
          onPaid={(done) => {
            setPaid(done);
            void lookup.refetch();
          }}
          onPrint={onPrint}
          onDone={onDone}
        />
      )}
    </div>
  );
}

function LookupFailed({ error, onRetry, onDone }: { error: Error; onRetry: () => void; onDone: () => void }) {
  // The server's refusals (unknown code, not drawn yet) are answers: trying again changes nothing.
  const answered = error instanceof ApiError && error.status !== 0 && error.status < 500;
  return (
    <ErrorPanel
      message={errorMessage(error, 'Failed to look up the entry slip')}
      onRetry={answered ? undefined : onRetry}
    >
      <Button variant="secondary" onClick={onDone}>
        Scan another slip
      </Button>
    </ErrorPanel>
  );
}

/** The prize(s) an entry won, with what can be done with each. */
function ClaimView({
  lookup,
  entryCode,
  paid,
  onPaid,
  onPrint,
  onDone,
}: {
  lookup: ClaimLookup;
  /** The code the prize was found by: the payout sends it (decision 086). */
  entryCode: string;
  paid: PaidClaim[];
  onPaid: (paid: PaidClaim[]) => void;
  onPrint: (claims: readonly PaidClaim[] | readonly number[]) => Promise<void>;
  onDone: () => void;
}) {
  const { game, winner, prizes, noPrize } = lookup;
  const payable = prizes.filter((prize) => prize.status === 'unpaid' && prize.mayPay);
  const [printing, setPrinting] = useState(false);

  const printCopy = async (winnerIds: number[]) => {
    setPrinting(true);
    await onPrint(winnerIds);
    setPrinting(false);
  };

  return (
    <Card
      title={
        <span>
          {gameTitle(game.number)} <span className="font-mono text-sm font-medium text-slate-500">{game.code}</span>
        </span>
      }
      actions={
        <Button variant="ghost" onClick={onDone}>
          <RotateCcw className="h-4 w-4" aria-hidden="true" />
          Scan another slip
        </Button>
      }
    >
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-500">Shop</dt>
          <dd className="font-medium text-slate-900">{game.shopName}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Drawn</dt>
          <dd className="font-medium text-slate-900">{game.settledAt ? dateTime(game.settledAt) : '—'}</dd>
        </div>
        {winner && (
          <div className="col-span-2 sm:col-span-1">
            <dt className="text-slate-500">Winner</dt>
            <dd className="font-medium text-slate-900" data-testid="claim-winner">
              {winner.name} · {winner.phoneNumber}
            </dd>
          </div>
        )}
      </dl>

      {noPrize && (
        <p
          role="status"
          data-testid="claim-no-prize"
          className="mt-4 rounded-lg bg-slate-100 px-3 py-2 text-sm font-semibold text-slate-700"
        >
          {noPrize}
        </p>
      )}

      {paid.length > 0 && (
        <div
          role="status"
          data-testid="claim-paid"
          className="mt-4 flex items-start gap-2 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-800 ring-1 ring-emerald-200"
        >
          <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            Paid {money(sumAmounts(paid.map((p) => p.claim)))} to {paid[0]?.claim.claimerName}. The receipt is printing.
          </span>
        </div>
      )}

      {prizes.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
          {prizes.map((prize) => (
            <PrizeRow
              key={prize.winnerId}
              prize={prize}
              justPaid={paid.some((p) => p.claim.winnerId === prize.winnerId)}
              printing={printing}
              onCopy={() => void printCopy([prize.winnerId])}
            />
          ))}
        </ul>
      )}

      {payable.length > 0 && (
        <PayForm
          prizes={payable}
          entryCode={entryCode}
          onPaid={async (done) => {
            onPaid(done);
            if (done.length > 0) await onPrint(done);
          }}
        />
      )}
    </Card>
  );
}
