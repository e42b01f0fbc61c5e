/**
 * What the model is asked for a commit message: the changes as `git diff` shows them, cut to a budget
 * file by file (each file whole while it fits, else named among the rest, never cut mid-hunk, and lock files and
 * other generated files by name alone), the repository's recent subjects so the message follows its
 * style, and what the author has already typed in the message box, as their intent. Pure.
 */
import type { ChatMessage } from '../../contract/index.ts';
import { systemText } from '../instructions/instructionsText.ts';

/** About 6,000 tokens of diff: enough for most commits, and small enough for any model's context. */
export const DIFF_BUDGET_CHARS = 24_000;

const INSTRUCTIONS = [
  'You write git commit messages.',
  'Answer with the commit message only: no preamble, no code fences, no quotes around it.',
  'First line: a summary in the imperative mood ("Add", "Fix", not "Added"), at most 72 characters, no period at the end.',
  'When the change needs more than its summary, a blank line and then a short body that says why, wrapped at 72 characters.',
  'Follow the style of the recent commit messages when they have one (for example a "type(scope): " prefix).',
].join('\n');

/** Files whose diff says nothing a reader needs (lock files, minified and source-map files): named, not shown. */
export const GENERATED = /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|uv\.lock|Gemfile\.lock|composer\.lock|go\.sum|Pipfile\.lock)$|\.min\.(js|css)$|\.map$/;

export interface CommitChanges {
  /** `git diff` output: staged changes, or the working tree's when nothing is staged. */
  readonly diff: string;
  readonly staged: boolean;
  /** Subjects of the latest commits, newest first. */
  readonly recentSubjects: readonly string[];
  /** What is already in the message box. */
  readonly draft: string;
  /** The repository's instructions, as a system text ('' or absent: none): teams write their commit conventions there. */
  readonly instructions?: string;
}

interface FileDiff {
  readonly path: string;
  readonly text: string;
}

/** The diff split at each `diff --git a/... b/...` header; the path is the new side's. */
export function splitDiff(diff: string): FileDiff[] {
  const starts = [...diff.matchAll(/^diff --git /gm)].map((m) => m.index);
  if (starts.length === 0) return diff.trim() === '' ? [] : [{ path: '', text: diff }];
  return starts.map((start, i) => {
    const text = diff.slice(start, starts[i + 1] ?? diff.length);
    const header = text.slice(0, text.indexOf('\n') >>> 0);
    const path = / b\/(.+)$/.exec(header)?.[1] ?? header.slice('diff --git '.length);
    return { path, text };
  });
}

/** The diff as the model gets it: in order, each file whole where it still fits, the others by name; a `secret` one never shown. */
export function fitDiff(diff: string, budget = DIFF_BUDGET_CHARS, secret: (path: string) => boolean = () => false): string {
  const shown: string[] = [];
  const generated: string[] = [];
  const withheld: string[] = [];
  const left: string[] = [];
  let used = 0;
  for (const file of splitDiff(diff)) {
    if (secret(file.path)) withheld.push(file.path);
    else if (GENERATED.test(file.path)) generated.push(file.path);
    else if (used + file.text.length <= budget) {
      shown.push(file.text);
      used += file.text.length;
    } else left.push(file.path);
  }
  // One file larger than the whole budget: its beginning, said to be cut, rather than nothing.
  if (shown.length === 0 && left.length > 0) {
    const first = splitDiff(diff).find((f) => !GENERATED.test(f.path) && !secret(f.path))!;
    shown.push(`${first.text.slice(0, budget)}\n[... the rest of this file's diff is left out]\n`);
    left.shift();
  }
  const notes: string[] = [];
  if (generated.length > 0) notes.push(`Generated files changed too (diff not shown): ${generated.join(', ')}`);
  if (withheld.length > 0) notes.push(`Private files changed too (diff not shown): ${withheld.join(', ')}`);
  if (left.length > 0) notes.push(`More files changed (diff left out for length): ${left.join(', ')}`);
  return [shown.join('').trimEnd(), ...notes].filter(Boolean).join('\n\n');
}

export function commitMessagePrompt(changes: CommitChanges, budget = DIFF_BUDGET_CHARS, secret: (path: string) => boolean = () => false): ChatMessage[] {
  const parts = [`The ${changes.staged ? 'staged changes' : 'changes in the working tree (nothing is staged)'}:\n\n${fitDiff(changes.diff, budget, secret)}`];
  const subjects = changes.recentSubjects.filter((s) => s.trim() !== '').slice(0, 10);
  if (subjects.length > 0) parts.push(`Recent commit messages in this repository, newest first:\n${subjects.map((s) => `- ${s}`).join('\n')}`);
  if (changes.draft.trim() !== '') parts.push(`The author has started the message; keep its intent:\n${changes.draft.trim()}`);
  parts.push('Write the commit message for these changes.');
  return [
    { role: 'system', content: systemText(INSTRUCTIONS, changes.instructions)! },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
