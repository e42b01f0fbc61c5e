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

/**
 * A whole answer as it goes to the client, with its cost where the client's format has a place for it
 * (chat completions, completions) and in the header. `text` is what the translation made of the
 * upstream's `bytes` (`raw` decoded): when it left them unchanged the bytes are spliced, not re-encoded.
 */
export function answerWithCost(request: Pick<RelayRequest, 'costOf' | 'operation'>, usage: RelayUsage, text: string, raw: string, bytes?: Buffer): { body: string | Buffer; headers?: readonly string[] } {
  const unchanged = bytes !== undefined && text === raw;
  const usd = usdOf(request, usage);
  if (usd === undefined) return { body: unchanged ? bytes : text };
  const headers = [COST_HEADER, String(usd)];
  if (request.operation !== 'chat' && request.operation !== 'completion') return { body: unchanged ? bytes : text, headers };
  if (unchanged) {
    const at = bytes.indexOf(USAGE_KEY);
    if (at !== -1 && bytes.indexOf(USAGE_KEY, at + 1) === -1) {
      const open = at + USAGE_KEY.length;
      const cost = Buffer.from(`"cost":${usd}${bytes[open] === 0x7d /* } */ ? '' : ','}`);
      return { body: Buffer.concat([bytes.subarray(0, open), cost, bytes.subarray(open)]), headers };
    }
  }
  return { body: withUsageCost(text, usd), headers };
}
