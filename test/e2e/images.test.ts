// As a user: images from the gateway's image model, in the chat and in a Markdown document. With no image model set,
// /image offers the picker (image models only); the drawn image shows in the answer (a preview of the real size's
// proportions) with what it cost; Save to Workspace… goes through VS Code's own save dialog; Generate Image… in a
// Markdown document saves the image beside it and links it at the cursor. The gateway's offline echo image model
// draws one colour at the size asked.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveScreenshot } from '../editor/artifacts.ts';
import { poll } from '../support/poll.ts';
import { newAgentChat } from './support/agentMode.ts';
import { openFile } from './support/files.ts';
import { chatWithGatewayModel, gatewayCli, gatewayEditorSession } from './support/gateway.ts';

/** The image requests in the gateway's log (its CLI, one JSON row a line). */
function imageRequests(dataDir: string): number {
  return gatewayCli(dataDir, ['logs', '--json', '--limit', '200']).split('\n').filter((line) => line.includes('"/v1/images/generations"')).length;
}

/** A PNG's width and height, from its header. */
function pngSize(path: string): [number, number] {
  const bytes = readFileSync(path);
  assert.equal(bytes.toString('latin1', 1, 4), 'PNG', `${path} is a PNG`);
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('as a user, images drawn by the gateway in the chat and in a Markdown document', function () {
  this.timeout(180000);
  const workspace = mkdtempSync(join(tmpdir(), 'mg-images-'));
  writeFileSync(join(workspace, 'notes.md'), '# Release notes\n\n');
  // The user's own image of the same name: never replaced.
  mkdirSync(join(workspace, 'images'));
  writeFileSync(join(workspace, 'images', 'a-lighthouse-at-dusk.png'), 'mine');
  const editor = gatewayEditorSession({
    name: 'e2e-images',
    workspace,
    settings: (gateway) => ({ 'modelGateway.baseUrl': gateway.url, 'modelGateway.model': 'echo', 'modelGateway.balanceRefreshSeconds': 0, 'modelGateway.image.size': '512x512', 'chat.allowAnonymousAccess': true }),
  });

  it('/image without an image model offers the picker, which lists the image models', async () => {
    const { workbench, browser } = editor();
    await chatWithGatewayModel(editor(), 'echo');
    await workbench.sendChat('@gateway /image a lighthouse at dusk');
    await workbench.waitForChatResponse(/needs an image model/);
    await workbench.chatResponses().last().locator('.monaco-button', { hasText: 'Pick Image Model' }).first().click();
    const offered = await poll('the image models in the picker', async () => {
      const items = await workbench.quickPickItems();
      return items.length > 0 ? items.map((i) => i.label) : undefined;
    });
    assert.deepEqual(offered, ['echo-image'], 'image models only');
    await workbench.pick('echo-image');
    await workbench.waitForNotification(/Image model set to echo-image/);
    await saveScreenshot(browser.page, 'e2e-images', 'picked');
  });

  it('/image shows the drawn image and its cost; a leading size overrides the setting', async () => {
    const { workbench, browser } = editor();
    await workbench.sendChat('@gateway /image 320x200 a lighthouse at dusk');
    const answer = await workbench.waitForChatResponse(/echo-image · 320x200/);
    assert.match(answer, /\$0\.04/, 'the price of one image, from the gateway');
    const preview = await poll('the preview to load', async () => {
      const images = await workbench.chatResponses().last().locator('.chat-markdown-part img').evaluateAll((els) =>
        els.map((e) => ({ src: /^data:image\/jpeg;base64,/.test((e as HTMLImageElement).src), width: (e as HTMLImageElement).naturalWidth, height: (e as HTMLImageElement).naturalHeight, alt: (e as HTMLImageElement).alt })),
      );
      return images.find((i) => i.width > 0);
    });
    assert.deepEqual(preview, { src: true, width: 320, height: 200, alt: 'a lighthouse at dusk' });
    assert.deepEqual(await workbench.lastChatResponseButtons().then((b) => b.filter((t) => /Save|Open|Again/.test(t))), ['Save to Workspace…', 'Open Image', 'Draw Again']);
    await saveScreenshot(browser.page, 'e2e-images', 'answer');
    // Draw Again asks the chat for another drawing of the same prompt at the same size (the chat's list is virtual:
    // the gateway's log, not the rows on screen, says a second image was drawn).
    const drawn = () => imageRequests(editor().gateway.dataDir);
    const before = drawn();
    const mode = (await workbench.chatPickers()).mode;
    await workbench.chatResponses().last().locator('.monaco-button', { hasText: 'Draw Again' }).first().click();
    await poll('a second drawing', async () => drawn() > before || undefined);
    assert.match(await workbench.waitForChatResponse(/echo-image · 320x200/), /\$0\.04/);
    assert.equal((await workbench.chatPickers()).mode, mode, 'the chat stays in the mode it was in');
  });

  it('Save to Workspace… saves it through the save dialog, in images/ named after the prompt, never over a file', async () => {
    const { workbench, browser } = editor();
    await workbench.chatResponses().last().locator('.monaco-button', { hasText: 'Save to Workspace…' }).first().click();
    // code-server's save dialog is VS Code's own, in a quick input, holding the suggested path.
    const suggested = await poll('the save dialog with its suggested file', async () => {
      if (!(await workbench.quickInputVisible())) return undefined;
      const value = await browser.page.locator('.quick-input-widget input').first().inputValue();
      return value.endsWith('.png') ? value : undefined;
    }, 15000);
    assert.match(suggested, /images\/a-lighthouse-at-dusk-2\.png$/, 'beside the image of the same name, not over it');
    await saveScreenshot(browser.page, 'e2e-images', 'save-dialog');
    await browser.page.keyboard.press('Enter');
    const saved = join(workspace, 'images', 'a-lighthouse-at-dusk-2.png');
    await poll('the saved image', async () => existsSync(saved) || undefined, 15000);
    assert.deepEqual(pngSize(saved), [320, 200]);
    assert.equal(readFileSync(join(workspace, 'images', 'a-lighthouse-at-dusk.png'), 'utf8'), 'mine');
  });

  it('Generate Image… in a Markdown document saves the image beside it and links it at the cursor', async () => {
    const session = editor();
    const { workbench, browser } = session;
    await openFile(session, 'notes.md');
    await workbench.runCommand('Model Gateway: Generate Image…');
    await workbench.typeInQuickInput('a lighthouse at dusk');
    const saved = join(workspace, 'images', 'a-lighthouse-at-dusk-3.png');
    await poll('the new image beside the document (never over the first)', async () => existsSync(saved) || undefined, 30000);
    assert.deepEqual(pngSize(saved), [512, 512], 'the size setting');
    await browser.page.keyboard.press('ControlOrMeta+S');
    const text = await poll('the link in the saved document', async () => {
      const now = readFileSync(join(workspace, 'notes.md'), 'utf8');
      return now.includes('![') ? now : undefined;
    }, 15000);
    assert.equal(text, '# Release notes\n\n![a lighthouse at dusk](images/a-lighthouse-at-dusk-3.png)');
    await saveScreenshot(browser.page, 'e2e-images', 'markdown');
  });

  it("in Agent mode a chat model calls the image tool: the user confirms what it costs, the image lands in the workspace", async () => {
    const { workbench, browser } = editor();
    await workbench.runCommand('View: Close All Editors');
    await newAgentChat(workbench, () => workbench.waitForStatusBar('modelGateway.balance', /^\$/));
    await workbench.pickChatModel('echo');
    await workbench.sendChat('call modelGateway_generateImage {"prompt": "a red kite", "size": "64x48", "path": "assets/kite.jpg"}');
    // VS Code asks before a tool that costs money and writes a file runs, with what the tool said it would do.
    // VS Code 1.139 shows pending confirmations in a carousel above the chat input.
    const confirmation = browser.page.locator('.chat-tool-confirmation-carousel').first();
    const said = await poll('the confirmation', async () => {
      const text = (await confirmation.isVisible()) ? (await confirmation.innerText()).replace(/\s+/g, ' ') : '';
      return text.includes('Generate an image?') ? text : undefined;
    }, 30000);
    assert.match(said, /Generate an image\?/);
    assert.match(said, /echo-image draws a 64x48 image of "a red kite", charged to your gateway account, and it is saved in the workspace as assets\/kite\.jpg/);
    await saveScreenshot(browser.page, 'e2e-images', 'tool-confirmation');
    await confirmation.locator('.monaco-button:visible', { hasText: /^Allow/ }).first().click();
    const result = await workbench.waitForChatResponse(/Tool modelGateway_generateImage returned/, 30000);
    // The chat shows the path as a link to the file, by its name.
    assert.match(result, /Saved a 64x48 PNG image drawn by echo-image as (assets\/)?kite\.png \(it cost \$0\.04\)/);
    assert.deepEqual(pngSize(join(workspace, 'assets', 'kite.png')), [64, 48]);
    await saveScreenshot(browser.page, 'e2e-images', 'tool-result');
  });
});
