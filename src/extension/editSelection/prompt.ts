/**
 * What the model is asked to rewrite a selection: the instruction, the selected code, and the code around it
 * (so names and style come from the file), with the file's language and path. The answer must be the
 * replacement alone. Pure.
 */
import type { ChatMessage } from '../../contract/index.ts';
import { systemText } from '../instructions/instructionsText.ts';

/** Lines of the file shown before and after the selection. */
export const CONTEXT_LINES = 60;
/** At most this much of those lines on each side (minified files have long lines): the part nearest the selection. */
export const CONTEXT_CHARS = 8_000;
/** The largest selection edited in one request (about 15,000 tokens): beyond it, the user is asked to select less. */
export const MAX_SELECTION_CHARS = 60_000;

/** The code before the selection, at most `max` characters of it, from a line start where one is near. */
export function clipBefore(text: string, max = CONTEXT_CHARS): string {
  if (text.length <= max) return text;
  const kept = text.slice(text.length - max);
  const lineStart = kept.indexOf('\n');
  return lineStart >= 0 && lineStart < max / 2 ? kept.slice(lineStart + 1) : kept;
}

/** The code after the selection, at most `max` characters of it, to a line end where one is near. */
export function clipAfter(text: string, max = CONTEXT_CHARS): string {
  if (text.length <= max) return text;
  const kept = text.slice(0, max);
  const lineEnd = kept.lastIndexOf('\n');
  return lineEnd >= max / 2 ? kept.slice(0, lineEnd + 1) : kept;
}

const INSTRUCTIONS = [
  'You edit code in the user\'s editor. You are given the code around a selection, the selection itself and an instruction.',
  'Answer with the code that replaces the selection, and nothing else: no explanation, no code fences.',
  'Keep the indentation, the style and the names of the surrounding code; change only what the instruction asks for.',
  'When the selection is empty text, answer with the code to insert there.',
].join('\n');

export interface EditRequest {
  readonly instruction: string;
  readonly languageId: string;
  /** The file's path in the workspace, or its name. */
  readonly path: string;
  readonly before: string;
  readonly selected: string;
  readonly after: string;
  /** The repository's instructions, as a system text ('' or absent: none). */
  readonly instructions?: string;
}

export function editPrompt(request: EditRequest): ChatMessage[] {
  const fence = request.languageId === 'markdown' ? '~~~' : '```';
  const block = (text: string) => `${fence}${request.languageId}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}`;
  const user = [
    `File: ${request.path} (${request.languageId})`,
    request.before === '' ? 'The selection starts the file.' : `Code before the selection:\n${block(clipBefore(request.before))}`,
    `The selection:\n${block(request.selected)}`,
    request.after === '' ? 'The selection ends the file.' : `Code after the selection:\n${block(clipAfter(request.after))}`,
    `Instruction: ${request.instruction.trim()}`,
  ].join('\n\n');
  return [
    { role: 'system', content: systemText(INSTRUCTIONS, request.instructions)! },
    { role: 'user', content: user },
  ];
}
