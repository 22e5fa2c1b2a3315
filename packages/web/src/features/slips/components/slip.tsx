import type { ReactNode } from 'react';
import { commitmentFingerprint } from '@lot/domain/draw';
import { gameTitle } from '@lot/domain/game';
import { maskName, maskPhone } from '@lot/domain/mask';
import type { Game, GameDraw, SlipPrint } from '@lot/domain/schemas/games';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { claimStatusText } from '../../../lib/claim-status.ts';
import { money } from '../../../lib/format.ts';
import { copyText, slipDateTime } from '../../../lib/print-format.ts';
import { proofLink } from '../../../lib/public-url.ts';
import { groupInFours, protocolText, voidedNotPaidText } from '../../../lib/game/draw-protocol.ts';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import './slip.css';

/** Who printed the slip: the shop's name (its full name without one) and its logo, when it has one. */
export type SlipShop = { name: string; logoUrl: string | null };

type Entry = Game['entries'][number];

/**
 * An entry slip's QR code: the proof, with the person's nonce in the fragment (`#n=…`), which a
 * browser never sends to a server, so it stays out of every log; the proof page reads it to find
 * the person's numbers.
 */
export const entryVerifyUrl = (base: string, code: string, nonce: string | null) =>
  nonce ? `${proofLink(base, code)}#n=${nonce}` : proofLink(base, code);

/**
 * One slip as it prints (docs/product/game.md#slips): black on white, sized in millimetres for the
 * paper (slip.css). `print` is the server's answer to this print; a print after the first is a COPY.
 */
function SlipFrame({
  kind,
  game,
  shop,
  width,
  print,
  testId,
  number,
  base,
  qrUrl = proofLink(base, game.code),
  children,
}: {
  kind: 'Entry slip' | 'Result slip';
  game: Game;
  /** The public base of the links (lib/public-url.ts). */
  base: string;
  shop: SlipShop;
  width: SlipWidth;
  print: SlipPrint | null;
  testId: string;
  number?: number;
  /** What the QR code opens: the proof (an entry slip's carries its person's nonce). */
  qrUrl?: string;
  children: ReactNode;
}) {
  const url = proofLink(base, game.code);
  return (
    <article
      className="slip"
      data-width={width}
      data-testid={testId}
      data-number={number}
      aria-label={number === undefined ? kind : `${kind} ${number}`}
    >
      <header className="slip-shop">
        {shop.logoUrl && <img src={shop.logoUrl} alt="" className="slip-logo" />}
        <p className="slip-shop-name">{shop.name}</p>
      </header>
      <p className="slip-title">BOCH BOCH · {kind}</p>
      <p className="slip-game" data-testid="slip-game-number">
        {gameTitle(game.number)}
      </p>
      {print?.copy && (
        <p className="slip-copy" data-testid="slip-copy">
          {copyText(print.printCount)}
        </p>
      )}
      <dl className="slip-rows">
        <Row label="Code">
          <span className="slip-mono">{game.code}</span>
        </Row>
        <Row label="Seed">
          <span className="slip-mono">{commitmentFingerprint(game.commitment)}</span>
        </Row>
      </dl>
      <Protocol game={game} />
      {children}
      <div className="slip-proof" data-qr={qrUrl}>
        <QrCode value={qrUrl} label={`QR code: ${qrUrl}`} className="slip-qr" />
        <div className="slip-proof-text-block">
          <p className="slip-proof-text">Scan to check this game</p>
          <p className="slip-url">{url}</p>
        </div>
      </div>
    </article>
  );
}

/**
 * How the game is drawn: LOT-DRAW-2 and its drand round once the draw started; LOT-DRAW-1 with its
 * warning, boxed, word for word.
 */
function Protocol({ game }: { game: Game }) {
  const text = protocolText(game.protocol, game.beacon);
  return (
    <p
      className={game.protocol === 'LOT-DRAW-2' ? 'slip-protocol' : 'slip-protocol slip-protocol-warning'}
      data-testid="slip-protocol"
      data-protocol={game.protocol}
    >
      <span className="slip-protocol-name">{game.protocol}</span> {text}
    </p>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="slip-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

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
        {settled && game.totalPrize !== null && <Row label="Prizes paid">{money(game.totalPrize)}</Row>}
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
