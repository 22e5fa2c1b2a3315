import { maskName, maskPhone } from '@lot/domain/mask';
import type { Game, GameDraw, SlipPrint } from '@lot/domain/schemas/games';
import { claimStatusText, prizesPaidSoFar } from '../../../lib/claim-status.ts';
import { money } from '../../../lib/format.ts';
import { slipDateTime } from '../../../lib/print-format.ts';
import { groupInFours, voidedNotPaidText } from '../../../lib/game/draw-protocol.ts';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import { entryVerifyUrl, Row, SlipFrame, type SlipShop } from './slip-frame.tsx';

type Entry = Game['entries'][number];

/** A participant's entry slip: their number, large, and their name and phone masked. */
export function EntrySlip({
  game,
  entry,
  shop,
  width,
  base,
  print = null,
}: {
  game: Game;
  entry: Entry;
  shop: SlipShop;
  width: SlipWidth;
  base: string;
  print?: SlipPrint | null;
}) {
  return (
    <SlipFrame
      kind="Entry slip"
      game={game}
      shop={shop}
      width={width}
      print={print}
      testId="entry-slip"
      number={entry.number}
      base={base}
      qrUrl={entryVerifyUrl(base, game.code, entry.nonce)}
      proofNote={
        shop.log && (
          <>
            <p className="slip-log" data-testid="slip-log-origin">
              Game log: <span className="slip-log-name">{shop.log.origin}</span>
            </p>
            {/* Names a person compares character by character: one a line, in the address's type. */}
            {shop.log.witnesses.length > 0 ? (
              <div className="slip-log" data-testid="slip-witnesses">
                Freezes witnessed by
                <ul className="slip-log-names">
                  {shop.log.witnesses.map((name) => (
                    <li key={name} className="slip-log-name">
                      {name}
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p className="slip-log" data-testid="slip-witnesses">
                Freezes not witnessed
              </p>
            )}
          </>
        )
      }
    >
      <div className="slip-number">
        <span className="slip-number-label">Number</span>
        <span className="slip-number-value">{entry.number}</span>
      </div>
      <dl className="slip-rows">
        <Row label="Name">{maskName(entry.name)}</Row>
        <Row label="Phone">{maskPhone(entry.phoneNumber)}</Row>
        <Row label="Bet">{money(game.betAmount)}</Row>
        <Row label="Date">{slipDateTime(game.openedAt)}</Row>
        {entry.nonce && (
          <Row label="Entry code">
            <span className="slip-mono slip-nonce" data-testid="slip-nonce">
              {groupInFours(entry.nonce)}
            </span>
          </Row>
        )}
      </dl>
    </SlipFrame>
  );
}

/** The result slip of an ended game: each draw in order with its winner (masked) and prize, then the totals. */
export function ResultSlip({
  game,
  shop,
  width,
  base,
  print = null,
}: {
  game: Game;
  shop: SlipShop;
  width: SlipWidth;
  base: string;
  print?: SlipPrint | null;
}) {
  const settled = game.status === 'settled';
  const paid = settled ? prizesPaidSoFar(game.draws) : null;
  const notPaid = voidedNotPaidText(
    game.voidedBy && { role: game.voidedBy.role, name: maskName(game.voidedBy.fullName) },
    game.voidReason,
  );
  return (
    <SlipFrame kind="Result slip" game={game} shop={shop} width={width} base={base} print={print} testId="result-slip">
      <p className="slip-status" data-testid="slip-status">
        {settled ? 'Settled' : 'Voided'}
      </p>
      {!settled && game.voidReason && <p className="slip-reason">Reason: {game.voidReason}</p>}
      <ol className="slip-draws">
        {game.draws.map((draw) => {
          return (
            <li key={draw.position} className="slip-draw" data-testid="slip-draw">
              <DrawHead game={game} draw={draw} />
              {draw.winner ? (
                <span className="slip-draw-winner">
                  <span>
                    {maskName(draw.winner.name)} · {maskPhone(draw.winner.phoneNumber)}
                  </span>
                  <span className="slip-draw-prize">{settled ? money(draw.prizeAmount) : 'Not paid'}</span>
                </span>
              ) : (
                <span className="slip-draw-winner">No winner</span>
              )}
              {draw.claim && (
                <span className="slip-claim" data-testid="slip-claim">
                  {claimStatusText(draw.claim)}
                </span>
              )}
            </li>
          );
        })}
        {game.draws.length === 0 && game.unplayedDraws.length === 0 && (
          <li className="slip-draw">Nothing was drawn.</li>
        )}
        {game.unplayedDraws.map((draw) => {
          return (
            <li key={draw.position} className="slip-draw slip-draw-unplayed" data-testid="slip-unplayed">
              <DrawHead game={game} draw={draw} />
              <span className="slip-draw-winner">
                {draw.winner ? `${maskName(draw.winner.name)} · ${maskPhone(draw.winner.phoneNumber)}` : 'No winner'}
              </span>
              <span className="slip-not-paid">{notPaid}</span>
            </li>
          );
        })}
      </ol>
      <dl className="slip-rows slip-totals">
        <Row label="Pool">
          {money(game.pool)}
          {!settled && ' (returned)'}
        </Row>
        {settled && game.totalPrize !== null && <Row label="Prizes won">{money(game.totalPrize)}</Row>}
        {paid !== null && <Row label="Paid so far">{money(paid)}</Row>}
        {settled && game.commission !== null && <Row label="Commission">{money(game.commission)}</Row>}
        <Row label="Opened">{slipDateTime(game.openedAt)}</Row>
        {game.endedAt && <Row label="Ended">{slipDateTime(game.endedAt)}</Row>}
      </dl>
    </SlipFrame>
  );
}

/** A drawn (or unplayed) position's line: its place, its prize's name and the number. */
function DrawHead({ game, draw }: { game: Game; draw: GameDraw }) {
  const prize = game.prizes.find((p) => p.position === draw.position);
  return (
    <span className="slip-draw-head">
      <span>
        #{draw.position} {prize?.name}
      </span>
      <span className="slip-draw-number">{draw.number}</span>
    </span>
  );
}
