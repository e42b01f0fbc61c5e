/**
 * Write Alt Text (the light bulb on a Markdown image, and the palette): the chat model looks at the image file and the
 * text around it and writes its alt text into the brackets. Needs a model the gateway lists as taking images; one that
 * does not is named with the fix (Pick Model), before anything is sent.
 */
import * as vscode from 'vscode';
import { imageFormat } from '../../client/index.ts';
import { chatModelOrPick } from '../commands/chatModelOrPick.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS } from '../ids.ts';
import { supportsImageInput } from '../lm/modelInfo.ts';
import type { ExtensionServices } from '../services.ts';
import type { Translate } from '../translate.ts';
import { scaledJpeg } from '../images/offThread.ts';
import { altTextMessages } from './altTextPrompt.ts';
import { cleanAltText, imageLinkAt, localImagePath, type ImageLink } from './imageLinks.ts';

/** Where the image is: a document and a position on the line of its link. */
export interface AltTextArguments {
  readonly uri: vscode.Uri;
  readonly position: vscode.Position;
}

/** Images read at most: past this a file is not an image a document shows. */
const MAX_IMAGE_FILE_BYTES = 32 * 1024 * 1024;
/** How an image goes to the model: 1024 px a side (what vision models read at), within ~3 MB of base64. */
const MODEL_IMAGE_TRIES = [[1024, 85], [768, 75], [512, 70]] as const;
const MAX_MODEL_IMAGE_CHARS = 4_000_000;
/** Lines of the document either side of the image sent with it. */
const CONTEXT_LINES = 6;

const MARKDOWN = [{ language: 'markdown' }, { language: 'mdx' }];

export function registerAltText(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const provider: vscode.CodeActionProvider = {
    provideCodeActions(document, range) {
      const link = imageLinkAt(document.lineAt(range.start.line).text, range.start.character);
      if (!link || localImagePath(link.target) === null) return [];
      const title = link.alt.trim() === '' ? vscode.l10n.t('Write Alt Text with Model Gateway') : vscode.l10n.t('Rewrite Alt Text with Model Gateway');
      const action = new vscode.CodeAction(title, link.alt.trim() === '' ? vscode.CodeActionKind.QuickFix : vscode.CodeActionKind.RefactorRewrite);
      const args: AltTextArguments = { uri: document.uri, position: new vscode.Position(range.start.line, link.start) };
      action.command = { command: COMMANDS.writeAltText, title, arguments: [args] };
      return [action];
    },
  };
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider(MARKDOWN, provider, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.RefactorRewrite] }),
    vscode.commands.registerCommand(COMMANDS.writeAltText, (arg?: AltTextArguments) => writeAltText(services, arg)),
  );
}

/** The alt text written, or undefined (nothing to do, cancelled, or a failure the user was shown). */
async function writeAltText(services: ExtensionServices, arg: AltTextArguments | undefined): Promise<string | undefined> {
  const { t } = services;
  const editor = vscode.window.activeTextEditor;
  const document = arg ? await vscode.workspace.openTextDocument(arg.uri) : editor?.document;
  const position = arg?.position ?? editor?.selection.active;
  const link = document && position ? imageLinkAt(document.lineAt(position.line).text, position.character) : undefined;
  const path = link ? localImagePath(link.target) : null;
  if (!document || !position || !link || path === null) {
    void vscode.window.showInformationMessage(t('Put the cursor on a Markdown image of the workspace, ![alt](path/to/image.png), to write its alt text.'));
    return undefined;
  }
  const model = await chatModelOrPick(services, t('Pick a chat model that takes images to write alt text with.'));
  if (model === null) return undefined;
  const file = imageFile(document, path);
  const image = await imageDataUrl(file, t);
  if (typeof image !== 'string') {
    // The file, not the gateway: said plainly, without the gateway's troubleshooting.
    void vscode.window.showWarningMessage(image.problem);
    return undefined;
  }
  try {
    return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Writing alt text with {0}', model), cancellable: true }, async (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const client = await services.connection.require();
      const entry = (await client.models({ signal: abort.signal })).find((m) => m.id === model);
      if (entry && !supportsImageInput(entry)) {
        const pick = t('Pick Model');
        void vscode.window.showWarningMessage(t('{0} does not take images (the gateway does not list it as taking them). Pick a model that does to write alt text.', model), pick).then((choice) => {
          if (choice) void vscode.commands.executeCommand(COMMANDS.pickModel);
        });
        return undefined;
      }
      const first = Math.max(0, position.line - CONTEXT_LINES);
      const last = Math.min(document.lineCount - 1, position.line + CONTEXT_LINES);
      const context = document.getText(new vscode.Range(first, 0, last, document.lineAt(last).text.length));
      const messages = altTextMessages({ image, context, path: vscode.workspace.asRelativePath(file), current: link.alt });
      const answer = await client.chat({ model, messages, max_tokens: 200 }, { signal: abort.signal });
      services.connection.balanceMayHaveChanged();
      const alt = cleanAltText(answer.choices[0]?.message.content ?? '');
      if (alt === '') {
        void vscode.window.showWarningMessage(t('{0} gave no alt text for this image.', model));
        return undefined;
      }
      return (await replaceAlt(document, position.line, link, alt)) ? alt : undefined;
    });
  } catch (error) {
    if ((error as { family?: unknown }).family === 'aborted') return undefined;
    await showErrorWithFixes(services, error, t('Could not write the alt text'));
    return undefined;
  }
}

/** The file a link names: relative to the document, or to its workspace folder when it starts with "/". */
function imageFile(document: vscode.TextDocument, path: string): vscode.Uri {
  if (path.startsWith('/')) {
    const root = vscode.workspace.getWorkspaceFolder(document.uri)?.uri;
    if (root) return vscode.Uri.joinPath(root, path);
  }
  return vscode.Uri.joinPath(document.uri, '..', path);
}

/** The image as a model reads it (PNG and JPEG scaled to 1024 px as JPEG, WebP and GIF as they are), or what is wrong with the file. */
async function imageDataUrl(file: vscode.Uri, t: Translate): Promise<string | { readonly problem: string }> {
  const name = vscode.workspace.asRelativePath(file);
  const stat = await vscode.workspace.fs.stat(file).then(undefined, () => undefined);
  if (!stat) return { problem: t('{0} is not there.', name) };
  if (stat.size > MAX_IMAGE_FILE_BYTES) return { problem: t('{0} is over {1} MB: too large an image to send.', name, MAX_IMAGE_FILE_BYTES / 1024 / 1024) };
  const bytes = Buffer.from(await vscode.workspace.fs.readFile(file));
  const format = imageFormat(bytes);
  if (!format) return { problem: t('{0} is not a PNG, JPEG, WebP or GIF image.', name) };
  const scaled = await scaledJpeg(bytes, format.mime, MODEL_IMAGE_TRIES, MAX_MODEL_IMAGE_CHARS);
  if (scaled) return scaled;
  if ((bytes.length * 4) / 3 > MAX_MODEL_IMAGE_CHARS) return { problem: t('{0} is too large an image to send; a PNG or JPEG would be scaled down.', name) };
  return `data:${format.mime};base64,${bytes.toString('base64')}`;
}

/** Writes `alt` between the link's brackets, if the link is still where it was (the user may have typed meanwhile). */
async function replaceAlt(document: vscode.TextDocument, line: number, asked: ImageLink, alt: string): Promise<boolean> {
  const now = line < document.lineCount ? imageLinkAt(document.lineAt(line).text, asked.start) : undefined;
  if (!now || now.target !== asked.target) return false;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(line, now.altStart, line, now.altEnd), alt);
  return vscode.workspace.applyEdit(edit);
}
