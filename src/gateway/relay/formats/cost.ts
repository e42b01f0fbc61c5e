/**
 * What each answer costs, told to OpenAI-style clients as OpenRouter does: `usage.cost` in USD (the
 * charge, never more than was reserved), in whole answers and in a stream's usage chunk, and in the
 * X-Gateway-Cost header of whole answers for clients that read no body usage.
 */
import { COST_HEADER, MICRO_USD_PER_USD } from '../../../contract/index.ts';
import type { RelayRequest, RelayUsage } from '../types.ts';

/** The charge of `usage` in USD, or undefined when the request has no price to tell. */
export function usdOf(request: Pick<RelayRequest, 'costOf'>, usage: RelayUsage): number | undefined {
  return request.costOf ? request.costOf(usage) / MICRO_USD_PER_USD : undefined;
}

const USAGE_KEY = '"usage":{';

/** An OpenAI-style answer's JSON text with usage.cost in it: spliced where its one usage object opens, else rebuilt. */
export function withUsageCost(text: string, usd: number): string {
  const at = text.indexOf(USAGE_KEY);
  if (at !== -1 && text.indexOf(USAGE_KEY, at + 1) === -1) {
    const open = at + USAGE_KEY.length;
    return `${text.slice(0, open)}"cost":${usd}${text[open] === '}' ? '' : ','}${text.slice(open)}`;
  }
  const answer = JSON.parse(text) as { usage?: Record<string, unknown> | null };
  if (!answer.usage) return text;
  return JSON.stringify({ ...answer, usage: { ...answer.usage, cost: usd } });
}

/** The cost header pair for a whole answer, or none. */
export function costHeader(request: Pick<RelayRequest, 'costOf'>, usage: RelayUsage): readonly string[] | undefined {
  const usd = usdOf(request, usage);
  return usd === undefined ? undefined : [COST_HEADER, String(usd)];
}
