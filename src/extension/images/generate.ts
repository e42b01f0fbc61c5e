/**
 * One image request as /image, Generate Image… and the image tool make it: the prompt and size asked, the image model
 * from the settings, the answer kept in the extension's storage.
 */
import type * as vscode from 'vscode';
import type { GeneratedImage } from '../../client/index.ts';
import type { ExtensionServices } from '../services.ts';
import type { ImagePrompt } from './imagePrompt.ts';

/** A drawn image (its bytes and format) and the file it is kept in. */
export interface DrawnImage extends GeneratedImage {
  readonly uri: vscode.Uri;
  /** From 1, in the answer's order. */
  readonly index: number;
}

export interface DrawnImages {
  readonly model: string;
  readonly size: string;
  /** The prompt as sent, without its size. */
  readonly prompt: string;
  readonly files: readonly DrawnImage[];
  readonly costUsd: number | null;
  /** The prompt as the model rewrote it, when it did. */
  readonly revisedPrompt: string | null;
}

/** Draws `asked` with the configured image model; throws the client's errors (the caller explains them). */
export async function generateImages(services: ExtensionServices, { prompt, size }: ImagePrompt, signal: AbortSignal, progress: (line: string) => void): Promise<DrawnImages> {
  const { t } = services;
  const model = services.settings.current.imageModel;
  const client = await services.connection.require();
  progress(t('Drawing with {0} at {1}…', model, size));
  try {
    const answer = await client.images({ model, prompt, size }, { signal });
    const uris = await services.images.save(answer.images, prompt);
    const revised = answer.images.map((i) => i.revisedPrompt).find((r) => r !== null && r !== prompt) ?? null;
    return {
      model,
      size,
      prompt,
      files: answer.images.map((image, i) => ({ ...image, uri: uris[i]!, index: i + 1 })),
      costUsd: answer.costUsd,
      revisedPrompt: revised,
    };
  } finally {
    services.connection.balanceMayHaveChanged();
  }
}
