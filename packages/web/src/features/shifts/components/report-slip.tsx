import type { ReactNode } from 'react';
import type { ShiftReport } from '@lot/domain/schemas/shifts';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import { count, money } from '../../../lib/format.ts';
import { slipDateTime } from '../../../lib/print-format.ts';
import {
  entriesText,
  GAME_STATUS,
  movementAmount,
  movementDetail,
  movementTitle,
  reportTitle,
  takeBackDetail,
} from './report-text.ts';
import { varianceText } from './variance.tsx';
import { decimalToCents } from '@lot/domain/money';
import { shortDigest } from '@lot/domain/digest';
import './report-slip.css';

function Row({ label, children, strong = false }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className={`report-slip-row${strong ? ' report-slip-strong' : ''}`}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Part({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  return (
    <section className="report-slip-part">
      <h4 className="report-slip-part-title">{title}</h4>
      {empty ? <p className="report-slip-none">None</p> : <ul className="report-slip-lines">{children}</ul>}
    </section>
  );
}

function Line({ left, right, detail }: { left: ReactNode; right: ReactNode; detail?: ReactNode }) {
  return (
    <li className="report-slip-line">
      <span className="report-slip-line-head">
        <span>{left}</span>
        <span className="report-slip-amount">{right}</span>
      </span>
      {detail && <span className="report-slip-detail">{detail}</span>}
    </li>
  );
}

/**
 * A shift's X or Z report as it prints (docs/product/screens.md#printing-a-shift-report): black on white, sized in
 * millimetres for the shop's slip paper, the same 58 mm / 80 mm rolls and A4 sheet as the game's
 * slips. `printedAt` is the moment of this print.
 */
export function ReportSlip({ report, width, printedAt }: { report: ShiftReport; width: SlipWidth; printedAt: Date }) {
  const { shift, totals } = report;
  const title = reportTitle(report);
  return (
    <article className="report-slip" data-width={width} data-testid="report-slip" aria-label={title}>
      <p className="report-slip-shop">{shift.shopName}</p>
      <p className="report-slip-title">{title}</p>
      {report.kind === 'X' && <p className="report-slip-note">Shift still open: not a closing report</p>}
      <dl className="report-slip-rows">
        <Row label="Opened">{slipDateTime(shift.openedAt)}</Row>
        <Row label="By">{shift.openedBy}</Row>
        {shift.closedAt && <Row label="Closed">{slipDateTime(shift.closedAt)}</Row>}
        {shift.closedBy && <Row label="By">{shift.closedBy}</Row>}
      </dl>
      <dl className="report-slip-rows report-slip-cash">
        <Row label="Opening float">{money(shift.openingFloat)}</Row>
        <Row label="+ Bets collected">{money(totals.betsCollected)}</Row>
        <Row label="− Prizes paid">{money(totals.prizesPaid)}</Row>
        {totals.pickups !== undefined && (
          <>
            <Row label="+ Paid in">{money(totals.paidIn ?? '0')}</Row>
            <Row label="− Pickups">{money(totals.pickups)}</Row>
            <Row label="− Drops">{money(totals.drops ?? '0')}</Row>
            <Row label="− Paid out">{money(totals.paidOut ?? '0')}</Row>
          </>
        )}
        <Row label="= Expected cash" strong>
          {money(report.expectedCash)}
        </Row>
        {report.kind === 'Z' && report.countedCash !== null && (
          <>
            <Row label="Counted cash" strong>
              {money(report.countedCash)}
            </Row>
            <Row label="Difference" strong>
              {report.variance === null ? '—' : varianceText(decimalToCents(report.variance))}
            </Row>
          </>
        )}
      </dl>
      {shift.varianceReason && <p className="report-slip-reason">Reason: {shift.varianceReason}</p>}
      <dl className="report-slip-rows">
        <Row label="Games">{count(totals.games)}</Row>
        <Row label="Voided games">{count(totals.voidedGames)}</Row>
        <Row label="Unpaid prizes">{money(totals.unpaidPrizes)}</Row>
        <Row label="Taken back">{money(totals.takenBack)}</Row>
      </dl>
      <Part title="Games" empty={report.games.length === 0}>
        {report.games.map((game) => (
          <Line
            key={game.gameId}
            left={`#${game.number} ${GAME_STATUS[game.status]}`}
            right={game.status === 'voided' ? `(${money(game.pool)})` : money(game.pool)}
            detail={`${entriesText(game.entries)} · ${game.code}`}
          />
        ))}
      </Part>
      <Part title="Prizes paid" empty={report.prizesPaid.length === 0}>
        {report.prizesPaid.map((prize) => (
          <Line
            key={prize.winnerId}
            left={`#${prize.gameNumber} pos. ${prize.position}`}
            right={money(prize.amount)}
            detail={prize.claimerName}
          />
        ))}
      </Part>
      <Part title="Unpaid prizes" empty={report.unpaidPrizes.length === 0}>
        {report.unpaidPrizes.map((prize) => (
          <Line
            key={prize.winnerId}
            left={`#${prize.gameNumber} pos. ${prize.position}`}
            right={money(prize.amount)}
            detail={`until ${slipDateTime(prize.expiresAt)}`}
          />
        ))}
      </Part>
      {report.refunds && (
        <Part title="Bets refunded" empty={report.refunds.length === 0}>
          {report.refunds.map((refund) => (
            <Line
              key={refund.gameId}
              left={`#${refund.number} voided ${slipDateTime(refund.at)}`}
              right={money(refund.amount)}
              detail={`${refund.code} · handed back, not counted`}
            />
          ))}
        </Part>
      )}
      {report.movements && (
        <Part title="Cash movements" empty={report.movements.length === 0}>
          {report.movements.map((movement) => (
            <Line
              key={movement.id}
              left={`${movementTitle(movement)} ${slipDateTime(movement.at)}`}
              right={movementAmount(movement)}
              detail={movementDetail(movement)}
            />
          ))}
        </Part>
      )}
      <Part title="Take-backs" empty={report.takeBacks.length === 0}>
        {report.takeBacks.map((takeBack) => (
          <Line key={takeBack.id} left={takeBack.by} right={money(takeBack.amount)} detail={takeBackDetail(takeBack)} />
        ))}
      </Part>
      {report.kind === 'Z' && report.auditCheckpoint !== undefined && (
        // The latest signed checkpoint of the audit trail at the close (decision 045): the paper is a witness.
        <p className="report-slip-checkpoint" data-testid="report-slip-checkpoint">
          {report.auditCheckpoint === null
            ? 'Audit checkpoint: none yet'
            : `Audit checkpoint ${shortDigest(report.auditCheckpoint.digest)} of ${slipDateTime(report.auditCheckpoint.madeAt)}`}
        </p>
      )}
      <p className="report-slip-footer">Printed {slipDateTime(printedAt)}</p>
    </article>
  );
}
