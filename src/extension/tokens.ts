/** A rough token count (about four characters per token), for prompt budgets: the editor's chat and inline completion. */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
