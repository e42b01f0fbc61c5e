/**
 * Turning a model's answer into the ghost text to show (no vscode import). Chat models wrap code in
 * fences and repeat what is already there (the line up to the cursor, the closing lines after it);
 * FIM models sometimes run on into the suffix. Whatever is repeated would be inserted twice.
 */
import { FILL_MARKER } from './requests.ts';
import type { CompletionShape } from './lineMode.ts';

/** The code inside the first fenced block, or the text unchanged when there is none (an unclosed fence counts to the end). */
export function stripCodeFences(text: string): string {
  const open = /(^|\n)[ \t]*(```|~~~)[^\n]*\n/.exec(text);
  if (!open) return text.replace(/^`([^`\n]+)`$/, '$1');
  const start = open.index + open[0].length;
  const fence = open[2]!;
  const close = text.indexOf(`\n${fence}`, start - 1);
  return close >= start - 1 ? text.slice(start, Math.max(start, close + 1)).replace(/\n$/, '') : text.slice(start);
}

/** A repeat of the end of the prefix at the start of the answer, this long, counts as a repeat. */
const MIN_PREFIX_OVERLAP = 6;

/**
 * The answer without a leading repeat of the text before the cursor: the current line (as chat models
 * write it out again from its start), or any longer tail of the prefix.
 */
export function dropPrefixOverlap(answer: string, prefix: string): string {
  const lineStart = prefix.lastIndexOf('\n') + 1;
  const line = prefix.slice(lineStart);
  const trimmedLine = line.trimStart();
  if (trimmedLine !== '') {
    const body = answer.trimStart();
    if (body.startsWith(trimmedLine)) return body.slice(trimmedLine.length);
  }
  const max = Math.min(answer.length, prefix.length);
  for (let k = max; k >= MIN_PREFIX_OVERLAP; k--) {
    if (prefix.endsWith(answer.slice(0, k))) return answer.slice(k);
  }
  return answer;
}

/**
 * The answer without a trailing repeat of the text after the cursor: the longest start of the suffix
 * (blank space aside) that the answer ends with. One or two characters only count when they are all
 * the suffix has on its first line (the `)` or `}` the editor already closed).
 */
export function dropSuffixOverlap(answer: string, suffix: string): string {
  const wanted = suffix.trimStart();
  if (wanted === '') return answer;
  const body = answer.trimEnd();
  const firstLine = wanted.split('\n')[0]!.trimEnd();
  for (let k = Math.min(body.length, wanted.length); k >= 1; k--) {
    const piece = wanted.slice(0, k).trimEnd();
    if (piece === '' || !body.endsWith(piece)) continue;
    if (piece.length < 3 && piece !== firstLine) continue;
    return body.slice(0, body.length - piece.length).trimEnd();
  }
  return answer;
}

/** The answer as one line, or up to the end of a block, as the shape says. */
export function fitToShape(answer: string, shape: CompletionShape): string {
  if (shape.multiline) return answer.replace(/\s+$/, '');
  const firstLine = answer.split('\n')[0] ?? '';
  return firstLine.replace(/\s+$/, '');
}

export interface CleanupInput {
  readonly answer: string;
  readonly prefix: string;
  readonly suffix: string;
  readonly shape: CompletionShape;
  /** Chat answers get the fence and marker clean-up; FIM answers are the inserted text already. */
  readonly fromChat: boolean;
}

/** The ghost text, or '' when nothing useful is left. */
export function cleanCompletion(input: CleanupInput): string {
  let text = input.answer.replace(/\r\n/g, '\n');
  if (input.fromChat) {
    text = stripCodeFences(text).replaceAll(FILL_MARKER, '');
    text = dropPrefixOverlap(text, input.prefix);
    // A chat answer that starts with the line break the single-line request did not ask for.
    if (!input.shape.multiline) text = text.replace(/^\n+/, '');
  }
  text = dropSuffixOverlap(text, input.suffix);
  text = fitToShape(text, input.shape);
  return text.trim() === '' ? '' : text;
}
