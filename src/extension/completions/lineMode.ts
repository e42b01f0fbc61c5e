/**
 * One line or a block: decided by where the cursor is, as the best completion extensions do. No vscode import.
 * - Text after the cursor on its line, or text before it: finish this line only.
 * - An empty line right after a line that opens a block (`{`, `(`, `[`, `:`, `=>`, `do`, `then`): a block.
 * - Any other empty line: one line (a whole block there is more often wrong than right, and costs more).
 */

export interface CompletionShape {
  readonly multiline: boolean;
  /** Stop sequences for the model (at most 4: OpenAI's limit). */
  readonly stop: readonly string[];
  readonly maxTokens: number;
}

export const SINGLE_LINE: CompletionShape = { multiline: false, stop: ['\n'], maxTokens: 64 };
/** A blank line twice ends a block; the model's own end, or the suffix, usually comes first. */
export const MULTI_LINE: CompletionShape = { multiline: true, stop: ['\n\n\n', '\n\n\n\n'], maxTokens: 256 };

const OPENS_BLOCK = /(?:[{([:]|=>|\bdo|\bthen|\belse)\s*(?:\/\/.*|#.*)?$/;

/**
 * @param lineBefore the cursor's line up to the cursor
 * @param lineAfter the cursor's line after the cursor
 * @param previousLine the nearest non-blank line above the cursor's line ('' at the top)
 */
export function completionShape(lineBefore: string, lineAfter: string, previousLine: string): CompletionShape {
  if (lineAfter.trim() !== '' && !/^[)\]}'"`;,]*$/.test(lineAfter.trim())) return SINGLE_LINE;
  if (lineBefore.trim() !== '') return SINGLE_LINE;
  return OPENS_BLOCK.test(previousLine.trimEnd()) ? MULTI_LINE : SINGLE_LINE;
}
