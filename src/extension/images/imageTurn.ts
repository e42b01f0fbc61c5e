/**
 * `@gateway /image <description>`: an image drawn by the gateway's image model (`modelGateway.imageModel`), shown in
 * the answer as a preview (thumbnail.ts) and its file, kept in the extension's storage (imageStorage.ts), with Save to
 * Workspace…, Open Image and Draw Again. A leading size ("/image 1536x1024 a wide banner") overrides
 * `modelGateway.image.size`.
 */
import * as vscode from 'vscode';
import { formatUsd } from '../../contract/index.ts';
import { signalFromToken } from '../chat/abort.ts';
import { showView } from '../chat/chatTurn.ts';
import { failureView } from '../chat/views.ts';
import { escapeMarkdown, explainError } from '../errors/explain.ts';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { generateImages } from './generate.ts';
import { altText, parseImagePrompt } from './imagePrompt.ts';
import { scaledPreview } from './offThread.ts';

export async function answerImage(services: ExtensionServices, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const { t } = services;
  const failed = { metadata: { command: 'image', failed: true } };
  const asked = parseImagePrompt(request.prompt, services.settings.current.imageSize);
  if (asked.prompt === '') {
    stream.markdown(escapeMarkdown(t('Describe the image after /image, for example: /image a flat icon of a paper plane, blue on white. Start with a size to change it: /image 1536x1024 a wide banner.')));
    return failed;
  }
  const model = services.settings.current.imageModel;
  if (model === '') {
    showView(stream, { markdown: t("/image needs an image model. Pick one of the gateway's image models."), buttons: [{ title: t('Pick Image Model'), command: COMMANDS.pickImageModel }] });
    return failed;
  }
  const abort = signalFromToken(token);
  try {
    const drawn = await generateImages(services, asked, abort.signal, (line) => stream.progress(line));
    for (const image of drawn.files) {
      const preview = await scaledPreview(image.bytes, image.mime);
      if (preview) stream.markdown(`![${altText(drawn.prompt)}](${preview})\n\n`);
      else stream.anchor(image.uri);
    }
    const revised = drawn.revisedPrompt ? ` · ${t('drawn as: {0}', drawn.revisedPrompt)}` : '';
    const cost = drawn.costUsd === null ? '' : ` · ${formatUsd(drawn.costUsd)}`;
    stream.markdown(`_${escapeMarkdown(`${drawn.model} · ${drawn.size}${cost}${revised}`)}_`);
    for (const image of drawn.files) {
      const suffix = drawn.files.length > 1 ? ` ${image.index}` : '';
      stream.button({ title: t('Save to Workspace…') + suffix, command: COMMANDS.saveImage, arguments: [{ uri: image.uri.toString() }] });
      stream.button({ title: t('Open Image') + suffix, command: 'vscode.open', arguments: [image.uri] });
    }
    // Each drawing of a prompt differs: one click asks for another, at the same size.
    stream.button({ title: t('Draw Again'), command: 'workbench.action.chat.open', arguments: [{ query: `@gateway /image ${drawn.size} ${drawn.prompt}`, isPartialQuery: false }] });
    return { metadata: { command: 'image', model: drawn.model, size: drawn.size, images: drawn.files.map((f) => f.uri.toString()) } };
  } catch (error) {
    if (token.isCancellationRequested) return failed;
    const explanation = explainError(error, t, services.connection.secrets());
    services.log.warn(`@gateway /image failed: ${explanation.errorText}`);
    showView(stream, failureView(explanation, t));
    return failed;
  } finally {
    abort.dispose();
  }
}
