import type { ReactNode } from 'react';
import { receiptNumber } from '@lot/domain/game';
import type { PayoutReceipt as Receipt } from '@lot/domain/schemas/claims';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { money } from '../../../lib/format.ts';
import { copyText, slipDateTime } from '../../../lib/print-format.ts';
import { proofLink } from '../../../lib/public-url.ts';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import './payout-receipt.css';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="receipt-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/**
 * A payout receipt (docs/product/money.md#prize-claims): which prize of which game was paid, to
 * whom, where and when, and a QR code to the game's proof. Black on white, in millimetres for the
 * shop's slip paper; the print after the first says COPY.
 */
export function PayoutReceipt({
  receipt,
  width,
  printCount,
  copy,
  base,
}: {
  receipt: Receipt;
  width: SlipWidth;
  printCount: number;
  copy: boolean;
  /** The public base of the proof link (lib/public-url.ts). */
  base: string;
}) {
  const { claim, game, winner } = receipt;
  const url = proofLink(base, game.code);
  return (
    <article className="receipt" data-width={width} data-testid="payout-receipt" aria-label="Payout receipt">
      <p className="receipt-shop">{claim.paidAtShop ?? game.shopName}</p>
      <p className="receipt-title">BOCH BOCH · Payout receipt</p>
      {copy && (
        <p className="receipt-copy" data-testid="receipt-copy">
          {copyText(printCount)}
        </p>
      )}
      <dl className="receipt-rows">
        <Row label="Receipt no.">
          <span className="receipt-mono" data-testid="receipt-number">
            {receiptNumber(claim.winnerId)}
          </span>
        </Row>
        <Row label="Game">
          {game.number !== null && `#${game.number} · `}
          <span className="receipt-mono">{game.code}</span>
        </Row>
        <Row label="Shop">{game.shopName}</Row>
        {game.settledAt && <Row label="Drawn">{slipDateTime(game.settledAt)}</Row>}
        <Row label="Prize">
          #{claim.position} {claim.prizeName}
        </Row>
        <Row label="Number">{claim.number}</Row>
        <Row label="Winner">
          {winner.name} · {winner.phoneNumber}
        </Row>
      </dl>
      <p className="receipt-amount">
        <span>Paid</span>
        <span data-testid="receipt-amount">{money(claim.amount)}</span>
      </p>
      <dl className="receipt-rows">
        <Row label="Paid to">{claim.claimerName}</Row>
        {claim.claimerIdNumber && <Row label="ID number">{claim.claimerIdNumber}</Row>}
        {claim.paidAt && <Row label="Paid on">{slipDateTime(claim.paidAt)}</Row>}
        {claim.paidAtShop && <Row label="Paid at">{claim.paidAtShop}</Row>}
      </dl>
      <p className="receipt-sign">Claimer’s signature</p>
      <div className="receipt-proof">
        <QrCode value={url} label={`QR code: ${url}`} className="receipt-qr" />
        <p className="receipt-proof-text">Scan to check this game</p>
        <p className="receipt-url">{url}</p>
      </div>
    </article>
  );
}
