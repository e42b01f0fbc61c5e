// As a user: an image attached to a @gateway prompt (Add Context, a .png of the workspace) reaches a gateway model
// that takes images; before, @gateway dropped it without a word. The gateway's offline echo model takes images and
// counts them in its answer.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveScreenshot } from '../editor/artifacts.ts';
import { poll } from '../support/poll.ts';
import { chatWithGatewayModel, gatewayEditorSession } from './support/gateway.ts';

/** A whole 1x1 PNG (the workbench decodes an attached image). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('as a user, an image attached to @gateway reaches a model that takes images', function () {
  this.timeout(180000);
  const workspace = mkdtempSync(join(tmpdir(), 'mg-chat-image-'));
  writeFileSync(join(workspace, 'shot.png'), PNG);
  const editor = gatewayEditorSession({
    name: 'e2e-chat-image',
    workspace,
    settings: (gateway) => ({ 'modelGateway.baseUrl': gateway.url, 'modelGateway.model': 'echo', 'modelGateway.balanceRefreshSeconds': 0 }),
  });

  it('the echo model answers that it got the image', async () => {
    const { workbench, browser } = editor();
    await chatWithGatewayModel(editor(), 'echo');
    // Attached as a user does: Add Context (the + under the chat input), then the file by name.
    await workbench.openChat();
    await browser.page.locator('.interactive-input-part .chat-attachment-button, .interactive-input-part [aria-label^="Add Context"]').first().click();
    await poll('the context picker', () => workbench.quickInputVisible().then((v) => v || undefined), 10000);
    await browser.page.keyboard.type('shot.png');
    await workbench.pick(/shot\.png/);
    await workbench.sendChat('@gateway what is this?');
    const answer = await workbench.waitForChatResponse(/You said/);
    await saveScreenshot(browser.page, 'e2e-chat-image', 'answer');
    assert.match(answer, /\(and 1 image\)/);
  });
});
