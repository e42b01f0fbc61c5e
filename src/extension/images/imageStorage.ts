/**
 * Where generated images are kept until the user saves them: the extension's global storage, `images/`, a folder per
 * answer (named by time, so the folder sorts oldest first) holding its images named after the prompt. Only the newest
 * KEPT_ANSWERS answers stay (the chat shows recent ones; older images are the user's to save), so generating never
 * fills the disk.
 */
import * as vscode from 'vscode';
import type { GeneratedImage } from '../../client/index.ts';
import { imageFileName } from './imagePrompt.ts';

export const KEPT_ANSWERS = 30;

export class ImageStorage {
  readonly #folder: vscode.Uri;
  #counter = 0;

  constructor(storage: vscode.Uri) {
    this.#folder = vscode.Uri.joinPath(storage, 'images');
  }

  /** Writes the images of one answer and prunes the oldest answers past KEPT_ANSWERS; the files, in order. */
  async save(images: readonly GeneratedImage[], prompt: string, now = new Date()): Promise<vscode.Uri[]> {
    // Two answers in one millisecond still differ by the counter.
    const stamp = `${now.toISOString().replace(/[-:.TZ]/g, '')}-${String(this.#counter++ % 1000).padStart(3, '0')}`;
    const answer = vscode.Uri.joinPath(this.#folder, stamp);
    await vscode.workspace.fs.createDirectory(answer);
    const uris: vscode.Uri[] = [];
    for (const [i, image] of images.entries()) {
      const uri = vscode.Uri.joinPath(answer, imageFileName(prompt, image.extension, i + 1, images.length));
      await vscode.workspace.fs.writeFile(uri, image.bytes);
      uris.push(uri);
    }
    await this.#prune();
    return uris;
  }

  async #prune(): Promise<void> {
    const entries = await vscode.workspace.fs.readDirectory(this.#folder);
    const answers = entries.map(([name]) => name).sort();
    for (const name of answers.slice(0, Math.max(0, answers.length - KEPT_ANSWERS))) {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.#folder, name), { recursive: true }).then(undefined, () => undefined);
    }
  }
}
