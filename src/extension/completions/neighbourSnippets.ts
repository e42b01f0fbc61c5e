/**
 * Which part of another open file goes with a completion request: the window of lines most like the code before
 * the cursor (by the names both use: Jaccard similarity of their sets of identifiers), as Copilot picks snippets
 * from neighbouring tabs. A file's first lines (its imports) are rarely what the next line needs; the function the
 * user is calling, or the one they are writing a twin of, is. No vscode import.
 */

/** Lines in a snippet, and between the starts of two windows (they overlap). */
export const SNIPPET_LINES = 40;
const STEP_LINES = 10;
/** Lines before the cursor whose names the windows are compared with. */
export const REFERENCE_LINES = 40;
/** Of a long neighbour, only the start is searched: its index is built once per version of the file. */
export const MAX_SEARCHED_CHARS = 100_000;

const IDENTIFIER = /[A-Za-z_$][\w$]{2,}/g;
/** Keywords of the common languages: shared by any two pieces of code, they say nothing about either. */
const KEYWORDS = new Set(('abstract and any array async await boolean break case catch class const continue def default del delete '
  + 'elif else end enum except export extends false final finally for from func function if impl implements import in '
  + 'instanceof interface let match mod module mut new nil none not null number object or override package pass private '
  + 'protected pub public raise readonly return self static string struct super switch then this throw throws true try '
  + 'type typeof undefined use var void while with yield').split(' '));

/** The identifiers of `text`, keywords and one- or two-letter names left out. */
export function identifiersOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const [word] of text.matchAll(IDENTIFIER)) if (!KEYWORDS.has(word.toLowerCase())) found.add(word);
  return found;
}

/** The identifiers of the last REFERENCE_LINES lines before `offset`. */
export function referenceIdentifiers(text: string, offset: number): Set<string> {
  let start = offset;
  for (let lines = 0; start > 0 && lines < REFERENCE_LINES; lines++) start = text.lastIndexOf('\n', start - 1);
  return identifiersOf(text.slice(Math.max(0, start), offset));
}

/** A neighbour's windows of lines, indexed by identifier. */
export interface SnippetIndex {
  readonly lines: readonly string[];
  /** Identifier -> the windows (by number) that use it. */
  readonly postings: ReadonlyMap<string, readonly number[]>;
  /** Distinct identifiers per window. */
  readonly sizes: readonly number[];
}

export function snippetIndex(text: string): SnippetIndex {
  const searched = text.length <= MAX_SEARCHED_CHARS ? text : text.slice(0, text.lastIndexOf('\n', MAX_SEARCHED_CHARS) + 1 || MAX_SEARCHED_CHARS);
  const lines = searched.split('\n');
  const postings = new Map<string, number[]>();
  const sizes: number[] = [];
  for (let start = 0, window = 0; start === 0 || start + SNIPPET_LINES - STEP_LINES < lines.length; start += STEP_LINES, window++) {
    const words = identifiersOf(lines.slice(start, start + SNIPPET_LINES).join('\n'));
    sizes.push(words.size);
    for (const word of words) {
      const list = postings.get(word);
      if (list) list.push(window);
      else postings.set(word, [window]);
    }
  }
  return { lines, postings, sizes };
}

/** The window most like `reference` (the first of equals), or null when none shares a name with it. */
export function bestSnippet(index: SnippetIndex, reference: ReadonlySet<string>): { text: string; startLine: number; score: number } | null {
  const shared = new Uint32Array(index.sizes.length);
  for (const word of reference) for (const window of index.postings.get(word) ?? []) shared[window]!++;
  let best = -1;
  let bestScore = 0;
  shared.forEach((count, window) => {
    const score = count / (index.sizes[window]! + reference.size - count);
    if (count > 0 && score > bestScore) [best, bestScore] = [window, score];
  });
  if (best < 0) return null;
  const startLine = best * STEP_LINES;
  return { text: index.lines.slice(startLine, startLine + SNIPPET_LINES).join('\n'), startLine, score: bestScore };
}
