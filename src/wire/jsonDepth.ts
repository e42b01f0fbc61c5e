/**
 * How deep a JSON text nests. JSON.parse takes thousands of levels, but JSON.stringify and every recursive
 * reader after it run out of stack long before: a body nested that deep was a 500. Texts too short to nest
 * past the limit are not read at all (a level takes two characters), so small bodies cost nothing.
 */

/** Deeper than this, a client's body is refused and an upstream's answer is not read: no real request or answer comes near. */
export const MAX_JSON_DEPTH = 256;

/** Whether a valid JSON text nests deeper than `limit` objects and arrays. */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (text.length <= 2 * limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string, skipped whole: most of a body is strings, and indexOf runs through them far faster than a loop.
      let end = text.indexOf('"', i + 1);
      while (end > 0 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end < 0) return false;
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** Whether the quote at `at` is escaped: an odd number of backslashes before it. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}
