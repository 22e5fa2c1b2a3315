import type { CSSProperties } from 'react';
import type { GameDraw, GameProof } from '@lot/domain/schemas/games';
import { money } from '../../../lib/format.ts';
import { SPOTLIGHT_MS } from '../hooks/use-spotlight.ts';

/** The newest draw, large, over everything; then it settles into the grid and the list. */
export function Spotlight({ draw, proof }: { draw: GameDraw; proof: GameProof }) {
  const prize = proof.prizes.find((p) => p.position === draw.position);
  const style = { '--spotlight-ms': `${SPOTLIGHT_MS}ms` } as CSSProperties;
  return (
    <div
      data-testid="display-spotlight"
      data-number={draw.number}
      role="status"
      aria-live="assertive"
      style={style}
      className="display-spotlight-backdrop fixed inset-0 z-40 flex items-center justify-center bg-black/75 p-4"
    >
      <div className="display-spotlight-card flex flex-col items-center gap-4 text-center text-white sm:gap-6">
        <p className="text-2xl font-bold tracking-wide uppercase sm:text-4xl 2xl:text-5xl">
          Draw {draw.position} of {proof.prizes.length}
          {prize ? ` · ${prize.name}` : ''}
        </p>
        <p
          className={`flex min-w-[1.6em] items-center justify-center rounded-[0.2em] px-[0.15em] text-[min(42vh,55vw)] leading-[1.1] font-black tabular-nums shadow-2xl ${
            draw.winner ? 'bg-emerald-300 text-slate-950' : 'bg-yellow-300 text-slate-950'
          }`}
        >
          {draw.number}
        </p>
        <p className="text-3xl font-black sm:text-5xl 2xl:text-6xl">
          {draw.winner ? `${draw.winner.name} wins ${money(draw.prizeAmount)}` : 'No winner'}
        </p>
      </div>
    </div>
  );
}
