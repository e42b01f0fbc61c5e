/**
 * A unified diff read into files and hunks, and written back for a reviewing model with each line's number in the
 * new file, so that a finding can name the exact line (a model counting lines from `@@` headers is off by a few).
 * Also the lines each file's hunks cover, to place what the model answers. Pure.
 */
import { GENERATED, splitDiff } from '../commitMessage/prompt.ts';

export interface DiffHunk {
  /** First and last line of the new file this hunk shows (last < first for a hunk that only removes). */
  readonly first: number;
  readonly last: number;
  /** The hunk's lines for the model: `  12 + code`, `  13   code`, `     - code`. */
  readonly text: string;
}

export interface FileDiff {
  /** The new side's path, relative to the repository (the old one for a deletion). */
  readonly path: string;
  readonly deleted: boolean;
  readonly binary: boolean;
  readonly hunks: readonly DiffHunk[];
}

const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

export function parseDiff(diff: string): FileDiff[] {
  return splitDiff(diff).map(({ path, text }) => {
    const lines = text.split('\n');
    const deleted = lines.some((line) => line.startsWith('deleted file mode'));
    const binary = lines.some((line) => line.startsWith('Binary files ') || line === 'GIT binary patch');
    const hunks: DiffHunk[] = [];
    let numbered: string[] | null = null;
    let first = 0;
    let next = 0;
    const close = () => {
      if (numbered) hunks.push({ first, last: next - 1, text: numbered.join('\n') });
    };
    for (const line of lines) {
      const header = HUNK_HEADER.exec(line);
      if (header) {
        close();
        // `+N,0`: the hunk only removes (after line N); it shows no line of the new file to point at.
        first = Number(header[1]) + (header[2] === '0' ? 1 : 0);
        next = first;
        numbered = [line];
        continue;
      }
      if (!numbered) continue;
      const kind = line[0];
      if (kind === '+' || kind === ' ') numbered.push(`${String(next++).padStart(5)} ${kind === '+' ? '+' : ' '} ${line.slice(1)}`);
      else if (kind === '-') numbered.push(`      - ${line.slice(1)}`);
      else if (kind === '\\') numbered.push(`        ${line}`);
    }
    close();
    return { path: deleted ? (/^--- a\/(.+)$/m.exec(text)?.[1] ?? path) : path, deleted, binary, hunks };
  });
}

export interface NumberedDiff {
  /** What the model reads: per file a `File: path` line and its numbered hunks. */
  readonly text: string;
  /** The files shown, in order. */
  readonly shown: readonly FileDiff[];
  /** Files changed but not shown: over the budget, binary, deleted, generated, or where secrets live. */
  readonly leftOut: readonly string[];
}

/** The files in order, each whole while it fits in `budget` characters; the rest by name (a `secret` one never shown). */
export function numberedDiff(files: readonly FileDiff[], budget: number, secret: (path: string) => boolean = () => false): NumberedDiff {
  const parts: string[] = [];
  const shown: FileDiff[] = [];
  const leftOut: string[] = [];
  let used = 0;
  for (const file of files) {
    if (file.deleted || file.binary || file.hunks.length === 0 || GENERATED.test(file.path) || secret(file.path)) {
      leftOut.push(file.path);
      continue;
    }
    const text = `File: ${file.path}\n${file.hunks.map((hunk) => hunk.text).join('\n')}\n`;
    if (used + text.length > budget) {
      leftOut.push(file.path);
      continue;
    }
    parts.push(text);
    shown.push(file);
    used += text.length;
  }
  return { text: parts.join('\n'), shown, leftOut };
}

/** A file git does not track yet, as the diff that adding it would show. */
export function newFileDiff(path: string, content: string): string {
  if (content === '') return `diff --git a/${path} b/${path}\nnew file mode 100644\n`;
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  const tail = content.endsWith('\n') ? '' : '\n\\ No newline at end of file';
  return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}${tail}\n`;
}
