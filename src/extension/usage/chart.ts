/**
 * The Usage view's chart of recent days as inline SVG markup (no vscode import, unit-tested): one bar per
 * day, scaled to the dearest day, each with a <title> (date, cost, requests) that shows on hover. Plain
 * SVG needs no script and no remote content, so the webview's CSP can forbid both. Colours come from the
 * stylesheet (theme variables), not from inline styles, which that CSP also forbids.
 */
import { formatUsd } from '../../contract/index.ts';
import type { DaySpend } from './summary.ts';

type Translate = (message: string, ...args: (string | number)[]) => string;

const WIDTH = 280;
const HEIGHT = 96;
const LABEL_HEIGHT = 14;
const GAP = 2;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function dayChart(days: readonly DaySpend[], t: Translate): string {
  const barsHeight = HEIGHT - LABEL_HEIGHT;
  const most = Math.max(0, ...days.map((d) => d.costUsd));
  const slot = days.length === 0 ? WIDTH : WIDTH / days.length;
  const bars = days.map((day, i) => {
    // A day with some spending keeps at least one pixel, so it never looks like a day with none.
    const height = most === 0 ? 0 : Math.max(day.costUsd > 0 ? 1 : 0, Math.round((day.costUsd / most) * barsHeight));
    const x = (i * slot + GAP / 2).toFixed(1);
    const title = escapeHtml(t('{0}: {1}, {2} requests', day.date, formatUsd(day.costUsd), day.requests));
    return `<rect class="bar${day.costUsd === 0 ? ' none' : ''}" x="${x}" y="${barsHeight - height}" width="${Math.max(1, slot - GAP).toFixed(1)}" height="${height}"><title>${title}</title></rect>`;
  });
  const first = days[0]?.date.slice(5) ?? '';
  const last = days.at(-1)?.date.slice(5) ?? '';
  const label = escapeHtml(t('Spending of the last {0} days', days.length));
  return (
    `<svg class="chart" role="img" aria-label="${label}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%">` +
    `<line class="axis" x1="0" y1="${barsHeight}" x2="${WIDTH}" y2="${barsHeight}"></line>` +
    bars.join('') +
    `<text class="label" x="0" y="${HEIGHT - 2}">${escapeHtml(first)}</text>` +
    `<text class="label" x="${WIDTH}" y="${HEIGHT - 2}" text-anchor="end">${escapeHtml(last)}</text>` +
    `</svg>`
  );
}
