/**
 * Markdown images on a line (`![alt](path "title")`, `![alt](<path with spaces>)`), where their alt text is, which of
 * them are files of the workspace, and a model's answer made into alt text. Pure.
 */

export interface ImageLink {
  /** Character offsets in the line: the whole link, and its alt text between the brackets. */
  readonly start: number;
  readonly end: number;
  readonly altStart: number;
  readonly altEnd: number;
  readonly alt: string;
  readonly target: string;
}

const IMAGE_LINK = /!\[([^\]\n]*)\]\(\s*(<[^>\n]+>|[^\s)]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*\)/g;

export function imageLinksIn(line: string): ImageLink[] {
  return [...line.matchAll(IMAGE_LINK)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    altStart: m.index + 2,
    altEnd: m.index + 2 + m[1]!.length,
    alt: m[1]!,
    target: m[2]!,
  }));
}

/** The link under `character`, else the line's only one. */
export function imageLinkAt(line: string, character: number): ImageLink | undefined {
  const links = imageLinksIn(line);
  return links.find((l) => character >= l.start && character <= l.end) ?? (links.length === 1 ? links[0] : undefined);
}

/**
 * The file a link's target names, as a path (relative to the document, or to the workspace when it starts with "/"),
 * or null for what is not a file here: a web address, a `data:` URL, any other scheme.
 */
export function localImagePath(target: string): string | null {
  const bare = target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
  if (/^[a-z][a-z0-9+.-]*:/i.test(bare) && !/^[a-z]:[\\/]/i.test(bare)) return null;
  const path = bare.replace(/[?#].*$/, '');
  if (path === '') return null;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The longest alt text kept: screen readers read it whole, and guidance keeps it near 125 characters. */
export const MAX_ALT_CHARS = 150;

/**
 * A model's answer as alt text: its first line, without a label ("Alt text:"), quotes or Markdown that would break
 * the link (brackets, backslashes), cut at a word within MAX_ALT_CHARS.
 */
export function cleanAltText(answer: string): string {
  const line = answer.replace(/<think>[\s\S]*?<\/think>/g, '').trim().split('\n').find((l) => l.trim() !== '') ?? '';
  let text = line
    .trim()
    .replace(/^(alt[ -]?text|description)\s*:\s*/i, '')
    .replace(/^["'`“”‘’]+|["'`“”‘’]+$/g, '')
    .replace(/[[\]\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length > MAX_ALT_CHARS) {
    const cut = text.slice(0, MAX_ALT_CHARS);
    const space = cut.lastIndexOf(' ');
    text = `${(space > MAX_ALT_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[,;:\s]+$/, '')}…`;
  }
  return text;
}
