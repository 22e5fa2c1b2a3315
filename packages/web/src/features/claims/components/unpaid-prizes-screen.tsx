import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { dayRange } from '@lot/domain/dates';
import type { Role } from '@lot/domain/roles';
import type { PrizeClaim } from '@lot/domain/schemas/claims';
import { CLAIMS_PAGE_SIZE, claimsFilterQuery, useClaims, type ClaimStatusFilter } from '../api/get-claims.ts';
import { Button } from '../../../components/ui/button.tsx';
import { DataTable } from '../../../components/ui/data-table.tsx';
import { ExportButtons } from '../../../components/ui/export-buttons.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { Card, EmptyState, ErrorPanel, PageHeading, Spinner, StatCard } from '../../../components/ui/panels.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { count, money } from '../../../lib/format.ts';
import { useFilterPage } from '../../../lib/use-filter-page.ts';
import { useSlipWidth } from '../../../lib/slip-width.ts';
import { BeforeClaimsCard } from './before-claims-card.tsx';
import { claimColumns } from './claim-columns.tsx';
import { ApproveClaimDialog } from './approve-claim-dialog.tsx';
import { ExtendClaimDialog } from './extend-claim-dialog.tsx';
import { PayApprovedDialog } from './pay-approved-dialog.tsx';
import { useReceiptPrinter } from './receipt-print-sheet.tsx';

export type ShopOption = { id: number; name: string };

const STATUSES: { value: ClaimStatusFilter; label: string }[] = [
  { value: 'unpaid', label: 'Not paid yet' },
  { value: 'expired', label: 'Expired' },
  { value: 'paid', label: 'Paid' },
  { value: 'before_claims', label: 'Won before claims' },
  { value: 'paid_before_claims', label: 'Paid before claims' },
  { value: 'all', label: 'All' },
];

const statusOf = (value: string | null) => STATUSES.find((s) => s.value === value)?.value ?? 'unpaid';

const EMPTY: Record<ClaimStatusFilter, string> = {
  unpaid: 'No prize is waiting to be paid.',
  expired: 'No prize has expired.',
  paid: 'No prize has been paid.',
  before_claims: 'No prize from before claims is left to mark.',
  paid_before_claims: 'No prize from before claims has been marked paid.',
  all: 'No prizes yet.',
};

/**
 * docs/product/screens.md#unpaid-prizes (/{role}/unpaid-prizes): the prizes won in the caller's
 * scope (the server's), by status (not paid yet by default), shop and day won, with totals, a pager
 * and the export; the admin may extend an unpaid or expired claim, and mark the prizes won before
 * claims existed paid (decision 060).
 */
export function UnpaidPrizesScreen({
  role,
  shops,
  shopsFailed = false,
}: {
  role: Role;
  /** The shops to filter by: none for a shop itself. */
  shops: ShopOption[] | null;
  shopsFailed?: boolean;
}) {
  // The bell's notice of prizes from before claims opens the list on them (?status=before_claims).
  const [params] = useSearchParams();
  const [status, setStatus] = useState<ClaimStatusFilter>(() => statusOf(params.get('status')));
  const [userId, setUserId] = useState<number | null>(null);
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  // The row a dialog is open for: the admin's Extend or Approve payout, a shop's Pay (decision 086).
  const [acting, setActing] = useState<{ kind: 'extend' | 'approve' | 'pay'; claim: PrizeClaim } | null>(null);
  const [width] = useSlipWidth();
  const printer = useReceiptPrinter(width);
  const range = dayRange(startDate || undefined, endDate || undefined);
  const filter = { status, userId, ...range };
  const [page, setPage] = useFilterPage(JSON.stringify(filter));
  const claims = useClaims({ ...filter, page });
  const narrowed = status !== 'unpaid' || userId !== null || startDate !== '' || endDate !== '';

  return (
    <div className="space-y-6">
      <PageHeading title="Unpaid Prizes">
        Prizes won in your games and whether they have been collected. A prize not collected within the claim period
        expires.
      </PageHeading>

      <Card
        title="Filters"
        actions={
          <Button
            variant="secondary"
            disabled={!narrowed}
            onClick={() => {
              setStatus('unpaid');
              setUserId(null);
              setStartDate('');
              setEndDate('');
            }}
          >
            Reset All Filters
          </Button>
        }
      >
        <div className={`grid gap-4 sm:grid-cols-2 ${shops ? 'lg:grid-cols-4' : 'lg:grid-cols-3'}`}>
          <SelectField label="Status" value={status} onChange={(event) => setStatus(statusOf(event.target.value))}>
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </SelectField>
          {shops && (
            <SelectField
              label="Shop"
              value={userId ?? ''}
              onChange={(event) => setUserId(event.target.value ? Number(event.target.value) : null)}
            >
              <option value="">All shops</option>
              {shops.map((shop) => (
                <option key={shop.id} value={shop.id}>
                  {shop.name}
                </option>
              ))}
            </SelectField>
          )}
          <TextField
            label="Won from"
            type="date"
            value={startDate}
            max={endDate || undefined}
            onChange={(event) => setStartDate(event.target.value)}
          />
          <TextField
            label="Won until"
            type="date"
            value={endDate}
            min={startDate || undefined}
            onChange={(event) => setEndDate(event.target.value)}
          />
        </div>
        {shopsFailed && <p className="mt-3 text-sm text-rose-600">Failed to fetch shops</p>}
      </Card>

      <div className="grid grid-cols-2 gap-4">
        <StatCard
          label="Prizes"
          value={<span data-testid="claims-total-count">{claims.data ? count(claims.data.totals.count) : '—'}</span>}
        />
        <StatCard
          label="Amount"
          value={<span data-testid="claims-total-amount">{claims.data ? money(claims.data.totals.amount) : '—'}</span>}
        />
      </div>

      {role === 'admin' && status === 'before_claims' && claims.data && claims.data.totals.count > 0 && (
        <BeforeClaimsCard total={claims.data.totals.count} amount={claims.data.totals.amount} />
      )}

      <Card title="Prizes" actions={<ExportButtons path="/api/claims/export" query={claimsFilterQuery(filter)} />}>
        {claims.isPending ? (
          <Spinner />
        ) : claims.isError ? (
          <ErrorPanel
            message={errorMessage(claims.error, 'Failed to load the prizes')}
            onRetry={() => void claims.refetch()}
          />
        ) : claims.data.items.length === 0 ? (
          <EmptyState message={EMPTY[status]} />
        ) : (
          <div className="space-y-4">
            <DataTable
              rows={claims.data.items}
              columns={claimColumns(role, {
                onExtend: (claim) => setActing({ kind: 'extend', claim }),
                onApprove: (claim) => setActing({ kind: 'approve', claim }),
                onPay: (claim) => setActing({ kind: 'pay', claim }),
              })}
              rowKey={(claim) => claim.winnerId}
              rowTestId="claim-row"
              rowData={(claim) => ({ 'data-status': claim.status })}
              // On a phone a card: game and amount; shop and prize; status; the dates; the action.
              rowClassName="grid grid-cols-2 items-center gap-x-3 gap-y-1.5 bg-white md:hover:bg-slate-50"
              cellClassName="md:px-3 md:py-3"
              minWidth="md:min-w-[760px]"
            />
            <Pagination page={page} pageSize={CLAIMS_PAGE_SIZE} total={claims.data.total} onPage={setPage} />
          </div>
        )}
      </Card>

      {acting?.kind === 'extend' && <ExtendClaimDialog claim={acting.claim} onClose={() => setActing(null)} />}
      {acting?.kind === 'approve' && <ApproveClaimDialog claim={acting.claim} onClose={() => setActing(null)} />}
      {acting?.kind === 'pay' && (
        <PayApprovedDialog
          claim={acting.claim}
          onClose={() => setActing(null)}
          onPaid={(paid) => printer.print([paid])}
        />
      )}
      {printer.sheet}
    </div>
  );
}
