import assert from 'node:assert/strict';
import { dayChart } from '../../../../src/extension/usage/chart.ts';
import { usagePage } from '../../../../src/extension/usage/page.ts';
import { CHART_DAYS, localDate, summarize, utcOffsetMinutes } from '../../../../src/extension/usage/summary.ts';
import { english } from '../../../../src/extension/translate.ts';

const balance = { remainingUsd: 9.5, usedUsd: 0.5, limitUsd: 10, unlimited: false };
const now = new Date(2026, 10, 3, 15, 0); // 3 November 2026, local time
const day = (date: string, cost_usd: number, requests = 1) => ({ date, cost_usd, requests });
// The 31 days the gateway lists up to 3 November: 4 October .. 3 November.
const daily = {
  object: 'billing_daily' as const,
  utc_offset_minutes: utcOffsetMinutes(now),
  complete: true,
  data: Array.from({ length: 31 }, (_, i) => {
    const d = new Date(2026, 9, 4 + i);
    return day(localDate(d), localDate(d) === '2026-10-31' ? 2 : localDate(d).startsWith('2026-11') ? 0.1 : 0);
  }),
};

describe('Usage view: summary, chart and page', () => {
  it('today is the last day, this month sums the days of the current month exactly, the chart keeps the last days', () => {
    const summary = summarize(balance, daily, now);
    assert.equal(localDate(now), '2026-11-03');
    assert.equal(summary.todayUsd, 0.1);
    assert.equal(summary.monthUsd, 0.3, '0.1 + 0.1 + 0.1 with no float noise; October\'s $2 not counted');
    assert.equal(summary.recentDays?.length, CHART_DAYS);
    assert.equal(summary.recentDays?.at(-1)?.date, '2026-11-03');
    assert.equal(summary.partial, false);
  });

  it('without spending by day, shows the balance and total and says what it cannot show', () => {
    const summary = summarize(balance, null, now);
    assert.deepEqual([summary.todayUsd, summary.monthUsd, summary.recentDays], [null, null, null]);
    const html = usagePage({ kind: 'ready', summary, gateway: 'http://one-api.example' }, { cspSource: 'vscode-resource:', styleUri: 'vscode-resource:/usage.css' }, english);
    assert.match(html, /id="balance".*\$9\.50/);
    assert.match(html, /id="total".*\$0\.50/);
    assert.match(html, /id="cannot-show"/);
    assert.doesNotMatch(html, /<svg/);
  });

  it('draws one bar per day scaled to the dearest, a visible bar for any spending, titles escaped', () => {
    const svg = dayChart([{ date: '2026-11-01', costUsd: 0, requests: 0 }, { date: '2026-11-02', costUsd: 0.000001, requests: 1 }, { date: '2026-11-03', costUsd: 1, requests: 4 }], english);
    const heights = [...svg.matchAll(/<rect[^>]* height="(\d+)"/g)].map((m) => Number(m[1]));
    assert.deepEqual(heights, [0, 1, 82]);
    assert.match(svg, /<title>2026-11-03: \$1\.00, 4 requests<\/title>/);
    assert.doesNotMatch(dayChart([{ date: '<b>', costUsd: 1, requests: 1 }], english), /<b>/);
  });

  it('the page runs no script and loads nothing but its own stylesheet', () => {
    const html = usagePage({ kind: 'ready', summary: summarize(balance, daily, now), gateway: 'http://127.0.0.1:8080' }, { cspSource: 'https://file+.vscode-resource.vscode-cdn.net', styleUri: 'https://file+.vscode-resource.vscode-cdn.net/media/usage.css' }, english);
    assert.match(html, /Content-Security-Policy" content="default-src &#39;none&#39;; style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net; img-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net;"/);
    assert.doesNotMatch(html, /<script|\sstyle="|\son\w+="/);
    assert.match(html, /id="today".*\$0\.10.*id="month".*\$0\.30/);
  });
});
