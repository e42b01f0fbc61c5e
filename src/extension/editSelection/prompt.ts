/**
 * What the model is asked to rewrite a selection: the instruction, the selected code, and the code around it
 * (so names and style come from the file), with the file's language and path. The answer must be the
 * replacement alone. Pure.
 */
import type { ChatMessage } from '../../contract/index.ts';

/** Lines of the file shown before and after the selection. */
export const CONTEXT_LINES = 60;

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
}

export function editPrompt(request: EditRequest): ChatMessage[] {
  const fence = request.languageId === 'markdown' ? '~~~' : '```';
  const block = (text: string) => `${fence}${request.languageId}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}`;
  const user = [
    `File: ${request.path} (${request.languageId})`,
    request.before === '' ? 'The selection starts the file.' : `Code before the selection:\n${block(request.before)}`,
    `The selection:\n${block(request.selected)}`,
    request.after === '' ? 'The selection ends the file.' : `Code after the selection:\n${block(request.after)}`,
    `Instruction: ${request.instruction.trim()}`,
  ].join('\n\n');
  return [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: user },
  ];
}
