import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css' with { type: 'text' };
import { costText, usd } from '../ui/usage-text.js';
import type { Stacked } from './series.js';

// Cost per day as stacked bars, drawn by uPlot. uPlot has no stacking of its own: each part is
// drawn as the running sum of the parts below it, the tallest first, so each bar shows through
// only as its own share; the legend and the cursor read each part's own cost.

const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#9c755f'];

let styled = false;
const addStyle = (): void => {
  if (styled) return;
  styled = true;
  const el = document.createElement('style');
  el.dataset['from'] = 'uplot';
  el.textContent = uplotCss;
  document.head.append(el);
};

const cumulative = (parts: Stacked['parts']): number[][] => {
  const sums: number[][] = [];
  parts.forEach((p, i) => sums.push(p.costs.map((c, d) => c + (i ? sums[i - 1]![d]! : 0))));
  return sums;
};

const sum = (ns: readonly number[]): number => ns.reduce((a, c) => a + c, 0);

/** one part's cost over every day of the chart, or on day `d`, in words: a turn of unknown cost is
 *  said to be unknown, so a part whose turns were all of unknown cost never reads "$0.00" */
export const partCost = (s: Stacked, i: number, d: number | null = null): string => {
  const p = s.parts[i]!;
  return d === null ? costText(sum(p.costs), sum(p.unknownTurns)) : costText(p.costs[d] ?? 0, p.unknownTurns[d] ?? 0);
};

const options = (s: Stacked, width: number, ink: string, line: string): uPlot.Options => {
  const order = s.parts.map((_, i) => i).reverse();
  return {
    width, height: 260,
    // half a day either side: the first and last bars are centred on their day, not cut in half
    scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] } },
    axes: [
      { stroke: ink, grid: { stroke: line }, ticks: { stroke: line } },
      { stroke: ink, grid: { stroke: line }, ticks: { stroke: line }, values: (_u, vals) => vals.map((v) => usd(v)), size: 60 },
    ],
    // with no day under the cursor the legend reads each part's cost over all the days shown,
    // not a row of empty labels
    series: [
      { label: 'Day', value: (_u, v) => (v == null ? 'all days' : new Date(v * 1000).toLocaleDateString()) },
      ...order.map((i) => ({
        label: s.parts[i]!.label, stroke: COLOURS[i % COLOURS.length]!, fill: COLOURS[i % COLOURS.length]!,
        paths: uPlot.paths.bars!({ size: [0.7, 60] }), points: { show: false },
        value: (_u: uPlot, _v: number | null, _si: number, d: number | null) => partCost(s, i, d ?? null),
      })),
    ],
    legend: { live: true },
  };
};

export const CostChart = ({ data, label }: { readonly data: Stacked; readonly label: string }) => {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    addStyle();
    const style = getComputedStyle(el);
    const sums = cumulative(data.parts);
    const series = [data.days as number[], ...data.parts.map((_, i) => sums[i]!).reverse()] as uPlot.AlignedData;
    const plot = new uPlot(options(data, el.clientWidth || 320, style.color, style.borderTopColor), series, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth || 320, height: 260 }));
    resize.observe(el);
    return () => { resize.disconnect(); plot.destroy(); };
  }, [data]);
  return <div class="usage-chart" ref={host} role="img" aria-label={label} />;
};
