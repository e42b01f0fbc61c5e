// As a user with a wrong key, adding Model Gateway's models from VS Code's Language Models editor: the list
// cannot be read, and an empty list alone left the user guessing. The reason comes as a notification, once
// (the contract's words, not repeated as "the gateway said"), with the fix buttons.
import assert from 'node:assert/strict';
import { saveScreenshot } from '../editor/artifacts.ts';
import { gatewayEditorSession } from './support/gateway.ts';

describe('as a user with a wrong key, adding the gateway\'s models says why none is listed', function () {
  this.timeout(180000);
  const editor = gatewayEditorSession({
    name: 'e2e-manage-models',
    settings: (gateway) => ({ 'modelGateway.baseUrl': gateway.url, 'modelGateway.balanceRefreshSeconds': 0 }),
  });

  it('a notification says the key was refused and offers to set another', async () => {
    const { workbench, browser } = editor();
    const page = browser.page;
    await workbench.runCommand('Model Gateway: Set API Key');
    await workbench.typeInQuickInput('sk-wrong-key-for-manage-models-0001');
    await workbench.waitForNotification(/^API key saved/);
    await workbench.clearNotifications();
    await workbench.runCommand('Chat: Manage Language Models');
    await page.getByRole('button', { name: 'Add Models' }).click();
    await page.getByText('Model Gateway', { exact: true }).last().click();
    const shown = await workbench.waitForNotification(/^Model Gateway could not list its models: Authentication failed \(401\)/);
    await saveScreenshot(page, 'e2e-manage-models', 'wrong-key-notification');
    assert.ok(shown.buttons.includes('Set API Key'), `fix buttons: ${shown.buttons.join(', ')}`);
    assert.equal(shown.message.split('Invalid token').length - 1, 1, `the gateway's words once: ${shown.message}`);
    assert.match(shown.message, /\(Request id: \S+\)/);
    assert.ok(!shown.message.includes('sk-wrong-key'), 'the key is not shown');
  });
});
