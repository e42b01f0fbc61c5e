// The console page in a real browser (Debian's chromium through playwright-core): sign in with the key,
// see the balance, the echo model (and copy its exact name), a logged request after Refresh; the CSP
// blocks nothing of the page's own; errors are explained; sign out forgets the key. Waits poll the DOM.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { call, chatBody, startTestGateway } from './helpers.ts';
import type { Started } from './helpers.ts';

describe('gateway console in a browser', function () {
  this.timeout(90_000);
  let t: Started;
  let browser: ConsoleBrowser;
  let page: Page;
  let problems: string[];

  before(async () => {
    t = await startTestGateway();
    browser = await launchConsoleBrowser(t.gw.url);
    ({ page, problems } = browser);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const text = (selector: string) => page.locator(selector).innerText();

  it('signs in with the key and shows the balance, the echo model and the base URLs', async () => {
    await page.goto(t.gw.url + '/');
    await page.locator('#key').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#key').getAttribute('type'), 'password');
    assert.match(await text('#steps'), /Check the API address/, 'troubleshooting list (contract 7.3)');

    await page.locator('#key').fill(` ${t.key} `);
    await page.locator('#signin-button').click();
    await page.locator('#bal-remaining').filter({ hasText: '$10.00' }).waitFor();
    assert.ok(await page.locator('#trimmed').isVisible(), 'says it removed the spaces around the key');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('modelGateway.console.apiKey')), t.key);
    assert.equal(await page.evaluate(() => localStorage.length), 0, 'nothing in localStorage');
    assert.ok(!(await page.locator('body').innerText()).includes(t.key), 'the secret is never shown');

    assert.equal(await text('#key-name'), 'default');
    const row = page.locator('#models tr[data-model="echo"]');
    await row.waitFor();
    assert.match(await row.innerText(), /echo[\s\S]*\$2\.00[\s\S]*\$8\.00[\s\S]*32,768/);
    await row.getByRole('button', { name: 'Copy model name echo' }).click();
    await row.getByRole('button', { name: 'Copy model name echo' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'echo', 'the exact model name is copied');

    const urls = await text('#urls');
    assert.ok(urls.includes(t.gw.url) && urls.includes(`${t.gw.url}/v1`), urls);
    assert.match(await text('#logs'), /No requests with this key yet/);
  });

  it('shows a request made by a client after Refresh, with its request id, and the lower balance', async () => {
    const chat = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('echo', 'is anybody there?') });
    assert.equal(chat.status, 200);
    const requestId = chat.headers.get('x-request-id')!;
    const logged = (await call(t.gw, 'GET', '/api/console/logs', { key: t.key })).json.data[0];

    await page.locator('#refresh').click();
    const row = page.locator(`#logs tr[data-request-id="${requestId}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    assert.equal(cells[1], requestId);
    assert.equal(cells[3], 'echo');
    assert.equal(cells[4], '200');
    assert.equal(cells[6], `${logged.prompt_tokens} / ${logged.completion_tokens}`);
    assert.equal(cells[7], `$${logged.cost.usd}`);
    assert.equal(cells[9], 'no');
    const remaining = (await call(t.gw, 'GET', '/api/console/me', { key: t.key })).json.balance.remaining.usd;
    assert.notEqual(remaining, '10.00');
    await page.locator('#bal-remaining').filter({ hasText: `$${remaining}` }).waitFor();

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: join(SCREENSHOTS, 'console.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-dark.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('the CSP blocked nothing and the page logged no error', () => {
    assert.deepEqual(problems, []);
  });

  it('sign out forgets the key; a wrong key is explained with the contract meaning of 401', async () => {
    await page.locator('#signout').click();
    await page.locator('#key').waitFor({ state: 'visible' });
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    assert.ok(await page.locator('#app').isHidden());

    problems.length = 0;
    await page.locator('#key').fill('sk-not-a-real-key');
    await page.locator('#signin-button').click();
    const alert = page.locator('#alert');
    await alert.filter({ hasText: 'Authentication failed (401)' }).waitFor();
    assert.match(await alert.innerText(), /Re-copy the key/);
    assert.match(await alert.innerText(), /\[invalid_api_key\]/);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'a refused key is not kept');
    assert.ok(await page.locator('#signin').isVisible());
    await page.screenshot({ path: join(SCREENSHOTS, 'console-signin-error.png'), fullPage: true });
    // The 401 itself is reported by chromium as a failed resource load; nothing else may be.
    assert.deepEqual(problems.filter((p) => !/status of 401/.test(p)), []);
  });
});
