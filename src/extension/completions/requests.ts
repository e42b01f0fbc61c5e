/**
 * The two ways to ask for the text at the cursor (no vscode import):
 * - fill-in-the-middle on POST /v1/completions: `prompt` is the text before the cursor, `suffix` the text
 *   after (vLLM, llama.cpp, DeepSeek, Codestral and gateways in front of them);
 * - for a model without it, one chat turn that shows the code with a marker and asks for the marker's text.
 * Other open files go before the prompt as comments, in the file's own comment syntax, so a FIM model
 * reads them as part of the file; for a language without a known line comment they are left out.
 */
import type { ChatRequest, CompletionRequest } from '../../contract/index.ts';
import type { CompletionContext } from './context.ts';
import type { CompletionShape } from './lineMode.ts';

/** Low but not zero: the likeliest text, without a model's loops on exact ties. */
export const COMPLETION_TEMPERATURE = 0.1;
export const FILL_MARKER = '<FILL_HERE>';

const HASH = new Set(['python', 'shellscript', 'ruby', 'perl', 'r', 'yaml', 'toml', 'dockerfile', 'makefile', 'powershell', 'elixir', 'julia', 'coffeescript']);
const DASHES = new Set(['sql', 'lua', 'haskell']);
const SLASHES = new Set([
  'javascript', 'typescript', 'javascriptreact', 'typescriptreact', 'java', 'c', 'cpp', 'csharp', 'go', 'rust', 'swift',
  'kotlin', 'scala', 'dart', 'php', 'groovy', 'objective-c', 'objective-cpp', 'fsharp', 'jsonc', 'vue', 'svelte', 'zig',
]);

/** The line-comment start of a language, or null when we do not know one. */
export function lineComment(languageId: string): string | null {
  if (SLASHES.has(languageId)) return '//';
  if (HASH.has(languageId)) return '#';
  if (DASHES.has(languageId)) return '--';
  return null;
}

/** The other open files as comment lines ("Path: x", then each line), or '' when the language has no line comment. */
export function neighbourHeader(context: CompletionContext): string {
  const comment = lineComment(context.languageId);
  if (comment === null || context.neighbours.length === 0) return '';
  const blocks = context.neighbours.map((file) =>
    [`${comment} Path: ${file.path}`, ...file.text.replace(/\n$/, '').split('\n').map((line) => `${comment} ${line}`)].join('\n'),
  );
  return `${blocks.join('\n')}\n${comment} Path: ${context.path}\n`;
}

export function fimRequest(model: string, context: CompletionContext, shape: CompletionShape): CompletionRequest {
  return {
    model,
    prompt: neighbourHeader(context) + context.prefix,
    suffix: context.suffix,
    max_tokens: shape.maxTokens,
    stop: [...shape.stop],
    temperature: COMPLETION_TEMPERATURE,
    n: 1,
  };
}

const INSTRUCTION = [
  'You complete code in an editor. The user shows a file with the marker ' + FILL_MARKER + ' where the cursor is.',
  'Answer with exactly the text to insert at the marker: no explanations, no code fences, and never repeat the text before or after the marker.',
].join(' ');

export function chatFillRequest(model: string, context: CompletionContext, shape: CompletionShape): ChatRequest {
  const others = context.neighbours.map((file) => `Open file ${file.path}:\n${file.text}`).join('\n\n');
  const scope = shape.multiline ? 'Complete the block at the marker (several lines if needed).' : 'Complete only the current line at the marker.';
  const user = [
    others,
    `File ${context.path} (${context.languageId}):`,
    `${context.prefix}${FILL_MARKER}${context.suffix}`,
    scope,
  ].filter((part) => part !== '').join('\n\n');
  return {
    model,
    messages: [
      { role: 'system', content: INSTRUCTION },
      { role: 'user', content: user },
    ],
    max_tokens: shape.maxTokens,
    temperature: COMPLETION_TEMPERATURE,
    stream: false,
  };
}
