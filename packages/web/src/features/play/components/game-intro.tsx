import { Link } from 'react-router';
import { Dices, Play, X } from 'lucide-react';

/** The game's intro (docs/product/screens.md#game-intro): the title, Play Now, and a close icon back to the dashboard. */
export function GameIntro() {
  return (
    <section className="relative mx-auto max-w-3xl overflow-hidden rounded-3xl bg-blue-950 px-6 py-12 text-center text-white shadow-xl sm:px-12 sm:py-16">
      <Link
        to="/user/dashboard"
        aria-label="Close"
        className="absolute top-4 right-4 rounded-full p-2 text-white/80 hover:bg-white/10 hover:text-white"
      >
        <X className="h-6 w-6" aria-hidden="true" />
      </Link>
      <Dices className="mx-auto h-16 w-16 text-yellow-300" aria-hidden="true" />
      <h1 className="mt-4 text-4xl font-black tracking-[0.25em] sm:text-6xl">BOCH BOCH</h1>
      <p className="mx-auto mt-4 max-w-xl text-lg text-white/85">
        The number game for your shop. Each participant picks a number, you draw the winners one by one, and the game is
        saved to your Game History with its prizes and commission.
      </p>
      <ol className="mx-auto mt-8 grid max-w-xl gap-3 text-left sm:grid-cols-3">
        {['Set the range and the bet', 'Add a participant per number', 'Check Winner for each prize'].map(
          (step, index) => (
            <li key={step} className="rounded-2xl bg-white/10 p-4 ring-1 ring-white/15">
              <span className="block text-2xl font-black text-yellow-300">{index + 1}</span>
              <span className="text-sm font-medium">{step}</span>
            </li>
          ),
        )}
      </ol>
      <Link
        to="/user/number-game/play"
        className="mt-10 inline-flex items-center gap-3 rounded-2xl bg-yellow-300 px-10 py-4 text-2xl font-black text-slate-900 shadow-lg hover:bg-yellow-200 focus-visible:outline-4 focus-visible:outline-offset-4 focus-visible:outline-yellow-300"
      >
        <Play className="h-7 w-7" aria-hidden="true" />
        Play Now
      </Link>
    </section>
  );
}
