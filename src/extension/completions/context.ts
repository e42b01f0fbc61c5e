/**
 * What of the editor goes into a completion request, within a token budget (no vscode import):
 * the current file around the cursor first (most of it before the cursor, where the model reads
 * what it continues), then the beginning of open files of the same language while budget remains.
 * Tokens are estimated at four characters each: exact counts would need the model's tokenizer, and
 * a budget only needs to keep requests small and fast.
 */
import { CHARS_PER_TOKEN } from '../tokens.ts';

/** Prompt tokens per request by default: small enough for a fast answer, large enough to see the function and its imports. */
export const COMPLETION_CONTEXT_TOKENS = 2048;
/** Of the budget, the share the current file may use; the rest is for other open files. */
const CURRENT_FILE_SHARE = 0.75;
/** Of the current file's share, the share after the cursor (when the text before it needs the rest). */
const SUFFIX_SHARE = 0.25;
/** A neighbour shorter than this is not worth its header. */
const MIN_NEIGHBOUR_CHARS = 200;

export interface OpenFile {
  /** Workspace-relative path, as shown to the model. */
  readonly path: string;
  readonly text: string;
}

export interface CompletionContext {
  readonly path: string;
  readonly languageId: string;
  /** Text before the cursor, starting at a line boundary. */
  readonly prefix: string;
  /** Text after the cursor, ending at a line boundary. */
  readonly suffix: string;
  readonly neighbours: readonly OpenFile[];
}

/** The last `max` characters of `text`, widened to start at a line start (or cut there when the line is too long). */
function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const lineStart = cut.indexOf('\n');
  return lineStart >= 0 && lineStart < cut.length - 1 ? cut.slice(lineStart + 1) : cut;
}

/** The first `max` characters of `text`, ending at a line end where there is one. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lineEnd = cut.lastIndexOf('\n');
  return lineEnd > 0 ? cut.slice(0, lineEnd + 1) : cut;
}

export interface ContextInput {
  readonly path: string;
  readonly languageId: string;
  readonly text: string;
  /** Offset of the cursor in `text`. */
  readonly offset: number;
  /** Other open files of the same language, most recently used first. */
  readonly openFiles: readonly OpenFile[];
  readonly budgetTokens?: number;
}

/**
 * The characters of a document a request can use around `offset`, read through `read(start, end)` (end past the
 * document's end is its end): a whole 10 MB file per keystroke, and five open ones beside it, cost the editor far
 * more than the few kilobytes the budget keeps. Twice the budget on each side, so that a cut window still starts
 * past a line start that `tail` can find, and buildContext gives the same context as from the whole text.
 */
export function windowAround(read: (start: number, end: number) => string, offset: number, budgetTokens = COMPLETION_CONTEXT_TOKENS): { text: string; offset: number } {
  const reach = 2 * budgetTokens * CHARS_PER_TOKEN;
  const start = Math.max(0, offset - reach);
  return { text: read(start, offset + reach), offset: offset - start };
}

/** The start of an open file a request can use, read through `read` as for windowAround. */
export function headOf(read: (start: number, end: number) => string, budgetTokens = COMPLETION_CONTEXT_TOKENS): string {
  return read(0, 2 * budgetTokens * CHARS_PER_TOKEN);
}

export function buildContext(input: ContextInput): CompletionContext {
  const budgetChars = (input.budgetTokens ?? COMPLETION_CONTEXT_TOKENS) * CHARS_PER_TOKEN;
  const fileChars = Math.floor(budgetChars * CURRENT_FILE_SHARE);
  const before = input.text.slice(0, input.offset);
  const after = input.text.slice(input.offset);
  // The suffix gets its share; what it leaves unused goes to the prefix, and the reverse.
  const suffixRoom = Math.max(Math.floor(fileChars * SUFFIX_SHARE), fileChars - before.length);
  const suffix = head(after, suffixRoom);
  const prefix = tail(before, fileChars - suffix.length);
  let left = budgetChars - prefix.length - suffix.length;
  const neighbours: OpenFile[] = [];
  for (const file of input.openFiles) {
    if (file.path === input.path) continue;
    const room = left - file.path.length - 16;
    if (room < MIN_NEIGHBOUR_CHARS) break;
    const snippet = head(file.text, room);
    if (snippet.trim() === '') continue;
    neighbours.push({ path: file.path, text: snippet });
    left -= snippet.length + file.path.length + 16;
  }
  return { path: input.path, languageId: input.languageId, prefix, suffix, neighbours };
}
