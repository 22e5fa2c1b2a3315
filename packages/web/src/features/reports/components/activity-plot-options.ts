/** Which money figure the activity chart draws as its line. */
export type MoneyLine = 'pool' | 'commission';

/**
 * The chart's colours, each at least 3:1 against the white card (WCAG 1.4.11, graphics) and told
 * apart by shape too (bars and a line): indigo-500 bars, teal-700 pool, amber-700 commission.
 */
export const CHART_COLOURS = { games: '#6366f1', pool: '#0f766e', commission: '#b45309' } as const;
