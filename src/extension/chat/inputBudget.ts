/**
 * How much text a request for a model may carry, from the context length its /v1/models entry gives (a local model
 * served with an 8K context cannot take the 12,000 tokens of diff a review sends a large one). Text is counted in
 * characters, at a conservative 3 per token for code, with room kept for the instructions and the answer.
 */
import type { GatewayClient } from '../../client/index.ts';
import { toModelInfo } from '../lm/modelInfo.ts';

/** Tokens kept for the instructions around the text and for the answer. */
const KEPT_TOKENS = 1_500;
const CHARS_PER_TOKEN = 3;

/** Characters of text for a model taking `maxInputTokens` (unknown: `cap`), never more than `cap`. */
export function budgetChars(maxInputTokens: number | undefined, cap: number): number {
  if (maxInputTokens === undefined) return cap;
  return Math.max(2_000, Math.min(cap, (maxInputTokens - KEPT_TOKENS) * CHARS_PER_TOKEN));
}

/** The input tokens the gateway says `model` takes; undefined when it does not list the model or the list fails. */
export async function modelInputTokens(client: GatewayClient, model: string, signal?: AbortSignal): Promise<number | undefined> {
  try {
    const entry = (await client.models(signal ? { signal } : {})).find((m) => m.id === model);
    return entry ? toModelInfo(entry).maxInputTokens : undefined;
  } catch {
    if (signal?.aborted) throw signal.reason;
    return undefined;
  }
}
