// @gateway /image and Generate Image… in the real extension host, against the bundled gateway's echo image model:
// the preview and the kept file, the buttons run as a click would, the storage bounded, the gateway's refusals
// explained with nothing kept, and Generate Image… outside a Markdown document opening VS Code's image preview.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import type { GenerateImageResult } from '../../../src/extension/images/imageCommands.ts';
import { KEPT_ANSWERS } from '../../../src/extension/images/imageStorage.ts';
import { runImageTool } from '../../../src/extension/images/imageTool.ts';
import { askGateway, suiteGatewayHooks, waitFor } from './helpers.ts';

async function setImageSettings(api: ModelGatewayApi, model: string | undefined, size: string | undefined): Promise<void> {
  const config = vscode.workspace.getConfiguration('modelGateway');
  await config.update('imageModel', model, vscode.ConfigurationTarget.Global);
  await config.update('image.size', size, vscode.ConfigurationTarget.Global);
  await waitFor('the extension to read the image settings', () => (api.services.settings.current.imageModel === (model ?? '') && api.services.settings.current.imageSize === (size ?? '1024x1024')) || undefined);
}

/** The answer folders kept in the extension's storage, oldest first. */
async function keptAnswers(api: ModelGatewayApi): Promise<string[]> {
  const folder = vscode.Uri.joinPath(api.services.context.globalStorageUri, 'images');
  return (await vscode.workspace.fs.readDirectory(folder).then(undefined, () => [] as [string, vscode.FileType][])).map(([name]) => name).sort();
}

describe('images: @gateway /image and Generate Image…', () => {
  const hooks = suiteGatewayHooks();
  before(async () => {
    await setImageSettings(hooks.api, 'echo-image', '200x100');
  });
  after(async () => {
    await setImageSettings(hooks.api, undefined, undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('/image shows a preview, keeps the image, and its buttons save and open it', async () => {
    const answer = await askGateway(hooks.api, 'a red kite over the sea', 'image');
    assert.match(answer.markdown, /^!\[a red kite over the sea\]\(data:image\/jpeg;base64,[A-Za-z0-9+/=]+\)/);
    assert.match(answer.markdown, /echo-image · 200x100 · \$0\.04/);
    assert.deepEqual(answer.buttons, ['Save to Workspace…', 'Open Image', 'Draw Again']);
    const again = answer.commands.find((c) => c.title === 'Draw Again')!;
    assert.deepEqual([again.command, again.arguments], ['workbench.action.chat.open', [{ query: '@gateway /image 200x100 a red kite over the sea', isPartialQuery: false }]]);
    const [file] = (answer.result?.metadata as { images: string[] }).images;
    const kept = vscode.Uri.parse(file!);
    assert.match(kept.path, /\/images\/\d{17}-\d{3}\/a-red-kite-over-the-sea\.png$/);
    const bytes = await vscode.workspace.fs.readFile(kept);
    assert.deepEqual([Buffer.from(bytes).readUInt32BE(16), Buffer.from(bytes).readUInt32BE(20)], [200, 100]);
    // Open Image, as a click runs it: VS Code's image preview of the kept file.
    const open = answer.commands.find((c) => c.title === 'Open Image')!;
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));
    const tab = await waitFor('the image preview', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.uri.toString() === kept.toString() ? input : undefined;
    });
    assert.equal(tab.viewType, 'imagePreview.previewEditor');
  });

  it('keeps the images of the last KEPT_ANSWERS answers only', async () => {
    const before = (await keptAnswers(hooks.api)).length;
    for (let i = before; i <= KEPT_ANSWERS + 1; i++) {
      const answer = await askGateway(hooks.api, `kite number ${i}`, 'image');
      assert.match(answer.markdown, /echo-image/, answer.markdown);
    }
    const kept = await keptAnswers(hooks.api);
    assert.equal(kept.length, KEPT_ANSWERS);
    const newest = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(hooks.api.services.context.globalStorageUri, 'images', kept.at(-1)!));
    assert.deepEqual(newest.map(([name]) => name), [`kite-number-${KEPT_ANSWERS + 1}.png`]);
  });

  it("explains the gateway's refusals, and keeps nothing", async () => {
    const kept = await keptAnswers(hooks.api);
    const tooBig = await askGateway(hooks.api, '2048x2048 a huge kite', 'image');
    assert.match(tooBig.markdown, /1x1 to 1024x1024/, 'what the model said');
    assert.ok(tooBig.buttons.includes('Run Self-Test'), tooBig.buttons.join());
    assert.equal((tooBig.result?.metadata as { failed?: boolean }).failed, true);
    await setImageSettings(hooks.api, 'echo', '200x100');
    const chatModel = await askGateway(hooks.api, 'a kite', 'image');
    assert.match(chatModel.markdown, /chat/i, chatModel.markdown);
    assert.deepEqual(await keptAnswers(hooks.api), kept);
    await setImageSettings(hooks.api, 'echo-image', '200x100');
  });

  it('says what /image needs: a description, an image model', async () => {
    assert.match((await askGateway(hooks.api, '  ', 'image')).markdown, /Describe the image after \/image/);
    assert.match((await askGateway(hooks.api, '512x512', 'image')).markdown, /Describe the image after \/image/, 'a size alone');
    await setImageSettings(hooks.api, undefined, '200x100');
    const none = await askGateway(hooks.api, 'a kite', 'image');
    assert.match(none.markdown, /needs an image model/);
    assert.deepEqual(none.commands.map((c) => c.command), ['modelGateway.pickImageModel']);
    await setImageSettings(hooks.api, 'echo-image', '200x100');
  });

  it('the image tool saves into the workspace with the real format\'s extension, never over a file, never outside it', async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri;
    const folder = `mg-tool-images-${Date.now()}`;
    const source = new vscode.CancellationTokenSource();
    try {
      const first = await runImageTool(hooks.api.services, { prompt: 'a red kite', size: '48x32', path: `${folder}/kite.jpg` }, source.token);
      assert.match(first, new RegExp(`^Saved a 48x32 PNG image drawn by echo-image as ${folder}/kite\\.png \\(it cost \\$0\\.04\\)\\.\nThe path asked for had another extension`));
      const bytes = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, folder, 'kite.png')));
      assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [48, 32]);
      const second = await runImageTool(hooks.api.services, { prompt: 'a blue kite', size: '48x32', path: `${folder}/kite.png` }, source.token);
      assert.match(second, new RegExp(`as ${folder}/kite-2\\.png .*\\n${folder}/kite\\.png already existed and was left as it was\\.`, 's'));
      const kept = await keptAnswers(hooks.api);
      await assert.rejects(runImageTool(hooks.api.services, { prompt: 'a kite', path: '../outside.png' }, source.token), /leads out of the workspace folder/);
      await assert.rejects(runImageTool(hooks.api.services, { prompt: ' ' }, source.token), /prompt is empty/);
      await assert.rejects(runImageTool(hooks.api.services, { prompt: 'a kite', size: 'huge' }, source.token), /not WIDTHxHEIGHT/);
      assert.deepEqual(await keptAnswers(hooks.api), kept, 'nothing drawn, nothing charged');
    } finally {
      source.dispose();
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, folder), { recursive: true }).then(undefined, () => undefined);
    }
  });

  it('Generate Image… outside a Markdown document opens the image in the image preview', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const done = await vscode.commands.executeCommand<GenerateImageResult | undefined>('modelGateway.generateImage', { prompt: '64x64 a small kite' });
    assert.ok(done);
    assert.equal(done.inserted, undefined);
    assert.equal(done.files.length, 1);
    const bytes = Buffer.from(await vscode.workspace.fs.readFile(done.files[0]!));
    assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [64, 64]);
    await waitFor('the image preview', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.uri.toString() === done.files[0]!.toString() || undefined;
    });
    const kept = await keptAnswers(hooks.api);
    assert.equal(await vscode.commands.executeCommand('modelGateway.generateImage', { prompt: '512x512 ' }), undefined, 'a size alone draws nothing');
    assert.deepEqual(await keptAnswers(hooks.api), kept);
  });
});
