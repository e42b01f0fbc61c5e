// The device approval page in a real browser (Debian's chromium, issue 14): the link the editor opens
// (/device?user_code=...) asks a visitor to sign in first, then shows which client asks, for which
// account and code; ticking a model narrows the key; Approve, and the device collects a key limited to
// it. /device without a code takes it typed; a wrong code is explained; Deny ends in access_denied.
// The strict CSP blocks nothing on the page. Waits poll the DOM.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DEVICE_GRANT_TYPE } from '../../../src/contract/index.ts';
import { answerOf, type Answer } from '../../support/answer.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { makeUser, PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

describe('the device approval page in a browser', function () {
  this.timeout(90_000);
  let t: Started;
  let browser: ConsoleBrowser;
  let page: Page;
  const shots = join(SCREENSHOTS, 'device-browser');

  before(async () => {
    t = await startTestGateway();
    await makeUser(t.admin(), 'ada', 1_000_000);
    browser = await launchConsoleBrowser(t.gw.url);
    page = browser.page;
    mkdirSync(shots, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function form(path: string, params: Record<string, string>): Promise<Answer> {
    const res = await fetch(t.gw.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
    return answerOf(res.status, res.headers, await res.text());
  }
  const ask = async (clientName: string) => (await form('/api/oauth/device_authorization', { client_id: 'model-gateway-vscode', client_name: clientName })).json;
  const collect = (deviceCode: string) => form('/api/oauth/token', { grant_type: DEVICE_GRANT_TYPE, device_code: deviceCode });

  it('from the editor\'s link: sign in, see the client and code, tick echo, approve; the device gets a key for echo only', async () => {
    const asked = await ask('VS Code on lab-pc');
    await page.goto(asked.verification_uri_complete);
    await page.locator('#device-signin').waitFor({ state: 'visible' });
    await page.locator('#device-user-name').fill('ada');
    await page.locator('#device-user-password').fill(PASSWORD);
    await page.locator('#device-signin-button').click();
    await page.locator('#device-request').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#device-client').innerText(), 'VS Code on lab-pc');
    assert.equal(await page.locator('#device-account').innerText(), 'ada');
    assert.equal(await page.locator('#device-user-code').innerText(), asked.user_code);
    assert.equal(await page.locator('#who-name').innerText(), 'ada');
    await page.locator('#device-models input[value="echo"]').check();
    await page.screenshot({ path: join(shots, 'approve.png') });
    await page.locator('#device-approve').click();
    await page.locator('#device-done').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#device-done-title').innerText(), 'Approved');
    assert.equal(new URL(page.url()).search, '', 'the code left the address bar');

    const got = await collect(asked.device_code);
    assert.equal(got.status, 200, got.text);
    const key = (await t.admin().listKeys()).find((k) => k.name === got.json.key_name);
    assert.deepEqual(key?.models, ['echo']);
  });

  it('/device without a code: a wrong one is explained, the right one typed in lower case is found; Deny ends in access_denied', async () => {
    const asked = await ask('VS Code on other-pc');
    await page.goto(`${t.gw.url}/device`);
    await page.locator('#device-code').waitFor({ state: 'visible' });
    await page.locator('#user-code').fill('BBBB-BBBB');
    await page.locator('#device-code-button').click();
    await page.locator('#alert').waitFor({ state: 'visible' });
    assert.match(await page.locator('#alert').innerText(), /No sign-in request is waiting with this code/);
    // The 404 of the wrong code is a failed fetch in the browser's console: expected here.
    browser.problems.length = 0;
    await page.locator('#user-code').fill(asked.user_code.toLowerCase());
    await page.locator('#device-code-button').click();
    await page.locator('#device-request').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#device-client').innerText(), 'VS Code on other-pc');
    await page.locator('#device-deny').click();
    await page.locator('#device-done').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#device-done-title').innerText(), 'Denied');
    const answer = await collect(asked.device_code);
    assert.deepEqual([answer.status, answer.json.error], [400, 'access_denied']);
  });

  it('blocked nothing and threw nothing (CSP, page errors)', () => {
    assert.deepEqual(browser.problems, []);
  });
});
