/** A Markdown code fence longer than any run of backticks in `text`, so nothing in the text can close it early. Pure. */
export function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}
