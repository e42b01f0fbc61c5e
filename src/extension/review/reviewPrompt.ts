/**
 * What the reviewing model is asked, and its answer read back into findings placed on lines of the changed files.
 * The answer is a line per finding (`path:line: severity: message`), a format small models keep to better than
 * JSON; a finding is kept on its line when the line is in a hunk shown, moved to the nearest shown line when the
 * model is a little off, and kept without a place when it names no file or line that was shown. Pure.
 */
import type { ChatMessage } from '../../contract/index.ts';
import { systemText } from '../instructions/instructionsText.ts';
import { ThinkTagSplitter } from '../chat/thinkTags.ts';
import type { FileDiff } from './numberedDiff.ts';

/** About 12,000 tokens of numbered diff. */
export const REVIEW_BUDGET_CHARS = 48_000;

export const NO_FINDINGS = 'NO FINDINGS';

const INSTRUCTIONS = [
  'You review code changes before they are committed or merged, as a careful senior engineer would.',
  'Report only real problems in the changed lines: bugs, wrong logic, unhandled errors or edge cases, security issues, resource leaks, race conditions, misleading names or comments. No praise, no summaries, no style nits a formatter would fix.',
  'Each line of the diff starts with its line number in the new file; removed lines have none.',
  'Answer with one finding per line, exactly in this form and nothing else:',
  'path/to/file.ext:LINE: SEVERITY: what is wrong and how to fix it, in one or two sentences',
  'SEVERITY is error (a bug or a security hole), warning (likely a problem) or info (worth a look).',
  `When there is nothing worth reporting, answer ${NO_FINDINGS}.`,
].join('\n');

export interface ReviewRequest {
  /** The numbered diff (numberedDiff's text). */
  readonly diff: string;
  readonly leftOut: readonly string[];
  /** What the user asked to look at in particular ('' for a general review). */
  readonly focus: string;
  /** The repository's instructions, as a system text ('' or absent: none). */
  readonly instructions?: string;
  /** The branch the changes are counted from, when not HEAD. */
  readonly since?: string;
}

export function reviewPrompt(request: ReviewRequest): ChatMessage[] {
  const what = request.since === undefined ? 'The uncommitted changes of the repository' : `What the current branch changed since it left ${request.since}`;
  const parts = [`${what}:\n\n${request.diff}`];
  if (request.leftOut.length > 0) parts.push(`Also changed, not shown (deleted, binary, generated, private or over the length budget): ${request.leftOut.join(', ')}`);
  if (request.focus.trim() !== '') parts.push(`Look in particular at: ${request.focus.trim()}`);
  parts.push('Review these changes.');
  return [
    { role: 'system', content: systemText(INSTRUCTIONS, request.instructions)! },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

export type Severity = 'error' | 'warning' | 'info';

export interface Finding {
  readonly severity: Severity;
  readonly message: string;
  /** The place as the model wrote it (`path:line`). */
  readonly said: string;
  /** Where, when it could be placed on a line of a file shown. */
  readonly at: { readonly path: string; readonly line: number } | null;
}

/** A model off by more than this many lines from every hunk did not mean the changes shown. */
const NEAR_LINES = 10;

/** `path:12`, `path:L12`, `path:12-14`, `path (line 12)`, bold or in backticks, after a bullet or a number. */
const LOCATION = String.raw`(?:[-*•]\s+|\d+[.)]\s+)?(?:\*\*)?\`?([^\s\`:*()][^\`:*()]*?)\`?(?:\*\*)?(?::\s*(?:line\s*)?|\s*\(\s*line\s*|\s+line\s+)L?(\d+)(?:\s*[-–]\s*\d+)?\)?(?:\*\*)?`;
const SEVERITY_WORD = '(error|warning|warn|info|note|suggestion)';
/** `error: ...`, `**warning** - ...`, `[info] ...`, after a colon or a dash. */
const FINDING = new RegExp(String.raw`^${LOCATION}\s*[:\-–—]?\s*(?:\[${SEVERITY_WORD}\]\s*[:\-–—]?|(?:\*\*)?${SEVERITY_WORD}(?:\*\*)?\s*[:\-–—])\s*(.+)$`, 'i');

export function parseFindings(answer: string, shown: readonly FileDiff[]): Finding[] {
  const reader = new FindingsReader(shown);
  return [...reader.push(answer), ...reader.finish()];
}

/** The answer read as it streams: each finding as soon as its line is complete (reasoning in `<think>` left out). */
export class FindingsReader {
  readonly #shown: readonly FileDiff[];
  readonly #splitter = new ThinkTagSplitter();
  #pending = '';

  constructor(shown: readonly FileDiff[]) {
    this.#shown = shown;
  }

  push(text: string): Finding[] {
    this.#pending += this.#splitter.push(text).content;
    const end = this.#pending.lastIndexOf('\n');
    if (end < 0) return [];
    const complete = this.#pending.slice(0, end);
    this.#pending = this.#pending.slice(end + 1);
    return this.#read(complete);
  }

  finish(): Finding[] {
    const rest = this.#pending + this.#splitter.finish().content;
    this.#pending = '';
    return this.#read(rest);
  }

  #read(text: string): Finding[] {
    const findings: Finding[] = [];
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line === '' || line.startsWith('```') || line.toUpperCase().replace(/[.*_]/g, '').trim() === NO_FINDINGS) continue;
      const match = FINDING.exec(line);
      if (!match) continue;
      const [, path, number, bracketed, severity = bracketed, message] = match;
      const file = fileNamed(path!.trim(), this.#shown);
      findings.push({ severity: severityOf(severity!), message: message!.trim(), said: `${path!.trim()}:${number}`, at: file ? placed(file, Number(number)) : null });
    }
    return findings;
  }
}

function severityOf(word: string): Severity {
  const lower = word.toLowerCase();
  if (lower === 'error') return 'error';
  if (lower === 'warning' || lower === 'warn') return 'warning';
  return 'info';
}

/** The shown file the model meant: its exact path, or the one file whose path ends with what it wrote. */
function fileNamed(path: string, shown: readonly FileDiff[]): FileDiff | undefined {
  const clean = path.replace(/^(\.\/|[ab]\/)/, '');
  const exact = shown.find((file) => file.path === clean);
  if (exact) return exact;
  const ending = shown.filter((file) => file.path.endsWith(`/${clean}`) || clean.endsWith(`/${file.path}`));
  return ending.length === 1 ? ending[0] : undefined;
}

function placed(file: FileDiff, line: number): Finding['at'] {
  let best: { line: number; distance: number } | null = null;
  for (const hunk of file.hunks) {
    if (hunk.last < hunk.first) continue;
    const nearest = Math.min(Math.max(line, hunk.first), hunk.last);
    const distance = Math.abs(nearest - line);
    if (!best || distance < best.distance) best = { line: nearest, distance };
  }
  return best && best.distance <= NEAR_LINES ? { path: file.path, line: best.line } : null;
}

/**
 * What `@gateway /review ...` asks for: `since BRANCH` (or `against BRANCH`) first reviews what the current branch
 * changed since it left that branch; the rest, after an optional colon, is what to look at in particular.
 */
export function parseReviewAsk(prompt: string): { readonly since?: string; readonly focus: string } {
  const match = /^\s*(?:since|against)\s+([^\s:-][^\s:]*)\s*:?\s*([\s\S]*)$/i.exec(prompt);
  if (!match) return { focus: prompt.trim() };
  return { since: match[1]!, focus: match[2]!.trim() };
}
