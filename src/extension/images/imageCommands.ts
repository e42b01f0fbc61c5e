/**
 * Generate Image… (palette; in a Markdown editor, its context menu): the image drawn with progress and Cancel; in a
 * Markdown document it is saved beside the document (`images/`, never over a file) and linked at the cursor,
 * elsewhere it opens in VS Code's image preview with Save to Workspace…. Save to Workspace… (the /image answer's
 * button) copies a kept image where the user chooses, the workspace's `images/` (or its root) offered.
 */
import * as vscode from 'vscode';
import { givenOrAsked } from '../commands/givenOrAsked.ts';
import { showErrorWithFixes } from '../errors/showError.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { generateImages } from './generate.ts';
import { KEPT_ANSWERS } from './imageStorage.ts';
import { copyInto, freeUri } from './workspaceCopy.ts';
import { altText, imageFileName, markdownTarget, parseImagePrompt } from './imagePrompt.ts';

/** What Save to Workspace… carries: plain data, as chat buttons keep their arguments. */
export interface SaveImageArguments {
  readonly uri: string;
}

/** What Generate Image… did: the images drawn (kept in storage), and the file linked into a Markdown document. */
export interface GenerateImageResult {
  readonly files: vscode.Uri[];
  readonly inserted?: vscode.Uri;
}

/** Documents whose images are linked as `![alt](path)`. */
const MARKDOWN_LANGUAGES = new Set(['markdown', 'mdx']);

export function registerImageCommands(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const prompts: string[] = [];
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.generateImage, (arg?: { prompt?: unknown }) => generateImage(services, prompts, arg?.prompt)),
    vscode.commands.registerCommand(COMMANDS.saveImage, (arg?: SaveImageArguments) => saveImage(services, arg)),
  );
}

async function generateImage(services: ExtensionServices, prompts: string[], given: unknown): Promise<GenerateImageResult | undefined> {
  const { t } = services;
  if (services.settings.current.imageModel === '' && !(await vscode.commands.executeCommand<string | undefined>(COMMANDS.pickImageModel))) return undefined;
  const text = await givenOrAsked(given, prompts, {
    title: t('Model Gateway: Generate Image'),
    prompt: t('Describe the image. Start with a size to change it from {0}, for example: 1536x1024 a wide banner.', services.settings.current.imageSize),
    example: t('a flat icon of a paper plane, blue on white'),
  });
  if (text === undefined) return undefined;
  const asked = parseImagePrompt(text, services.settings.current.imageSize);
  if (asked.prompt === '') {
    void vscode.window.showInformationMessage(t('Describe the image after its size, for example: 1536x1024 a wide banner.'));
    return undefined;
  }
  // The document is the one active when asked: the progress notification takes no focus, but the user may move on.
  const editor = vscode.window.activeTextEditor;
  const document = editor && MARKDOWN_LANGUAGES.has(editor.document.languageId) && !editor.document.isUntitled ? editor.document : undefined;
  let drawn;
  try {
    drawn = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Generating an image'), cancellable: true }, (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return generateImages(services, asked, abort.signal, (message) => progress.report({ message }));
    });
  } catch (error) {
    if ((error as { family?: unknown }).family === 'aborted') return undefined;
    await showErrorWithFixes(services, error, t('Could not generate the image'));
    return undefined;
  }
  const files = drawn.files.map((f) => f.uri);
  if (editor && document && vscode.window.visibleTextEditors.includes(editor)) {
    const folder = vscode.Uri.joinPath(document.uri, '..', 'images');
    const links: string[] = [];
    let first: vscode.Uri | undefined;
    for (const file of drawn.files) {
      const target = await copyInto(file.uri, folder, imageFileName(drawn.prompt, file.extension, file.index, drawn.files.length));
      first ??= target;
      links.push(`![${altText(drawn.prompt)}](${markdownTarget(`images/${target.path.split('/').pop()}`)})`);
    }
    await editor.edit((edit) => edit.replace(editor.selection, links.join('\n\n')));
    return { files, ...(first ? { inserted: first } : {}) };
  }
  await vscode.commands.executeCommand('vscode.open', files[0]);
  void vscode.window.showInformationMessage(t('Image drawn with {0}. Save it to keep it: only the images of the last {1} answers are kept.', drawn.model, KEPT_ANSWERS), t('Save to Workspace…')).then((choice) => {
    if (choice) void saveImage(services, { uri: files[0]!.toString() });
  });
  return { files };
}

/** Copies a kept image where the user chooses; the file, or undefined when cancelled or gone. */
async function saveImage(services: ExtensionServices, arg: SaveImageArguments | undefined): Promise<vscode.Uri | undefined> {
  const { t } = services;
  if (typeof arg?.uri !== 'string') return undefined;
  const source = vscode.Uri.parse(arg.uri);
  if (!(await vscode.workspace.fs.stat(source).then(() => true, () => false))) {
    void vscode.window.showInformationMessage(t('This image is no longer kept: only the images of the last {0} answers are. Draw it again to save it.', KEPT_ANSWERS));
    return undefined;
  }
  const name = source.path.split('/').pop() ?? 'image.png';
  const extension = name.split('.').pop() ?? 'png';
  const suggested = await suggestedTarget(name);
  const target = await vscode.window.showSaveDialog({ title: t('Save Image'), saveLabel: t('Save'), filters: { [t('Images')]: [extension] }, ...(suggested ? { defaultUri: suggested } : {}) });
  if (!target) return undefined;
  try {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
    await vscode.workspace.fs.copy(source, target, { overwrite: true });
  } catch (error) {
    void vscode.window.showErrorMessage(t('Could not save the image: {0}', (error as Error).message));
    return undefined;
  }
  return target;
}

/**
 * Where a saved image is suggested: the workspace's `images/` when it has one, else its root (a save dialog in a
 * remote window refuses a folder that does not exist), never over a file.
 */
async function suggestedTarget(name: string): Promise<vscode.Uri | undefined> {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!root) return undefined;
  const images = vscode.Uri.joinPath(root, 'images');
  const hasImages = await vscode.workspace.fs.stat(images).then((s) => s.type === vscode.FileType.Directory, () => false);
  return freeUri(hasImages ? images : root, name);
}
