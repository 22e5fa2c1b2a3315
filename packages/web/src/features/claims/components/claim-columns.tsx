import type { Role } from '@lot/domain/roles';
import type { PrizeClaim } from '@lot/domain/schemas/claims';
import { Button } from '../../../components/ui/button.tsx';
import type { Column } from '../../../components/ui/data-table.tsx';
import { claimStatusText } from '../../../lib/claim-status.ts';
import { dateTime, money } from '../../../lib/format.ts';

const STATUS_TONE: Record<PrizeClaim['status'], string> = {
  unpaid: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  paid: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  expired: 'bg-rose-50 text-rose-700 ring-rose-600/20',
  before_claims: 'bg-slate-50 text-slate-700 ring-slate-500/20',
  paid_before_claims: 'bg-slate-50 text-slate-700 ring-slate-500/20',
};

/** A prize that can no longer become payable: paid, or won before claims existed (decision 060). */
const settled = (claim: PrizeClaim) =>
  claim.status === 'paid' || claim.status === 'before_claims' || claim.status === 'paid_before_claims';

/** What a row's buttons open: the admin's Extend and Approve payout, a shop's Pay (decision 086). */
export type ClaimActions = {
  onExtend: (claim: PrizeClaim) => void;
  onApprove: (claim: PrizeClaim) => void;
  onPay: (claim: PrizeClaim) => void;
};

/** A prize whose entry has no entry code, not paid yet: paid only through the admin's approval. */
const needsApproval = (claim: PrizeClaim) => !claim.hasEntryCode && claim.status === 'unpaid';

/**
 * The prizes table's columns (docs/product/screens.md#unpaid-prizes): the shop only for the upline;
 * the admin's Extend (and Approve payout for an entry without a code); a shop's Pay for a prize the
 * admin approved (found by no slip).
 */
export function claimColumns(role: Role, actions: ClaimActions): Column<PrizeClaim>[] {
  const list: Column<PrizeClaim>[] = [
    {
      key: 'game',
      header: 'Game',
      className: 'order-1 font-medium text-slate-900',
      render: (claim) => (
        <>
          {claim.gameNumber === null ? 'Game' : `#${claim.gameNumber}`}
          <a
            href={`/verify/${claim.gameCode}`}
            title={`Verify game ${claim.gameCode}`}
            className="block max-w-36 truncate font-mono text-xs font-normal text-indigo-600 hover:underline"
          >
            {claim.gameCode}
          </a>
        </>
      ),
    },
    ...(role === 'user'
      ? []
      : [
          {
            key: 'shop',
            header: 'Shop',
            label: 'Shop',
            className: 'order-3 truncate text-slate-700',
            render: (claim: PrizeClaim) => claim.shopName,
          },
        ]),
    {
      key: 'prize',
      header: 'Prize',
      label: 'Prize',
      className: 'order-4 col-span-2 text-slate-700 md:col-span-1',
      render: (claim) => `#${claim.position} ${claim.prizeName} · ${claim.number}`,
    },
    {
      key: 'amount',
      header: 'Amount',
      align: 'right',
      className: 'order-2 text-right font-semibold text-slate-900 tabular-nums',
      render: (claim) => money(claim.amount),
    },
    {
      key: 'status',
      header: 'Status',
      label: 'Status',
      className: 'order-5 col-span-2',
      render: (claim) => (
        <span
          data-testid="claim-row-status"
          className={`inline-block rounded-md px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS_TONE[claim.status]}`}
        >
          {claimStatusText({ ...claim, shopName: claim.paidAtShop })}
        </span>
      ),
    },
    {
      key: 'expires',
      header: 'Collect by',
      label: 'Collect by',
      className: 'order-7 col-span-2 text-xs text-slate-600 md:col-span-1 md:text-sm',
      render: (claim) => (settled(claim) ? '—' : <time dateTime={claim.expiresAt}>{dateTime(claim.expiresAt)}</time>),
    },
  ];
  if (role === 'admin') {
    list.push({
      key: 'actions',
      header: 'Actions',
      hiddenHeader: true,
      className: 'order-8 col-span-2 md:text-right',
      render: (claim) =>
        settled(claim) ? null : (
          <span className="inline-flex flex-wrap gap-2">
            {needsApproval(claim) && (
              <Button variant="secondary" className="px-3 py-1" onClick={() => actions.onApprove(claim)}>
                {claim.approvedAt ? 'Approve again' : 'Approve payout'}
              </Button>
            )}
            <Button variant="secondary" className="px-3 py-1" onClick={() => actions.onExtend(claim)}>
              Extend
            </Button>
          </span>
        ),
    });
  }
  if (role === 'user') {
    list.push({
      key: 'actions',
      header: 'Actions',
      hiddenHeader: true,
      className: 'order-8 col-span-2 md:text-right',
      // A prize found by no slip: Pay once the admin approved it, else the server's reason.
      render: (claim) =>
        claim.mayPay && !claim.hasEntryCode ? (
          <Button variant="secondary" className="px-3 py-1" onClick={() => actions.onPay(claim)}>
            Pay
          </Button>
        ) : needsApproval(claim) && claim.refusal ? (
          <span className="text-xs text-slate-600" data-testid="claim-row-refusal">
            {claim.refusal}
          </span>
        ) : null,
    });
  }
  return list;
}
