/**
 * What "Write Pull Request Description" asks the chat model, and its answer made into a title and a body (no vscode
 * import): the branch's commits since it left the base branch and their diff (fitted to the model as commit messages
 * are, private files named only), answered in Markdown as a pull request's description is written.
 */
import type { ChatMessage } from '../../contract/index.ts';
import { commitMessageFrom } from '../commitMessage/answer.ts';
import { DIFF_BUDGET_CHARS, fitDiff } from '../commitMessage/prompt.ts';
import { systemText } from '../instructions/instructionsText.ts';

export interface BranchChanges {
  readonly branch: string;
  readonly base: string;
  /** The commits' subjects, oldest first. */
  readonly subjects: readonly string[];
  readonly diff: string;
  /** The repository's instruction files (AGENTS.md), '' for none. */
  readonly instructions?: string;
}

const INSTRUCTIONS = [
  'You write the description of a pull request from its commits and its diff.',
  'Answer in Markdown. The first line is the title: plain text, at most 72 characters, no heading mark.',
  'Then a blank line, a short paragraph on what the change does and why, a "## Changes" list of what changed grouped by area,',
  'and a "## Testing" section saying which tests were added or changed, or how a reviewer can check it.',
  'Say only what the commits and the diff show; do not invent issue numbers, links or results.',
].join(' ');

/** Commits listed at most: a long branch keeps its first and last ones. */
const MAX_SUBJECTS = 60;

export function describePrompt(changes: BranchChanges, budget = DIFF_BUDGET_CHARS, secret: (path: string) => boolean = () => false): ChatMessage[] {
  const subjects = changes.subjects.filter((s) => s.trim() !== '');
  const listed = subjects.length > MAX_SUBJECTS
    ? [...subjects.slice(0, MAX_SUBJECTS / 2), `(${subjects.length - MAX_SUBJECTS} more)`, ...subjects.slice(-MAX_SUBJECTS / 2)]
    : subjects;
  const user = [
    `The branch ${changes.branch} into ${changes.base}.`,
    `Its commits, oldest first:\n${listed.map((s) => `- ${s}`).join('\n')}`,
    `Its changes:\n\n${fitDiff(changes.diff, budget, secret)}`,
    'Write the pull request\'s title and description.',
  ].join('\n\n');
  return [
    { role: 'system', content: systemText(INSTRUCTIONS, changes.instructions)! },
    { role: 'user', content: user },
  ];
}

/** The answer as a title and a body: reasoning, an outer fence and a "Title:" label dropped, a heading mark off the title. */
export function descriptionFrom(answer: string): { title: string; body: string } {
  const text = commitMessageFrom(answer);
  const [first = '', ...rest] = text.split('\n');
  const title = first.replace(/^#+\s*/, '').replace(/^(\*\*)?title:?(\*\*)?:?\s*/i, '').replace(/^\*\*(.*)\*\*$/, '$1').trim();
  return { title, body: rest.join('\n').trim() };
}
