/**
 * The text of what the user attached to a @gateway prompt (#file, a selection, a
 * string variable): strings as they are, files and ranges read through VS Code,
 * each cut to a length, images for a model that takes them, the rest left out. What was cut or left out is
 * said in notes the turn shows the user (the model sees "(truncated)" in the text):
 * a long file used to be dropped without a word.
 */
import * as vscode from 'vscode';
import type { AttachedImage, Reference } from './history.ts';

export const MAX_CHARS_EACH = 50_000;
const MAX_CHARS_TOTAL = 150_000;
/** Files larger than this are not opened at all. */
const MAX_FILE_BYTES = 5_000_000;

export interface ReferenceNote {
  readonly label: string;
  /**
   * cut: sent in part; too_large: a file over MAX_FILE_BYTES; over_total: no room left; unreadable: could not be read;
   * image_not_sent: an image, for a model not known to take images; tool_failed: a #tool that failed or is not there;
   * tool_no_input: a #tool that needs input the model did not give (toolReferences.ts).
   */
  readonly reason: 'cut' | 'too_large' | 'over_total' | 'unreadable' | 'image_not_sent' | 'tool_failed' | 'tool_no_input';
}

export interface ReadReferences {
  /** In prompt order. */
  readonly references: Reference[];
  readonly images: AttachedImage[];
  readonly notes: ReferenceNote[];
}

/** VS Code's ChatReferenceBinaryData (a pasted or attached image), read by shape: it is not in the stable API types. */
interface BinaryData {
  readonly mimeType: string;
  data(): Thenable<Uint8Array>;
}
function isImageData(value: unknown): value is BinaryData {
  const v = value as Partial<BinaryData> | null;
  return typeof v === 'object' && v !== null && typeof v.mimeType === 'string' && v.mimeType.toLowerCase().startsWith('image/') && typeof v.data === 'function';
}

type Read = { label: string; text: string } | { label: string; tooLarge: true };

async function textOf(value: unknown): Promise<Read | undefined> {
  if (typeof value === 'string') return { label: '', text: value };
  if (value instanceof vscode.Uri) {
    const stat = await vscode.workspace.fs.stat(value);
    if (stat.type & vscode.FileType.Directory) return undefined;
    const label = vscode.workspace.asRelativePath(value);
    if (stat.size > MAX_FILE_BYTES) return { label, tooLarge: true };
    const document = await vscode.workspace.openTextDocument(value);
    return { label, text: document.getText() };
  }
  if (value instanceof vscode.Location) {
    const document = await vscode.workspace.openTextDocument(value.uri);
    const range = value.range;
    return { label: `${vscode.workspace.asRelativePath(value.uri)}:${range.start.line + 1}-${range.end.line + 1}`, text: document.getText(range) };
  }
  return undefined;
}

/**
 * The attachments of a prompt: texts within the budget, and images when `imageInput` (the model takes them; VS Code
 * lets an image be attached only to such a model, but @gateway may ask the configured model instead).
 */
export async function referenceTexts(references: readonly vscode.ChatPromptReference[], log: vscode.LogOutputChannel, imageInput = false): Promise<ReadReferences> {
  const out: Reference[] = [];
  const images: AttachedImage[] = [];
  const notes: ReferenceNote[] = [];
  let total = 0;
  // VS Code lists references last-in-prompt first; send them in prompt order.
  for (const reference of [...references].reverse()) {
    const fallbackLabel = reference.modelDescription || reference.id;
    if (isImageData(reference.value)) {
      if (!imageInput) notes.push({ label: fallbackLabel, reason: 'image_not_sent' });
      else {
        try {
          images.push({ mimeType: reference.value.mimeType, data: await reference.value.data() });
        } catch {
          notes.push({ label: fallbackLabel, reason: 'unreadable' });
        }
      }
      continue;
    }
    if (total >= MAX_CHARS_TOTAL) {
      notes.push({ label: reference.value instanceof vscode.Uri ? vscode.workspace.asRelativePath(reference.value) : fallbackLabel, reason: 'over_total' });
      continue;
    }
    try {
      const found = await textOf(reference.value);
      if (!found) continue;
      const label = found.label || fallbackLabel;
      if ('tooLarge' in found) {
        notes.push({ label, reason: 'too_large' });
        continue;
      }
      const room = Math.min(MAX_CHARS_EACH, MAX_CHARS_TOTAL - total);
      const text = found.text.length > room ? `${found.text.slice(0, room)}\n… (truncated)` : found.text;
      if (text !== found.text) notes.push({ label, reason: 'cut' });
      total += text.length;
      out.push({ label, text });
    } catch (error) {
      notes.push({ label: fallbackLabel, reason: 'unreadable' });
      log.debug(`@gateway: reference ${reference.id} skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { references: out, images, notes };
}
