// As a user, in a real VS Code (code-server): "Model Gateway: Sign In" against the bundled gateway (started
// by the test, a console user made with its CLI, the password on standard input). The code is read from
// the editor's notification, approved in the gateway's console in a second page of the same chromium, and
// the key lands in secure storage: the status bar shows the user's balance, the self-test passes with it,
// and it is nowhere in settings.json or the extension's log. A second sign-in denied in the browser saves
// nothing and leaves the first key working.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../editor/artifacts.ts';
import { poll } from '../support/poll.ts';
import { gatewayCli, gatewayEditorSession } from './support/gateway.ts';

const BALANCE = 'modelGateway.balance';
const USER = 'ada';
const PASSWORD = 'correct horse battery staple';
const CLIENT = `code-server on ${hostname()}`;
const CODE = /^Your sign-in code is ([A-Z]{4}-[A-Z]{4})\. Confirm it in the browser\.$/;

describe('as a user: Sign In with the browser (device flow) against the bundled gateway', function () {
  this.timeout(120000);
  let consolePage: Page | undefined;
  let keyName = '';
  const editor = gatewayEditorSession({
    name: 'e2e-sign-in',
    // A console user with an account of their own and $5 on it, as an operator makes one.
    prepare: (gateway) => {
      gatewayCli(gateway.dataDir, ['user', 'create', USER], `${PASSWORD}\n`);
      gatewayCli(gateway.dataDir, ['account', 'topup', USER, '5']);
    },
    settings: (gateway) => ({ 'modelGateway.baseUrl': gateway.url, 'modelGateway.model': 'echo', 'modelGateway.balanceRefreshSeconds': 0 }),
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && consolePage) await saveScreenshot(consolePage, 'failures', `${this.currentTest.title.slice(0, 40)}-console`);
  });

  /** Runs Sign In and returns the user code its notification shows. */
  async function startSignIn(): Promise<string> {
    const { workbench, browser } = editor();
    await workbench.clearNotifications();
    await workbench.runCommand('Model Gateway: Sign In');
    const note = await workbench.waitForNotification(CODE);
    assert.deepEqual(note.buttons, ['Copy code', 'Open browser']);
    const code = CODE.exec(note.message)![1]!;
    const progress = await workbench.waitForNotification(/^Model Gateway: waiting for approval in the browser/);
    assert.ok(progress.message.includes(code), progress.message);
    // openExternal opened the approval page with the code in a new tab (code-server reaches the
    // gateway's port through its /proxy/PORT/ path); it is closed, the test approves on its own tab.
    const port = new URL(editor().gateway.url).port;
    const tab = await poll('the approval page opened by the editor', async () => browser.context.pages().find((p) => p.url().endsWith(`/${port}/device?user_code=${code}`)), 30000);
    await tab.close();
    await browser.page.bringToFront();
    return code;
  }

  /** The console's /device page in a second page of the editor's chromium, the code typed in: the request to approve. */
  async function openRequest(code: string): Promise<Page> {
    const { browser, gateway: gw } = editor();
    consolePage ??= await browser.context.newPage();
    const page = consolePage;
    await page.goto(`${gw.url}/device`);
    await page.locator('#device-signin:visible, #device-code:visible').first().waitFor({ timeout: 30000 });
    if (await page.locator('#device-signin').isVisible()) {
      await page.locator('#device-user-name').fill(USER);
      await page.locator('#device-user-password').fill(PASSWORD);
      await page.locator('#device-signin-button').click();
    }
    await page.locator('#device-code').waitFor({ state: 'visible', timeout: 30000 });
    await page.locator('#user-code').fill(code);
    await page.locator('#device-code-button').click();
    await page.locator('#device-request').waitFor({ state: 'visible', timeout: 30000 });
    assert.equal(await page.locator('#device-user-code').innerText(), code);
    assert.equal(await page.locator('#device-account').innerText(), USER);
    // "<app> on <machine>": code-server names itself, on this machine.
    assert.equal(await page.locator('#device-client').innerText(), CLIENT);
    return page;
  }

  it('the editor starts with no key: the status bar says so', async () => {
    const { workbench } = editor();
    const text = await workbench.waitForStatusBar(BALANCE, (t) => t !== 'Gateway');
    assert.match(text, /^Gateway: /);
    assert.doesNotMatch(text, /\$/);
  });

  it('Sign In shows a code; approved in the console, the key lands in secure storage and the balance is the user\'s', async () => {
    const { workbench, browser } = editor();
    const code = await startSignIn();
    const page = await openRequest(code);
    await saveScreenshot(page, 'e2e-sign-in', 'approve');
    await page.locator('#device-approve').click();
    await page.locator('#device-done').waitFor({ state: 'visible', timeout: 30000 });
    assert.equal(await page.locator('#device-done-title').innerText(), 'Approved');
    // Back to the editor's tab: input to a tab in the background stalls in headless chromium.
    await browser.page.bringToFront();
    // The extension polls at the gateway's interval (5 s) and saves what it collects.
    const signedIn = await workbench.waitForNotification(/^Signed in: the new key/, 60000);
    keyName = /"(.+)"/.exec(signedIn.message)?.[1] ?? '';
    assert.notEqual(keyName, '', signedIn.message);
    await saveScreenshot(browser.page, 'e2e-sign-in', 'signed-in');
    // ada's account, not the bootstrap one ($10): the key is the approver's.
    assert.equal(await workbench.waitForStatusBar(BALANCE, /^\$/), '$5.00');
    // The key made by the approval is on ada's account, under the name the editor reported.
    const keys = gatewayCli(editor().gateway.dataDir, ['key', 'list']);
    assert.ok(keys.split('\n').some((line) => line.includes(keyName)), keys);
  });

  it('the self-test passes with the new key, and the key is in neither settings.json nor the log', async () => {
    const { workbench, server } = editor();
    await workbench.clearNotifications();
    await workbench.runCommand('Model Gateway: Run Self-Test');
    const note = await workbench.waitForNotification(/^Self-test/);
    assert.equal(note.message, 'Self-test passed: all 3 steps OK.');
    // The gateway logged the self-test's chat under the signed-in key's name.
    const logs = gatewayCli(editor().gateway.dataDir, ['logs', '--limit', '5']);
    assert.ok(logs.includes(keyName), logs);
    const settings = readFileSync(join(server.root, 'user-data', 'User', 'settings.json'), 'utf8');
    assert.doesNotMatch(settings, /sk-[A-Za-z0-9_-]{20,}/);
    assert.doesNotMatch(settings, /apiKey/i);
    const extensionLog = server.findLogs('Model Gateway').map((file) => readFileSync(file, 'utf8')).join('\n');
    assert.match(extensionLog, /Sign In: a new key .* was saved in secure storage/);
    assert.doesNotMatch(extensionLog, /sk-[A-Za-z0-9_-]{20,}/);
  });

  it('a second Sign In denied in the console saves nothing and says so; the first key still works', async () => {
    const { workbench } = editor();
    const code = await startSignIn();
    const page = await openRequest(code);
    await page.locator('#device-deny').click();
    await page.locator('#device-done').waitFor({ state: 'visible', timeout: 30000 });
    assert.equal(await page.locator('#device-done-title').innerText(), 'Denied');
    await editor().browser.page.bringToFront();
    const note = await workbench.waitForNotification(/denied/, 60000);
    assert.equal(note.message, 'The sign-in was denied in the browser. No key was saved.');
    await workbench.clearNotifications();
    await workbench.runCommand('Model Gateway: Run Self-Test');
    assert.equal((await workbench.waitForNotification(/^Self-test/)).message, 'Self-test passed: all 3 steps OK.');
  });
});
