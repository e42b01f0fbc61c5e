/**
 * A chart (uPlot, on a canvas) with its text alternative: a sentence that says what it shows and a
 * table of every bucket, for screen readers, for copying numbers, and for whoever prefers a table.
 * It redraws when its frame changes width (ResizeObserver), when the theme changes (light, dark, or
 * the system's switching) and when its data or the language changes. Colours are the style sheet's
 * own (light-dark() pairs resolved by the browser), so the canvas follows the theme like the page.
 * Every label goes into the page as text: uPlot writes its legend with textContent.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import '../styles/charts.css';
import { defineMessages, useLang, useT } from '../i18n/lang.ts';

const WORDS = defineMessages({
  en: { table: 'Show as a table', noData: 'No data in this range.' },
  'zh-CN': { table: '以表格显示', noData: '此时间范围内没有数据。' },
});

/** The colours a series may take: the page's own, then the chart palette (styles/charts.css). */
export const TONES = ['accent', 'bad', 'ok', 'warn', 'chart-5', 'chart-6', 'chart-7', 'chart-8'] as const;
export type Tone = (typeof TONES)[number];

export interface ChartSeries {
  readonly label: string;
  readonly values: readonly (number | null)[];
  readonly tone: Tone;
  /** What the legend says while the pointer is not on the chart (the series' total); empty when not given. */
  readonly idle?: string;
}

export interface ChartProps {
  /** The chart's name, read out with it. */
  readonly label: string;
  /** What the chart says, in a sentence under it. */
  readonly summary: ComponentChildren;
  /** Bucket starts (epoch seconds) on a time axis; with `categories`, the categories' indexes. */
  readonly x: readonly number[];
  /** Names instead of times (spending by model): drawn as horizontal bars, a name on each line. */
  readonly categories?: readonly string[];
  /** What the legend says for the x value while the pointer is not on the chart (the range). */
  readonly xIdle?: string;
  /** A bucket as the table and the legend write it. */
  readonly xLabel: (index: number) => string;
  /** The table's first column heading. */
  readonly xHeader: string;
  /** Time axis ticks, in the person's language (epoch seconds in). */
  readonly tick?: (seconds: number) => string;
  readonly series: readonly ChartSeries[];
  readonly kind?: 'line' | 'bars';
  readonly format: (value: number) => string;
  readonly height?: number;
  readonly testId?: string;
}

/** Changes whenever the colours may have: the theme picker sets data-theme, or the system switches. */
function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = (): void => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      scheme.removeEventListener('change', bump);
    };
  }, []);
  return version;
}

/** A CSS colour (a custom property holding a light-dark() pair) as the browser resolves it here. */
function resolved(host: HTMLElement, variable: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(--${variable})`;
  host.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

const AXIS_FONT = '12px system-ui, sans-serif';

/**
 * The steps between value ticks: whole ones, as every series here counts whole things (requests, micro-USD), so a
 * gridline never sits at 2.5 requests labelled "3".
 */
const WHOLE_STEPS = [1, 2, 5].flatMap((d) => Array.from({ length: 16 }, (_, e) => d * 10 ** e)).sort((a, b) => a - b);

/** A value axis as wide as its longest label (at 12px, about 7px a character), so that "$0.000146" is not cut. */
const labelsWide = (_u: uPlot, values: string[] | null): number => 18 + 7 * Math.max(3, ...(values ?? []).map((v) => v.length));
/** Room for a name on the category axis, in CSS pixels. */
const NAME_ROOM = 112;
let measure: CanvasRenderingContext2D | null = null;

/** The start of a long name, as much as fits on the axis (the legend and the table have it whole). */
function shortName(name: string): string {
  measure ??= document.createElement('canvas').getContext('2d');
  if (!measure) return name.length > 14 ? `${name.slice(0, 13)}…` : name;
  measure.font = AXIS_FONT;
  if (measure.measureText(name).width <= NAME_ROOM) return name;
  let end = name.length;
  while (end > 1 && measure.measureText(`${name.slice(0, end)}…`).width > NAME_ROOM) end--;
  return `${name.slice(0, end)}…`;
}

function withAlpha(rgb: string, alpha: number): string {
  const m = /^rgba?\(([^)]+)\)$/.exec(rgb);
  if (!m) return rgb;
  const [r, g, b] = m[1]!.split(/[\s,/]+/);
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

export function Chart(props: ChartProps) {
  const { label, summary, x, categories, xLabel, xHeader, series, kind = 'line', format, height = 220, testId } = props;
  const t = useT(WORDS);
  const { lang } = useLang();
  const theme = useThemeVersion();
  const frame = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const dataKey = JSON.stringify([x, categories ?? null, series, kind, height, lang, theme]);

  useEffect(() => {
    const host = frame.current;
    if (!host || x.length === 0) return undefined;
    const p = latest.current;
    // Horizontal bars take a line per name.
    const chartHeight = categories ? Math.max(120, 56 + x.length * 30) : height;
    const text = resolved(host, 'muted');
    const grid = resolved(host, 'border');
    const colours = p.series.map((s) => resolved(host, s.tone));
    const bars = kind === 'bars' ? uPlot.paths.bars!({ size: [categories ? 0.7 : 0.8, categories ? 28 : 48], align: 0 }) : undefined;
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, font: AXIS_FONT };
    const step = x.length > 1 ? x[1]! - x[0]! : 0;
    const idle = (words: string | undefined): string => words ?? '';
    const options: uPlot.Options = {
      width: Math.max(200, host.clientWidth),
      height: chartHeight,
      pxAlign: 0,
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      legend: { show: true, live: true },
      scales: categories
        // Horizontal bars: the names down the left, the first at the top.
        ? { x: { time: false, ori: 1, dir: -1, range: [-0.5, x.length - 0.5] }, y: { ori: 0, range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] } }
        : { x: { time: true, ...(kind === 'bars' && step > 0 ? { range: (_u, min, max) => [min - step / 2, max + step / 2] } : {}) }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: categories
        ? [
          { ...axis, side: 3, size: 128, gap: 6, grid: { show: false }, splits: () => [...x], values: (_u, splits) => splits.map((i) => shortName(categories[i] ?? '')) },
          { ...axis, side: 2, size: 40, space: 70, incrs: WHOLE_STEPS, values: (_u, splits) => splits.map((v) => latest.current.format(v)) },
        ]
        : [
          { ...axis, space: 64, values: (_u, splits) => splits.map((s) => (latest.current.tick ? latest.current.tick(s) : new Date(s * 1000).toLocaleString(lang))) },
          { ...axis, size: labelsWide, incrs: WHOLE_STEPS, values: (_u, splits) => splits.map((v) => latest.current.format(v)) },
        ],
      series: [
        { label: xHeader, value: (_u, v) => (v === null || v === undefined ? idle(latest.current.xIdle) : latest.current.xLabel(categories ? v : x.indexOf(v))) },
        ...p.series.map((s, i) => ({
          label: s.label,
          stroke: colours[i],
          fill: withAlpha(colours[i]!, kind === 'bars' ? 0.75 : 0.12),
          width: kind === 'bars' ? 0 : 2,
          points: { show: kind !== 'bars' && x.length <= 31 },
          value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? idle(latest.current.series[i]?.idle) : latest.current.format(v)),
          ...(bars ? { paths: bars } : {}),
        })),
      ],
    };
    const data = [Float64Array.from(x), ...p.series.map((s) => s.values.map((v) => v ?? null))] as uPlot.AlignedData;
    const plot = new uPlot(options, data, host);
    const observer = new ResizeObserver(() => {
      const width = Math.max(200, host.clientWidth);
      if (width !== plot.width) plot.setSize({ width, height: chartHeight });
    });
    observer.observe(host);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [dataKey]);

  const empty = x.length === 0 || series.every((s) => s.values.every((v) => !v));
  return (
    <figure class="chart-figure" data-testid={testId} aria-label={label}>
      {x.length > 0 && <div class="chart" ref={frame} aria-hidden="true" data-kind={kind} />}
      <figcaption class="chart-summary">{empty ? t('noData') : summary}</figcaption>
      {x.length > 0 && (
        <details class="chart-table">
          <summary>{t('table')}</summary>
          <div class="table-frame">
            <table>
              <caption class="sr-only">{label}</caption>
              <thead>
                <tr>
                  <th scope="col">{xHeader}</th>
                  {series.map((s) => <th key={s.label} scope="col" class="num">{s.label}</th>)}
                </tr>
              </thead>
              <tbody>
                {x.map((_, i) => (
                  <tr key={i}>
                    <th scope="row" class="bucket">{xLabel(i)}</th>
                    {series.map((s) => <td key={s.label} class="num">{s.values[i] === null || s.values[i] === undefined ? '—' : format(s.values[i]!)}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}
