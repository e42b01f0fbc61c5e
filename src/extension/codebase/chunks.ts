/**
 * A file's text cut into the pieces the codebase index embeds: windows of lines that overlap a little, so
 * that code near a cut is whole in one of them, each short enough for any embedding model. Pure.
 */

export interface Chunk {
  /** 0-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

export const CHUNK_LINES = 40;
const OVERLAP_LINES = 8;
/** Characters of a chunk at most (~1,000 tokens of code): minified or generated lines are cut, not sent whole. */
export const MAX_CHUNK_CHARS = 4_000;
const MAX_LINE_CHARS = 400;

/** The chunks of `text`, each headed by its file's path (what a model matches a question like "where is the parser" against). */
export function chunkText(path: string, text: string): Chunk[] {
  const lines = text.split(/\r?\n/);
  // A final line break ends the last line; it does not start another.
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const chunks: Chunk[] = [];
  for (let start = 0; start < lines.length; start += CHUNK_LINES - OVERLAP_LINES) {
    const end = Math.min(lines.length, start + CHUNK_LINES) - 1;
    const body = lines.slice(start, end + 1).map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line));
    const joined = body.join('\n');
    // Nothing to find in blank or punctuation-only windows (the closing braces at a file's end).
    if (/[\p{L}\p{N}]/u.test(joined)) chunks.push({ startLine: start, endLine: end, text: `${path}\n${joined}`.slice(0, MAX_CHUNK_CHARS) });
    if (end >= lines.length - 1) break;
  }
  return chunks;
}

/** Whether bytes look like text worth indexing: no NUL in the first 8 KB (how git tells binary files). */
export function looksLikeText(bytes: Uint8Array): boolean {
  return !bytes.subarray(0, 8192).includes(0);
}
