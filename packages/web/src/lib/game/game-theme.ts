import { STORAGE_KEYS } from '../storage.ts';

export const THEMES = ['white', 'green', 'blue', 'orange'] as const;
export type ThemeName = (typeof THEMES)[number];
export const DEFAULT_THEME: ThemeName = 'blue';

/**
 * The play screen's colours per theme, chosen for a shop's big display: large light numbers on a
 * deep background (or dark on white), every pairing at least 4.5:1, and the four tile states
 * (free, chosen, drawn with a winner, drawn without) told apart by more than colour alone.
 */
export type GameTheme = {
  label: string;
  swatch: string;
  page: string;
  panel: string;
  muted: string;
  input: string;
  tile: string;
  tileSelected: string;
  tileWinner: string;
  tileDrawn: string;
  primary: string;
  secondary: string;
  accent: string;
};

const dark = {
  panel: 'bg-black/25 ring-1 ring-white/15',
  muted: 'text-white/80',
  input:
    'bg-white text-slate-900 ring-2 ring-white/40 focus:ring-4 focus:ring-yellow-300 disabled:bg-white/60 disabled:text-slate-600',
  tile: 'bg-white/10 text-white ring-1 ring-white/25 hover:bg-white/20',
  tileSelected: 'bg-yellow-300 text-slate-900 ring-4 ring-yellow-100',
  tileWinner: 'bg-emerald-300 text-slate-900 ring-4 ring-white',
  tileDrawn: 'bg-slate-900/60 text-white/80 ring-2 ring-white/40 line-through',
  secondary: 'bg-white/10 text-white ring-1 ring-white/40 hover:bg-white/20',
  accent: 'text-yellow-300',
};

export const GAME_THEMES: Record<ThemeName, GameTheme> = {
  white: {
    label: 'White',
    swatch: 'bg-white',
    page: 'bg-slate-100 text-slate-900',
    panel: 'bg-white ring-1 ring-slate-200 shadow-sm',
    muted: 'text-slate-600',
    input:
      'bg-white text-slate-900 ring-2 ring-slate-300 focus:ring-4 focus:ring-indigo-500 disabled:bg-slate-100 disabled:text-slate-500',
    tile: 'bg-white text-slate-900 ring-2 ring-slate-300 hover:bg-indigo-50',
    tileSelected: 'bg-indigo-700 text-white ring-4 ring-indigo-300',
    tileWinner: 'bg-emerald-700 text-white ring-4 ring-emerald-300',
    tileDrawn: 'bg-slate-300 text-slate-700 ring-2 ring-slate-400 line-through',
    primary: 'bg-indigo-700 text-white hover:bg-indigo-800',
    secondary: 'bg-white text-slate-800 ring-2 ring-slate-300 hover:bg-slate-50',
    accent: 'text-indigo-700',
  },
  green: {
    label: 'Green',
    swatch: 'bg-emerald-800',
    page: 'bg-emerald-900 text-white',
    primary: 'bg-yellow-300 text-slate-900 hover:bg-yellow-200',
    ...dark,
  },
  blue: {
    label: 'Blue',
    swatch: 'bg-blue-800',
    page: 'bg-blue-950 text-white',
    primary: 'bg-yellow-300 text-slate-900 hover:bg-yellow-200',
    ...dark,
  },
  orange: {
    label: 'Orange',
    swatch: 'bg-orange-600',
    page: 'bg-orange-800 text-white',
    primary: 'bg-white text-orange-900 hover:bg-orange-50',
    ...dark,
  },
};

export function loadTheme(): ThemeName {
  const stored = localStorage.getItem(STORAGE_KEYS.gameTheme);
  return (THEMES as readonly string[]).includes(stored ?? '') ? (stored as ThemeName) : DEFAULT_THEME;
}

export function saveTheme(theme: ThemeName) {
  localStorage.setItem(STORAGE_KEYS.gameTheme, theme);
}
