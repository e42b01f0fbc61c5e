/**
 * What `@gateway /image` and Generate Image… are asked, read without VS Code: a leading size ("1536x1024 a wide
 * banner") overrides `modelGateway.image.size` for that one image, and the file a generated image is saved as is
 * named after its prompt.
 */

/** A size as the images API takes it: WIDTHxHEIGHT, or "auto" (the model chooses). */
export const IMAGE_SIZE = /^(auto|[1-9]\d{0,3}x[1-9]\d{0,3})$/;

export interface ImagePrompt {
  readonly prompt: string;
  /** The size asked in the prompt, else the setting's. */
  readonly size: string;
}

/** The prompt, with a leading size (`512x512`, `1024×1536`, `auto`) taken out as the image's size. */
export function parseImagePrompt(text: string, defaultSize: string): ImagePrompt {
  const trimmed = text.trim();
  const leading = /^([1-9]\d{0,3})\s*[x×]\s*([1-9]\d{0,3})(?=\s|$)\s*/i.exec(trimmed);
  if (leading) return { prompt: trimmed.slice(leading[0].length).trim(), size: `${leading[1]}x${leading[2]}` };
  return { prompt: trimmed, size: defaultSize };
}

/** The longest file name stem made from a prompt. */
const STEM_CHARS = 48;

/**
 * A file name for an image of `prompt`: its first words in lower case, joined by hyphens (letters of any script
 * kept, everything else dropped), else "image"; `index` counts the images of one answer from 1.
 */
export function imageFileName(prompt: string, extension: string, index = 1, of = 1): string {
  const words = prompt.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  let stem = '';
  for (const word of words) {
    const next = stem === '' ? word : `${stem}-${word}`;
    if (next.length > STEM_CHARS) break;
    stem = next;
  }
  if (stem === '') stem = (words[0] ?? 'image').slice(0, STEM_CHARS);
  return `${stem}${of > 1 ? `-${index}` : ''}.${extension}`;
}

/** Text as a Markdown image's alt text: one line, without the brackets that would end it. */
export function altText(prompt: string): string {
  const line = prompt.replace(/[[\]\\]/g, '').replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** A path as a Markdown link target: forward slashes, and angle brackets around one with spaces or parentheses. */
export function markdownTarget(relativePath: string): string {
  const path = relativePath.replace(/\\/g, '/');
  return /[\s()<>]/.test(path) ? `<${path.replace(/[<>]/g, encodeURIComponent)}>` : path;
}

/** The extensions an image file may be asked with (a tool's path). */
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'webp', 'gif']);

export type WorkspaceImagePath =
  | { readonly kind: 'path'; readonly folder: string; readonly name: string; readonly extensionChanged: boolean }
  | { readonly kind: 'refused'; readonly why: string };

/**
 * Where in the workspace an image asked for by a tool goes: `asked` relative to the workspace folder (a folder when it
 * ends in "/"; none means `images/`), named after the prompt when no file name is given, with the extension of the
 * format the model sent (a ".jpg" asked for a PNG is saved as ".png"). Absolute paths and ".." are refused: a tool's
 * input never writes outside the workspace.
 */
export function workspaceImagePath(asked: string | undefined, prompt: string, extension: string): WorkspaceImagePath {
  const path = (asked ?? '').trim().replace(/\\/g, '/');
  if (/^(\/|~|[A-Za-z]:)/.test(path)) return { kind: 'refused', why: `"${path}" is not a path relative to the workspace folder.` };
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { kind: 'refused', why: `"${path}" leads out of the workspace folder.` };
  if (segments.length === 0) return { kind: 'path', folder: 'images', name: imageFileName(prompt, extension), extensionChanged: false };
  const isFolder = path.endsWith('/');
  const folder = (isFolder ? segments : segments.slice(0, -1)).join('/');
  if (isFolder) return { kind: 'path', folder, name: imageFileName(prompt, extension), extensionChanged: false };
  const file = segments.at(-1)!;
  const dot = file.lastIndexOf('.');
  const given = dot > 0 ? file.slice(dot + 1).toLowerCase() : '';
  if (!IMAGE_EXTENSIONS.has(given)) return { kind: 'path', folder, name: `${file}.${extension}`, extensionChanged: false };
  const same = given === extension || (given === 'jpeg' && extension === 'jpg');
  return { kind: 'path', folder, name: same ? file : `${file.slice(0, dot)}.${extension}`, extensionChanged: !same };
}
