/**
 * A model's answer made into the text that replaces a selection: reasoning in `<think>` tags dropped, the
 * code of the first fenced block taken when the model wrapped it in one, and the selection's own final line
 * break kept as it was (a selection of whole lines stays whole lines). Pure.
 */
import { ThinkTagSplitter } from '../chat/thinkTags.ts';
import { stripCodeFences } from '../completions/cleanup.ts';

export function replacementFrom(answer: string, selected: string): string {
  const splitter = new ThinkTagSplitter();
  const content = splitter.push(answer).content + splitter.finish().content;
  const code = stripCodeFences(content.replace(/^\s*\n/, '')).replace(/\s+$/, '');
  if (code === '') return '';
  return selected.endsWith('\n') ? `${code}\n` : code;
}
