import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Keyboard, Printer, RotateCcw } from 'lucide-react';
import { claimPayInputSchema, type ClaimLookup, type PrizeClaim } from '@lot/domain/schemas/claims';
import { lookupClaim } from '../api/lookup-claim.ts';
import { payClaim, type PaidClaim } from '../api/pay-claim.ts';
import { countReceiptPrint, getPayoutReceipt } from '../api/payout-receipt.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FormError, SelectField, TextField } from '../../../components/ui/field.tsx';
import { Card, ErrorPanel, PageHeading, Spinner } from '../../../components/ui/panels.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, errorMessage, newIdempotencyKey } from '../../../lib/api-client.ts';
import { dateTime, money } from '../../../lib/format.ts';
import { usePublicBase } from '../../../lib/public-url.ts';
import {
  loadSlipWidth,
  saveSlipWidth,
  SLIP_WIDTH_LABELS,
  SLIP_WIDTHS,
  type SlipWidth,
} from '../../../lib/slip-width.ts';
import { claimStatusText } from '../../../lib/claim-status.ts';
import { type ClaimKey, readScannedCode, readTypedCode } from './entry-code.ts';
import { QrScanner } from './qr-scanner.tsx';
import { ReceiptPrintSheet, type ReceiptJob } from './receipt-print-sheet.tsx';

export const claimLookupKey = (key: ClaimKey) => ['claims', 'lookup', key.code, key.entry] as const;

/**
 * docs/product/screens.md#pay-prizes (/user/pay-prizes): the shop scans the winner's entry slip (or
 * types its entry code), sees what it won, writes down who collects it and pays; the payout receipt
 * prints on the shop's slip paper. A prize paid before says where and when, and offers only a copy
 * of its receipt.
 */
export function PayPrizesScreen() {
  const [key, setKey] = useState<ClaimKey | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [width, setWidth] = useState<SlipWidth>(loadSlipWidth);
  const [job, setJob] = useState<ReceiptJob | null>(null);
  // Asked now, so a receipt prints at once; a job waits until the base is known.
  const { base } = usePublicBase();

  const onScan = (text: string) => {
    const read = readScannedCode(text);
    if (!read.ok) {
      setReadError(read.message);
      return false;
    }
    setReadError(null);
    setKey(read.key);
    return true;
  };

  return (
    <div className="space-y-6">
      <PageHeading title="Pay Prizes">
        Scan the winner’s entry slip or type its entry code, then pay the prize in cash and print the receipt.
      </PageHeading>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <Card title="Find the prize">
          <div className="space-y-5">
            <QrScanner onRead={onScan} />
            {readError && (
              <p role="alert" className="rounded-lg bg-rose-50 p-3 text-sm text-rose-700 ring-1 ring-rose-200">
                {readError}
              </p>
            )}
            <TypedCodeForm
              onCode={(next) => {
                setReadError(null);
                setKey(next);
              }}
            />
            <SelectField
              label="Receipt paper"
              value={width}
              onChange={(event) => {
                const next = SLIP_WIDTHS.find((w) => w === event.target.value) ?? width;
                saveSlipWidth(next);
                setWidth(next);
              }}
            >
              {SLIP_WIDTHS.map((w) => (
                <option key={w} value={w}>
                  {SLIP_WIDTH_LABELS[w]}
                </option>
              ))}
            </SelectField>
          </div>
        </Card>
        <div aria-live="polite">
          {key ? (
            <LookupResult
              key={`${key.code ?? ''}:${key.entry}`}
              claimKey={key}
              onPrint={(receipts) => setJob({ id: Date.now(), width, receipts })}
              onDone={() => setKey(null)}
            />
          ) : (
            <Card>
              <p className="py-8 text-center text-sm text-slate-500">
                Scan an entry slip or type its code to see what it won.
              </p>
            </Card>
          )}
        </div>
      </div>
      {job && base !== null && <ReceiptPrintSheet key={job.id} job={job} base={base} />}
    </div>
  );
}

function TypedCodeForm({ onCode }: { onCode: (key: ClaimKey) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="space-y-2 border-t border-slate-100 pt-4"
      onSubmit={(event) => {
        event.preventDefault();
        const read = readTypedCode(value);
        if (!read.ok) {
          setError(read.message);
          return;
        }
        setError(null);
        onCode(read.key);
      }}
    >
      <TextField
        label="Entry code"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        placeholder="0000 0000 0000 0000"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        className="font-mono"
        error={error ?? undefined}
        hint="16 characters, printed under the number on the entry slip"
      />
      <Button type="submit" variant="secondary" className="w-full">
        <Keyboard className="h-4 w-4" aria-hidden="true" />
        Find prize
      </Button>
    </form>
  );
}

type PrintReceipts = ReceiptJob['receipts'];

/** Counts a print of each paid claim's receipt and fetches what it says (a copy when printed before). */
async function receiptsToPrint(claims: readonly PaidClaim[] | readonly number[]): Promise<PrintReceipts> {
  return Promise.all(
    claims.map(async (item) => {
      const winnerId = typeof item === 'number' ? item : item.claim.winnerId;
      const [receipt, print] = await Promise.all([
        typeof item === 'number' ? getPayoutReceipt(winnerId) : Promise.resolve(item.receipt),
        countReceiptPrint(winnerId),
      ]);
      return { receipt: { ...receipt, printCount: print.printCount }, printCount: print.printCount, copy: print.copy };
    }),
  );
}

function LookupResult({
  claimKey,
  onPrint,
  onDone,
}: {
  claimKey: ClaimKey;
  onPrint: (receipts: PrintReceipts) => void;
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
  // The server's refusals (unknown code, no prize, not drawn yet) are answers: trying again changes nothing.
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
  paid,
  onPaid,
  onPrint,
  onDone,
}: {
  lookup: ClaimLookup;
  paid: PaidClaim[];
  onPaid: (paid: PaidClaim[]) => void;
  onPrint: (receipts: PrintReceipts) => void;
  onDone: () => void;
}) {
  const toast = useToast();
  const { game, winner, prizes } = lookup;
  const payable = prizes.filter((prize) => prize.status === 'unpaid' && prize.mayPay);
  const [printing, setPrinting] = useState(false);

  const printCopy = async (winnerIds: number[]) => {
    setPrinting(true);
    try {
      onPrint(await receiptsToPrint(winnerIds));
    } catch (error) {
      toast.error(`Error: ${errorMessage(error, 'Failed to print the receipt')}`);
    } finally {
      setPrinting(false);
    }
  };

  return (
    <Card
      title={
        <span>
          {game.number === null ? 'Game' : `Game #${game.number}`}{' '}
          <span className="font-mono text-sm font-medium text-slate-500">{game.code}</span>
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
        <div className="col-span-2 sm:col-span-1">
          <dt className="text-slate-500">Winner</dt>
          <dd className="font-medium text-slate-900" data-testid="claim-winner">
            {winner.name} · {winner.phoneNumber}
          </dd>
        </div>
      </dl>

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

      {payable.length > 0 && (
        <PayForm
          prizes={payable}
          onPaid={async (done) => {
            onPaid(done);
            if (done.length === 0) return;
            try {
              onPrint(await receiptsToPrint(done));
            } catch (error) {
              toast.error(`Error: ${errorMessage(error, 'Failed to print the receipt')}`);
            }
          }}
        />
      )}
    </Card>
  );
}

const sumAmounts = (claims: readonly PrizeClaim[]) =>
  claims.reduce((sum, claim) => sum + Math.round(Number(claim.amount) * 100), 0) / 100;

function PrizeRow({
  prize,
  justPaid,
  printing,
  onCopy,
}: {
  prize: PrizeClaim;
  justPaid: boolean;
  printing: boolean;
  onCopy: () => void;
}) {
  const status = claimStatusText({ ...prize, shopName: prize.paidAtShop });
  const tone =
    prize.status === 'paid' ? 'text-emerald-700' : prize.status === 'expired' ? 'text-rose-700' : 'text-amber-700';
  // Why this shop may not pay it (paid before, expired, another shop's game): the server's words.
  const refusal = prize.refusal ?? (prize.status === 'paid' && !justPaid ? status : null);
  return (
    <li className="space-y-2 p-3" data-testid="claim-prize" data-status={prize.status}>
      <div className="flex items-center gap-3">
        <span className="flex h-11 w-12 shrink-0 items-center justify-center rounded-lg bg-slate-900 text-xl font-black text-white">
          {prize.number}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block text-xs font-semibold text-slate-500 uppercase">
            #{prize.position} {prize.prizeName}
          </span>
          <span className={`block text-sm font-semibold ${tone}`} data-testid="claim-status">
            {status}
          </span>
        </span>
        <span className="shrink-0 text-lg font-bold text-slate-900 tabular-nums">{money(prize.amount)}</span>
      </div>
      {refusal && !justPaid && (
        <p
          role="alert"
          data-testid="claim-refusal"
          className="rounded-lg bg-rose-50 px-3 py-2 text-sm font-semibold text-rose-800 ring-1 ring-rose-200"
        >
          {refusal}
        </p>
      )}
      {prize.status === 'paid' && (
        <Button variant="secondary" className="w-full sm:w-auto" disabled={printing} onClick={onCopy}>
          <Printer className="h-4 w-4" aria-hidden="true" />
          {justPaid ? 'Print the receipt again (COPY)' : 'Print a COPY of the receipt'}
        </Button>
      )}
    </li>
  );
}

/** Who collects the prize(s); paying sends each with its own Idempotency-Key, kept for resends. */
function PayForm({ prizes, onPaid }: { prizes: PrizeClaim[]; onPaid: (paid: PaidClaim[]) => Promise<void> }) {
  const toast = useToast();
  // One key per prize for the life of the form: a resend after a lost answer pays once.
  const [keys] = useState(() => new Map<number, string>());
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(claimPayInputSchema),
    defaultValues: { claimerName: '', claimerIdNumber: '' },
  });
  const total = sumAmounts(prizes);

  const pay = handleSubmit(async (fields) => {
    setFailure(null);
    const input = {
      claimerName: fields.claimerName,
      ...(fields.claimerIdNumber ? { claimerIdNumber: fields.claimerIdNumber } : {}),
    };
    const done: PaidClaim[] = [];
    for (const prize of prizes) {
      let key = keys.get(prize.winnerId);
      if (!key) {
        key = newIdempotencyKey();
        keys.set(prize.winnerId, key);
      }
      try {
        done.push(await payClaim(prize.winnerId, input, key));
      } catch (error) {
        const named = error instanceof ApiError ? error.fieldErrors : undefined;
        if (named?.claimerName) setError('claimerName', { message: named.claimerName });
        if (named?.claimerIdNumber) setError('claimerIdNumber', { message: named.claimerIdNumber });
        const message = errorMessage(error, 'Failed to pay the prize');
        if (!named) setFailure(message);
        toast.error(`Error: ${message}`);
        break;
      }
    }
    if (done.length > 0) toast.success(`Paid ${money(sumAmounts(done.map((d) => d.claim)))}`);
    await onPaid(done);
  });

  return (
    <form className="mt-5 space-y-4 border-t border-slate-100 pt-4" onSubmit={(event) => void pay(event)} noValidate>
      <h3 className="text-sm font-semibold text-slate-900">Who collects the prize</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Claimer’s name"
          autoComplete="off"
          error={errors.claimerName?.message}
          {...register('claimerName')}
        />
        <TextField
          label="ID number (optional)"
          autoComplete="off"
          error={errors.claimerIdNumber?.message}
          {...register('claimerIdNumber')}
        />
      </div>
      <FormError message={failure} />
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Paying...' : `Pay ${money(total)} and print receipt`}
      </Button>
    </form>
  );
}
