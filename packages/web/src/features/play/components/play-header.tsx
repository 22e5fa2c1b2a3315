import { Link } from 'react-router';
import { Volume2, X } from 'lucide-react';
import { formatMoney, type Cents } from '@lot/domain/money';
import type { SessionUser } from '@lot/domain/schemas/auth';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { FullscreenToggle } from '../../../components/game/fullscreen-toggle.tsx';
import { GAME_THEMES, THEMES, type GameTheme, type ThemeName } from '../../../lib/game/game-theme.ts';

function ThemePicker({
  value,
  onChange,
  theme,
}: {
  value: ThemeName;
  onChange: (t: ThemeName) => void;
  theme: GameTheme;
}) {
  return (
    <div role="radiogroup" aria-label="Theme" className={`flex items-center gap-1.5 rounded-full p-1.5 ${theme.panel}`}>
      {THEMES.map((name) => (
        <button
          key={name}
          type="button"
          role="radio"
          aria-checked={value === name}
          aria-label={GAME_THEMES[name].label}
          title={GAME_THEMES[name].label}
          onClick={() => onChange(name)}
          className={`h-7 w-7 rounded-full ring-2 ring-offset-2 ring-offset-transparent ${GAME_THEMES[name].swatch} ${
            value === name ? 'ring-yellow-300' : 'ring-white/50'
          }`}
        />
      ))}
    </div>
  );
}

/** The play screen's top: the shop, BOCH BOCH, the balance, Numbers Left, the theme, fullscreen and the way out. */
export function PlayHeader({
  user,
  balanceCents,
  themeName,
  theme,
  onTheme,
  onNumbersLeft,
}: {
  user: SessionUser;
  balanceCents: Cents | null;
  themeName: ThemeName;
  theme: GameTheme;
  onTheme: (name: ThemeName) => void;
  onNumbersLeft: () => void;
}) {
  const name = user.shopName?.trim() || user.fullName;
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6 sm:py-4">
      <div className="flex min-w-0 items-center gap-3">
        <Avatar userId={user.id} fullName={user.fullName} hasLogo={user.hasLogo} size="lg" />
        <div className="min-w-0">
          <p data-testid="game-shop-name" className="truncate text-xl font-bold sm:text-3xl">
            {name}
          </p>
          {name !== user.fullName && <p className={`truncate text-sm sm:text-base ${theme.muted}`}>{user.fullName}</p>}
        </div>
      </div>
      <h1 className="order-first w-full text-center text-2xl font-black tracking-[0.3em] sm:order-none sm:mx-auto sm:w-auto sm:text-4xl xl:text-5xl">
        BOCH BOCH
      </h1>
      <div className="flex flex-wrap items-center gap-2 sm:gap-3">
        <p className={`rounded-xl px-3 py-1.5 ${theme.panel}`}>
          <span className={`block text-xs font-semibold uppercase ${theme.muted}`}>Balance</span>
          <span data-testid="game-balance" className="text-lg font-bold tabular-nums sm:text-xl">
            {balanceCents === null ? '…' : formatMoney(balanceCents)}
          </span>
        </p>
        <button
          type="button"
          onClick={onNumbersLeft}
          className={`inline-flex items-center gap-2 rounded-xl px-4 py-2.5 font-semibold ${theme.secondary}`}
        >
          <Volume2 className="h-5 w-5" aria-hidden="true" />
          Numbers Left
        </button>
        <ThemePicker value={themeName} onChange={onTheme} theme={theme} />
        <FullscreenToggle theme={theme} />
        <Link to="/user/number-game" aria-label="Leave the game" className={`rounded-xl p-2.5 ${theme.secondary}`}>
          <X className="h-6 w-6" aria-hidden="true" />
        </Link>
      </div>
    </header>
  );
}
