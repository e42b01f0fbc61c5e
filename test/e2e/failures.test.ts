// The failures a user meets, as the user meets them: a wrong key typed into "Set API Key", a key the
// gateway has disabled, a base URL with a wrong /v1 suffix. The gateway is started by the test itself.
import assert from 'node:assert/strict';
import { saveScreenshot } from '../editor/artifacts.ts';
import { poll } from '../support/poll.ts';
import { gatewayEditorSession } from './support/gateway.ts';

describe('as a user, when something is wrong: 401 wrong key, 403 disabled key, wrong /v1 suffix', function () {
  this.timeout(120000);
  const editor = gatewayEditorSession({
    name: 'e2e-failures',
    settings: (gateway) => ({ 'modelGateway.baseUrl': gateway.url, 'modelGateway.model': 'echo', 'modelGateway.balanceRefreshSeconds': 0 }),
  });

  /** "Model Gateway: Set API Key", typed into its password box; returns the confirmation. */
  async function setApiKey(key: string) {
    const { workbench } = editor();
    await workbench.clearNotifications();
    await workbench.runCommand('Model Gateway: Set API Key');
    const box = await workbench.typeInQuickInput(key);
    assert.equal(box.password, true, 'the key is typed into a password box');
    return workbench.waitForNotification(/^API key saved/);
  }

  it('a wrong key set through "Set API Key" makes the self-test show the 401 diagnosis, and @gateway explains it', async () => {
    const { workbench, browser } = editor();
    const saved = await setApiKey('sk-e2e-this-key-was-never-issued-0000');
    assert.deepEqual(saved.buttons, ['Run Self-Test']);
    await workbench.clickNotificationButton(saved, 'Run Self-Test');
    const note = await workbench.waitForNotification(/^Self-test failed/);
    assert.equal(note.message, 'Self-test failed at step 2 (GET /v1/models): Authentication failed (401)');
    assert.ok(note.buttons.includes('Copy Problem Report'), note.buttons.join(', '));
    assert.ok(note.buttons.includes('Set API Key'), note.buttons.join(', '));
    const report = await workbench.markdownPreview((r) => r.strong.includes('Result: failed'));
    const models = report.rows.find((row) => row[1] === 'API key accepted (GET /v1/models)') ?? [];
    assert.match(models[2] ?? '', /failed/i, models.join(' | '));
    assert.equal(models[3], '401');
    assert.ok(report.strong.includes('Authentication failed (401)'), report.strong.join(' / '));
    assert.match(report.text, /HTTP status: 401/);
    assert.match(report.text, /\(check this first\)/);
    assert.ok(!report.text.includes('sk-e2e-this-key-was-never-issued-0000'), 'the report never shows the key');
    await saveScreenshot(browser.page, 'e2e-failures', 'self-test-401-wrong-key');
    // The gateway refuses to list models for this key, yet the configured model stays in the chat's
    // picker (not verified), so @gateway runs and explains the 401 instead of "Language model unavailable".
    await workbench.clearNotifications();
    await workbench.newChat();
    await poll('the configured model in the chat input', async () => (await workbench.chatPickers()).model === 'echo' || undefined);
    await workbench.sendChat('@gateway Does my key work?');
    const answer = await workbench.waitForChatResponse(/Authentication failed \(401\)/);
    assert.match(answer, /HTTP status: 401/);
    const buttons = await workbench.lastChatResponseButtons();
    assert.ok(buttons.includes('Set API Key'), `buttons: ${buttons.join(', ')}`);
    await saveScreenshot(browser.page, 'e2e-failures', 'chat-401-wrong-key');
  });

  it('a key disabled at the gateway makes @gateway chat show the 403 explanation with its fix buttons', async () => {
    const { workbench, browser, gateway } = editor();
    // The user works with a key; then the operator disables it (model-gateway key disable).
    await setApiKey(gateway.secondKey);
    await workbench.clearNotifications();
    await workbench.newChat();
    await poll('the gateway model in the chat input', async () => (await workbench.chatPickers()).model === 'echo' || undefined);
    await gateway.disableSecondKey();
    await workbench.sendChat('@gateway Is my key still working?');
    const text = await workbench.waitForChatResponse(/Request refused \(403\)/);
    await workbench.waitForStatusBar('modelGateway.balance', 'Gateway: key refused');
    assert.match(text, /The key is valid but was refused/);
    assert.match(text, /HTTP status: 403/);
    assert.match(text, /Troubleshooting order/);
    const buttons = await workbench.lastChatResponseButtons();
    assert.ok(buttons.includes('Run Self-Test'), `buttons: ${buttons.join(', ')}`);
    assert.ok(buttons.includes('Open Console'), `buttons: ${buttons.join(', ')}`);
    await saveScreenshot(browser.page, 'e2e-failures', 'chat-403-disabled-key');
    // A fix button does what it says: Run Self-Test from the chat answer diagnoses the same 403.
    await workbench.chatResponses().last().locator('.monaco-button', { hasText: 'Run Self-Test' }).first().click();
    const note = await workbench.waitForNotification(/^Self-test failed/);
    assert.match(note.message, /Request refused \(403\)/);
  });

  it('a base URL with a wrong /v1 suffix is diagnosed, naming the form that works', async () => {
    const { workbench, browser, gateway } = editor();
    await setApiKey(gateway.goodKey);
    // The status bar follows the key: refused a moment ago, a balance again now.
    await workbench.waitForStatusBar('modelGateway.balance', /^\$[\d,]+\.\d{2,6}$/);
    await workbench.clearNotifications();
    await workbench.runCommand('Model Gateway: Set Base URL');
    await workbench.typeInQuickInput(`${gateway.url}/v1/v1`);
    const saved = await workbench.waitForNotification(/^Base URL set to/);
    await workbench.clickNotificationButton(saved, 'Run Self-Test');
    const note = await workbench.waitForNotification(/^Self-test failed/);
    assert.match(note.message, /^Self-test failed at step 1/);
    // The preview already open shows the new report once it has re-rendered.
    const report = await workbench.markdownPreview((r) => r.text.includes('/v1/v1') && r.strong.includes('Result: failed'));
    assert.ok(report.text.includes(`Your base URL ends in /v1/v1. Use ${gateway.url}/v1 instead of ${gateway.url}/v1/v1.`), report.text);
    await saveScreenshot(browser.page, 'e2e-failures', 'self-test-wrong-v1-suffix');
  });
});
