/**
 * Image generation as a language-model tool (`#gatewayImage`, and for agent mode): any model in VS Code's chat, the
 * gateway's or another vendor's, can have the gateway's image model draw an icon, an illustration or a placeholder and
 * save it in the workspace. It costs money and writes a file, so VS Code asks the user first, showing the model, size,
 * prompt and path. The file never replaces another, and never lands outside the workspace.
 */
import * as vscode from 'vscode';
import { formatUsd } from '../../contract/index.ts';
import { signalFromToken } from '../chat/abort.ts';
import { escapeMarkdown } from '../errors/explain.ts';
import type { ExtensionServices } from '../services.ts';
import { generateImages } from './generate.ts';
import { IMAGE_SIZE, workspaceImagePath } from './imagePrompt.ts';
import { copyInto } from './workspaceCopy.ts';

export const IMAGE_TOOL = 'modelGateway_generateImage';

export interface ImageToolInput {
  readonly prompt?: unknown;
  readonly size?: unknown;
  readonly path?: unknown;
}

interface Asked {
  readonly prompt: string;
  readonly size: string;
  readonly path: string | undefined;
}

/** The input as asked, or the reason it cannot be drawn (in English: the calling model reads it). */
function askedOf(input: ImageToolInput, defaultSize: string): Asked | string {
  const prompt = typeof input.prompt === 'string' ? input.prompt.trim() : '';
  if (prompt === '') return 'The prompt is empty: describe the image in words.';
  const size = typeof input.size === 'string' && input.size.trim() !== '' ? input.size.trim().toLowerCase() : defaultSize;
  if (!IMAGE_SIZE.test(size)) return `The size "${size}" is not WIDTHxHEIGHT (for example 1024x1024) or auto.`;
  const path = typeof input.path === 'string' && input.path.trim() !== '' ? input.path.trim() : undefined;
  const where = workspaceImagePath(path, prompt, 'png');
  return where.kind === 'refused' ? `${where.why} Give a path inside the workspace, such as assets/icon.png.` : { prompt, size, path };
}

/** Draws the image and saves it in the workspace; the text the calling model reads. Throws what it should tell the user. */
export async function runImageTool(services: ExtensionServices, input: ImageToolInput, token: vscode.CancellationToken): Promise<string> {
  const model = services.settings.current.imageModel;
  if (model === '') throw new Error('Model Gateway has no image model set (modelGateway.imageModel). The user can pick one with the command "Model Gateway: Pick Image Model".');
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) throw new Error('No folder is open in VS Code: there is no workspace to save the image in.');
  const asked = askedOf(input, services.settings.current.imageSize);
  if (typeof asked === 'string') throw new Error(asked);
  const abort = signalFromToken(token);
  try {
    const drawn = await generateImages(services, asked, abort.signal, () => undefined);
    const image = drawn.files[0]!;
    const where = workspaceImagePath(asked.path, asked.prompt, image.extension);
    if (where.kind === 'refused') throw new Error(where.why);
    const target = await copyInto(image.uri, vscode.Uri.joinPath(root, where.folder), where.name);
    const saved = vscode.workspace.asRelativePath(target, false);
    const wanted = where.folder === '' ? where.name : `${where.folder}/${where.name}`;
    const lines = [`Saved a ${drawn.size} ${image.extension.toUpperCase()} image drawn by ${drawn.model} as ${saved}${drawn.costUsd === null ? '' : ` (it cost ${formatUsd(drawn.costUsd)})`}.`];
    if (where.extensionChanged) lines.push(`The path asked for had another extension; the model sent ${image.extension.toUpperCase()}, so the file ends in .${image.extension}.`);
    if (saved !== wanted) lines.push(`${wanted} already existed and was left as it was.`);
    if (drawn.revisedPrompt) lines.push(`The image model rewrote the prompt as: ${drawn.revisedPrompt}`);
    return lines.join('\n');
  } finally {
    abort.dispose();
  }
}

export function registerImageTool(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const { t } = services;
  context.subscriptions.push(
    vscode.lm.registerTool<ImageToolInput>(IMAGE_TOOL, {
      prepareInvocation: (options) => {
        const model = services.settings.current.imageModel;
        const asked = askedOf(options.input, services.settings.current.imageSize);
        // Nothing to confirm when it cannot run: invoke says why.
        if (model === '' || typeof asked === 'string' || !vscode.workspace.workspaceFolders?.length) return { invocationMessage: t('Generating an image') };
        const path = asked.path ?? t('images/ (named after the prompt)');
        return {
          invocationMessage: t('Generating an image with {0}', model),
          confirmationMessages: {
            title: t('Generate an image?'),
            message: new vscode.MarkdownString(escapeMarkdown(t('{0} draws a {1} image of "{2}", charged to your gateway account, and it is saved in the workspace as {3}.', model, asked.size, asked.prompt, path))),
          },
        };
      },
      invoke: async (options, token) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await runImageTool(services, options.input, token))]),
    }),
  );
}
