/**
 * A model's answer made into the text of a commit message: reasoning in `<think>` tags dropped, a
 * code fence or quotes around the whole message removed, a "Commit message:" label removed, trailing
 * spaces and runs of blank lines tidied. The words themselves are the model's. Pure.
 */
import { ThinkTagSplitter } from '../chat/thinkTags.ts';

export function commitMessageFrom(answer: string): string {
  const splitter = new ThinkTagSplitter();
  let text = splitter.push(answer).content + splitter.finish().content;
  text = text.trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  text = text.replace(/^(\*\*)?commit message:?(\*\*)?:?\s*/i, '').trim();
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
  if (quoted && !quoted[2]!.includes(quoted[1]!)) text = quoted[2]!.trim();
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
