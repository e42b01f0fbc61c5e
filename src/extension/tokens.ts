/**
 * A rough token count, for prompt budgets (VS Code's chat budgets what it sends a model with provideTokenCount) and
 * inline completion: about four characters per token for ASCII (English, code), one per other character. Chinese,
 * Japanese and Korean take about a token per character in OpenAI's and others' tokenizers, so counting them at a
 * quarter let VS Code build prompts several times too large for the model's context; for accented Latin text the
 * rule errs a little high, the safe side of a budget.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / CHARS_PER_TOKEN) + other;
}
