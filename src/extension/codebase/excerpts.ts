/**
 * The search's hits as the excerpts a /codebase question is sent with: overlapping or touching chunks of one
 * file joined into one range, the best first, at most a few. Pure.
 */
import type { Hit } from './indexData.ts';

export interface Excerpt {
  readonly file: string;
  /** 0-based lines, inclusive. */
  readonly start: number;
  readonly end: number;
  readonly score: number;
}

export const MAX_EXCERPTS = 6;

export function excerptsOf(hits: readonly Hit[], max = MAX_EXCERPTS): Excerpt[] {
  const out: Excerpt[] = [];
  for (const hit of [...hits].sort((a, b) => b.score - a.score)) {
    const near = out.findIndex((e) => e.file === hit.file && hit.span.start <= e.end + 1 && hit.span.end >= e.start - 1);
    if (near !== -1) {
      const e = out[near]!;
      out[near] = { ...e, start: Math.min(e.start, hit.span.start), end: Math.max(e.end, hit.span.end) };
    } else if (out.length < max) out.push({ file: hit.file, start: hit.span.start, end: hit.span.end, score: hit.score });
  }
  return out;
}
