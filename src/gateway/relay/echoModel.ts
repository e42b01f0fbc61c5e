/**
 * The built-in `echo` model, as pure functions: what it answers and how it counts.
 * - Reply: `You said: <text of the last user message>` (or `You said nothing.`).
 * - Tokens are word-sized: each run of whitespace plus the word after it is one token,
 *   so the count is deterministic and exact (it is the echo model's own tokenizer).
 * - Prompt tokens: the words of every message's text, plus one per message (its role).
 * - Reasoning: when the last user message contains the word "think" (any case), a short
 *   `reasoning_content` is produced before the answer, for testing reasoning displays.
 * - The completion cap (the client's max_tokens / max_completion_tokens and the account's
 *   cap, whichever is smallest) counts reasoning and answer tokens together; a cut answer
 *   finishes with `length` instead of `stop`.
 */
import type { ChatRequest } from '../../contract/index.ts';
import { textOfContent } from './estimate.ts';

export interface EchoToken {
  readonly kind: 'reasoning' | 'content';
  readonly text: string;
}

export interface EchoPlan {
  readonly tokens: readonly EchoToken[];
  readonly finishReason: 'stop' | 'length';
  readonly promptTokens: number;
}

export function tokenize(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

export function planEcho(body: ChatRequest, accountCap: number | null): EchoPlan {
  const promptTokens = body.messages.reduce((n, m) => n + tokenize(textOfContent(m.content)).length + 1, 0);
  const lastUser = [...body.messages].reverse().find((m) => m.role === 'user');
  const said = lastUser ? textOfContent(lastUser.content).trim() : '';
  const tokens: EchoToken[] = [];
  if (/\bthink/i.test(said)) {
    const words = tokenize(said).length;
    for (const text of tokenize(`You asked me to think. Your message has ${words} word${words === 1 ? '' : 's'}; I will repeat it back to you.`)) {
      tokens.push({ kind: 'reasoning', text });
    }
  }
  for (const text of tokenize(said ? `You said: ${said}` : 'You said nothing.')) tokens.push({ kind: 'content', text });

  const caps = [accountCap, body.max_tokens, body.max_completion_tokens].filter((c): c is number => typeof c === 'number');
  const cap = caps.length > 0 ? Math.min(...caps) : Infinity;
  if (tokens.length > cap) return { tokens: tokens.slice(0, cap), finishReason: 'length', promptTokens };
  return { tokens, finishReason: 'stop', promptTokens };
}

/** Milliseconds between two echo tokens: MODEL_GATEWAY_ECHO_DELAY_MS, default 15 (read per request). */
export function echoDelayMs(): number {
  const raw = process.env['MODEL_GATEWAY_ECHO_DELAY_MS'];
  const value = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : 15;
}
