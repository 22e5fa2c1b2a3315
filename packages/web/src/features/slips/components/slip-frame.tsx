import type { ReactNode } from 'react';
import { commitmentFingerprint } from '@lot/domain/draw';
import { gameTitle } from '@lot/domain/game';
import type { Game, SlipPrint } from '@lot/domain/schemas/games';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { copyText } from '../../../lib/print-format.ts';
import { proofLink } from '../../../lib/public-url.ts';
import { protocolText } from '../../../lib/game/draw-protocol.ts';
import type { SlipWidth } from '../../../lib/slip-width.ts';
import './slip.css';

/** Who printed the slip: the shop's name (its full name without one) and its logo, when it has one. */
export type SlipShop = {
  name: string;
  logoUrl: string | null;
  /**
   * The game log the shop's games go into and the witnesses of their freezes (GET /api/log), as an
   * entry slip prints them (docs/lot-draw-2.md#checking-the-game-log); null while not known.
   */
  log?: { origin: string; witnesses: string[] } | null;
};

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
export function SlipFrame({
  kind,
  game,
  shop,
  width,
  print,
  testId,
  number,
  base,
  qrUrl = proofLink(base, game.code),
  proofNote = null,
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
  /** Beside the QR code, under the address: an entry slip's game log and witnesses. */
  proofNote?: ReactNode;
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
          {proofNote}
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

export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="slip-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
