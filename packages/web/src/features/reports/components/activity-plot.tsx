import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ActivityDay } from '@lot/domain/schemas/reports';
import { decimalToCents } from '@lot/domain/money';
import { count, money } from '../../../lib/format.ts';
import { formatDay } from '../../../lib/periods.ts';
import { CHART_COLOURS, type MoneyLine } from './activity-plot-options.ts';

const HEIGHT = 240;
const AXIS = '#475569';
const FONT = '11px ui-sans-serif, system-ui, sans-serif';

/** `$1.2k`: a money scale's tick, short enough for a phone. */
function compactDollars(value: number): string {
  if (value >= 1_000_000) return `$${(value / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (value >= 1_000) return `$${(value / 1_000).toFixed(1).replace(/\.0$/, '')}k`;
  return `$${Math.round(value)}`;
}

const dayTick = (day: string) => formatDay(day).replace(/, \d{4}$/, '');

function options(width: number, days: ActivityDay[], line: MoneyLine, onHover: (index: number | null) => void) {
  const phone = width < 480;
  const options: uPlot.Options = {
    width,
    height: HEIGHT,
    padding: [12, 4, 0, 4],
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      x: { time: false, range: (_plot, min, max) => [min - 0.5, max + 0.5] },
      games: { range: (_plot, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
      money: { range: (_plot, _min, max) => [0, Math.max(10, max * 1.15)] },
    },
    axes: [
      {
        stroke: AXIS,
        font: FONT,
        size: 28,
        space: phone ? 48 : 64,
        grid: { show: false },
        ticks: { show: false },
        values: (_plot, splits) =>
          splits.map((index) => (Number.isInteger(index) && days[index] ? dayTick(days[index].date) : '')),
      },
      {
        scale: 'games',
        stroke: AXIS,
        font: FONT,
        size: 36,
        grid: { stroke: '#e2e8f0', width: 1 },
        ticks: { show: false },
        values: (_plot, splits) => splits.map((value) => (Number.isInteger(value) ? String(value) : '')),
      },
      {
        scale: 'money',
        side: 1,
        stroke: AXIS,
        font: FONT,
        size: phone ? 44 : 56,
        grid: { show: false },
        ticks: { show: false },
        values: (_plot, splits) => splits.map(compactDollars),
      },
    ],
    series: [
      {},
      {
        label: 'Games',
        scale: 'games',
        fill: CHART_COLOURS.games,
        stroke: CHART_COLOURS.games,
        paths: uPlot.paths.bars?.({ size: [0.7, 28] }),
        points: { show: false },
      },
      {
        label: line === 'pool' ? 'Pool' : 'Commission',
        scale: 'money',
        stroke: CHART_COLOURS[line],
        width: 2,
        points: { show: !phone && days.length <= 31, size: 5, fill: CHART_COLOURS[line] },
      },
    ],
    hooks: { setCursor: [(plot) => onHover(plot.cursor.idx ?? null)] },
  };
  return options;
}

/**
 * The drawing of the activity chart (uPlot on a canvas, decision 021): one bar of games per day on
 * the left scale, the pool or commission as a line on the right one, as wide as its box. Hovering a
 * day shows its figures above the drawing; the same figures are in the chart's table.
 */
export function ActivityPlot({ days, line, label }: { days: ActivityDay[]; line: MoneyLine; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<number | null>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      days.map((_day, index) => index),
      // A day without games has no bar (not a flat one on the axis).
      days.map((day) => (day.games > 0 ? day.games : null)),
      days.map((day) => decimalToCents(day[line]) / 100),
    ];
    const width = () => Math.max(element.clientWidth, 240);
    const plot = new uPlot(options(width(), days, line, setHovered), data, element);
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [days, line]);

  const day = hovered === null ? undefined : days[hovered];
  return (
    <div>
      <p className="h-5 text-xs text-slate-700 tabular-nums" aria-hidden="true">
        {day
          ? `${formatDay(day.date)}: ${count(day.games)} games, pool ${money(day.pool)}, commission ${money(day.commission)}`
          : 'Point at or tap a day to read its figures.'}
      </p>
      <div ref={box} role="img" aria-label={label} data-testid="activity-plot" className="w-full" />
    </div>
  );
}
