/**
 * The Usage view's HTML (no vscode import, unit-tested): balance, today's and this month's spending and
 * the chart, or what the gateway cannot tell, or why nothing could be read. No script at all, and a CSP
 * that allows only the extension's own stylesheet: nothing remote, nothing inline can run.
 */
import { formatUsd } from '../../contract/index.ts';
import { dayChart, escapeHtml } from './chart.ts';
import type { UsageSummary } from './summary.ts';

type Translate = (message: string, ...args: (string | number)[]) => string;

export type UsageViewState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'problem'; readonly title: string; readonly detail: string }
  | { readonly kind: 'ready'; readonly summary: UsageSummary; readonly gateway: string };

export interface PageResources {
  /** The webview's `cspSource`. */
  readonly cspSource: string;
  /** media/usage.css as a webview URI. */
  readonly styleUri: string;
}

function row(label: string, value: string, id: string): string {
  return `<div class="row" id="${id}"><span class="name">${escapeHtml(label)}</span><span class="value">${escapeHtml(value)}</span></div>`;
}

function balanceText(summary: UsageSummary, t: Translate): string {
  const { balance } = summary;
  if (balance.unlimited) return t('Unlimited');
  return balance.remainingUsd === null ? t('not reported') : formatUsd(balance.remainingUsd);
}

function readyBody(summary: UsageSummary, gateway: string, t: Translate): string {
  const parts = [`<p class="gateway">${escapeHtml(gateway)}</p>`, row(t('Balance'), balanceText(summary, t), 'balance')];
  if (summary.recentDays === null) {
    if (summary.balance.usedUsd !== null) parts.push(row(t('Spent in total'), formatUsd(summary.balance.usedUsd), 'total'));
    parts.push(
      `<p class="note" id="cannot-show">${escapeHtml(t("This gateway reports only its totals (the billing endpoints): today's and this month's spending and the chart of recent days need spending by day, which it does not give."))}</p>`,
    );
    return parts.join('');
  }
  const lowerBound = summary.partial ? ' +' : '';
  parts.push(row(t('Today'), formatUsd(summary.todayUsd ?? 0) + lowerBound, 'today'), row(t('This month'), formatUsd(summary.monthUsd ?? 0) + lowerBound, 'month'));
  parts.push(`<h2>${escapeHtml(t('Recent days'))}</h2>`, dayChart(summary.recentDays, t));
  if (summary.partial) parts.push(`<p class="note">${escapeHtml(t('This key made more requests than the gateway counts in one answer: the sums are at least what is shown.'))}</p>`);
  return parts.join('');
}

export function usagePage(state: UsageViewState, resources: PageResources, t: Translate): string {
  let body: string;
  if (state.kind === 'loading') body = `<p class="note">${escapeHtml(t('Reading usage…'))}</p>`;
  else if (state.kind === 'problem') body = `<p class="problem" id="problem">${escapeHtml(state.title)}</p><p class="note">${escapeHtml(state.detail)}</p>`;
  else body = readyBody(state.summary, state.gateway, t);
  const csp = `default-src 'none'; style-src ${resources.cspSource}; img-src ${resources.cspSource};`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="${escapeHtml(resources.styleUri)}"><title>${escapeHtml(t('Usage'))}</title></head><body data-state="${state.kind}">${body}</body></html>`;
}
