/**
 * The line under an @gateway answer: its tokens, and its cost when the gateway reports one
 * (usage.cost, as ours and OpenRouter do). No vscode import: the words come through `t`.
 */
import { formatUsd, type Usage } from '../../contract/index.ts';

type Translate = (message: string, ...args: (string | number)[]) => string;

export function usageLine(usage: Usage, t: Translate): string {
  const tokens = t('{0} + {1} tokens', usage.prompt_tokens.toLocaleString('en-US'), usage.completion_tokens.toLocaleString('en-US'));
  const cost = usage['cost'];
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? t('{0} · {1}', tokens, formatUsd(cost)) : tokens;
}
