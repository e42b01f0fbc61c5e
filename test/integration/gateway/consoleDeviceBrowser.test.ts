// Device sign-in approval (/device, RFC 8628; contract 4.11) in a real browser (Debian's chromium): the link an
// editor opens (/device?user_code=...) asks a visitor to sign in first, right there, then shows which client
// asks, for which account and code; ticking a model narrows the key; Approve, and the device collects a key
// limited to it; a client name with markup is shown as text and its key listed on the keys page. /device without a
// code takes it typed; a wrong code is explained; a lower-case code is found; Deny ends in access_denied.
// Screenshots in both languages and on a phone. No page error and nothing blocked by the CSP.
import assert from 'node:assert/strict';
import { DEVICE_GRANT_TYPE } from '../../../src/contract/index.ts';
import { answerOf, type Answer } from '../../support/answer.ts';
import { PASSWORD } from './consoleAgent.ts';
import { assertNoOverflow, assertNoProblems, REFUSED, setLang, shoot, shootBothLanguages, useUserSuite } from './consoleUserSupport.ts';

const MARKUP_CLIENT = '<img src=x onerror="window.__xss=1"> VS Code on a very long machine name, lab-pc-0123456789abcdef';

describe('device sign-in approval in a browser', function () {
  this.timeout(120_000);
  const suite = useUserSuite();
  const page = () => suite().page;

  async function form(path: string, params: Record<string, string>): Promise<Answer> {
    const res = await fetch(suite().t.gw.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
    return answerOf(res.status, res.headers, await res.text());
  }
  const ask = async (clientName: string) => (await form('/api/oauth/device_authorization', { client_id: 'model-gateway-vscode', client_name: clientName })).json;
  const collect = (deviceCode: string) => form('/api/oauth/token', { grant_type: DEVICE_GRANT_TYPE, device_code: deviceCode });

  it("from the editor's link: sign in on the page, see the client, account and code, tick echo, approve; the device gets a key for echo only", async () => {
    const asked = await ask('VS Code on lab-pc');
    await page().goto(asked.verification_uri_complete);
    await setLang(page(), 'en');
    await page().locator('#device-signin').waitFor({ state: 'visible' });
    await shoot(page(), 'device-signin-en');
    await page().locator('#device-user-name').fill('ada');
    await page().locator('#device-user-password').fill(PASSWORD);
    await page().locator('#device-signin-button').click();
    await page().locator('#device-request').waitFor({ state: 'visible' });
    assert.equal(await page().locator('#device-client').innerText(), 'VS Code on lab-pc');
    assert.equal(await page().locator('#device-account').innerText(), 'ada');
    assert.equal(await page().locator('#device-user-code').innerText(), asked.user_code);
    assert.match(await page().locator('[data-testid=device-user]').innerText(), /Signed in as ada\./);
    assert.equal(await page().evaluate(() => document.activeElement?.id), 'device-approve', 'the answer is one key press away');
    await page().locator('#device-models input[value="echo"]').check();
    await shootBothLanguages(page(), 'device');
    await page().locator('#device-approve').click();
    await page().locator('#device-done').waitFor({ state: 'visible' });
    assert.equal(await page().locator('#device-done-title').innerText(), 'Approved');
    assert.match(await page().locator('#device-done-text').innerText(), /VS Code on lab-pc gets its API key now/);
    assert.equal(new URL(page().url()).search, '', 'the code left the address bar');

    const got = await collect(asked.device_code);
    assert.equal(got.status, 200, got.text);
    const key = (await suite().store.listKeys()).find((k) => k.name === got.json.key_name);
    assert.deepEqual(key?.models, ['echo']);
    await shoot(page(), 'device-done-en');
  });

  it('/device without a code: a wrong one is explained, the right one typed in lower case is found; Deny ends in access_denied', async () => {
    const asked = await ask('VS Code on other-pc');
    await page().goto(`${suite().t.gw.url}/device`);
    await page().locator('#device-code').waitFor({ state: 'visible' });
    await page().locator('#user-code').fill('BBBB-BBBB');
    await page().locator('#device-code-button').click();
    await page().locator('#device-code .alert.error', { hasText: 'No sign-in request is waiting with this code' }).waitFor();
    assert.match(await page().locator('#device-code .alert.error').innerText(), /user_code_invalid/);
    await page().locator('#user-code').fill(asked.user_code.toLowerCase());
    await page().locator('#device-code-button').click();
    await page().locator('#device-request').waitFor({ state: 'visible' });
    assert.equal(await page().locator('#device-client').innerText(), 'VS Code on other-pc');
    await page().locator('#device-deny').click();
    await page().locator('#device-done').waitFor({ state: 'visible' });
    assert.equal(await page().locator('#device-done-title').innerText(), 'Denied');
    const answer = await collect(asked.device_code);
    assert.deepEqual([answer.status, answer.json.error], [400, 'access_denied']);
    assertNoProblems(suite(), [REFUSED(404)]);
    suite().browser.problems.length = 0;
  });

  it('a client name with markup is text and never widens the page; the key is listed on the keys page under the name made from it', async () => {
    const asked = await ask(MARKUP_CLIENT);
    await page().goto(asked.verification_uri_complete);
    await page().locator('#device-request').waitFor({ state: 'visible' });
    assert.equal(await page().locator('#device-client').innerText(), MARKUP_CLIENT);
    assert.equal(await page().locator('#device-request img').count(), 0);
    await page().setViewportSize({ width: 390, height: 844 });
    await assertNoOverflow(page(), 'the approval on a phone');
    await page().setViewportSize({ width: 1320, height: 1000 });
    await page().locator('#device-approve').click();
    await page().locator('#device-done').waitFor({ state: 'visible' });
    const got = await collect(asked.device_code);
    assert.equal(got.status, 200);

    // The key is named after the client, in the characters key names allow.
    await page().goto(`${suite().t.gw.url}/#/keys`);
    await page().locator(`[data-testid=keys-list] [data-key-name="${got.json.key_name}"]`).waitFor();
    assert.equal(await page().evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
    await assertNoOverflow(page(), 'the keys page with that name');
    assertNoProblems(suite());
  });
});
