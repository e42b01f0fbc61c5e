// A key's own limits in the console's Keys view, in a real browser (Debian's chromium, issue 10): a key made
// on the create form with a spending limit per day and an IP allow-list; the list shows the limits, what the
// key spent today and the allowed addresses; the key is held to them on /v1 (a request from 127.0.0.1 refused
// while only 127.0.0.2 is allowed); the Limits editor in the key's row changes them (the list follows and so
// does /v1); a bad IP entry is refused with the gateway's words on the page. No CSP violation or page error.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { makeUser, PASSWORD } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe("a key's own limits in the console, in a browser", function () {
  this.timeout(90_000);
  let t: Started;
  let browser: ConsoleBrowser;
  let page: Page;
  let secret: string;

  before(async () => {
    t = await startTestGateway();
    await makeUser(t.admin(), 'ada', 5_000_000);
    browser = await launchConsoleBrowser(t.gw.url);
    page = browser.page;
    await page.goto(`${t.gw.url}/`);
    await page.locator('#user-name').fill('ada');
    await page.locator('#user-password').fill(PASSWORD);
    await page.locator('#user-signin-button').click();
    await page.locator('#keys-app').waitFor({ state: 'visible' });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const chat = (key: string) => call(t.gw, 'POST', '/v1/chat/completions', { key, body: chatBody('echo', 'from the browser') });
  const form = () => page.locator('#new-key-form');

  it('creates a key with a spending limit per day and an IP allow-list; the list shows both', async () => {
    await page.locator('#new-key-name').fill('limited');
    await form().getByLabel('Spending limit (USD)').fill('2.50');
    await form().getByLabel('Per').selectOption('day');
    await form().getByLabel('Requests / day').fill('500');
    await form().getByLabel('Allowed IPs').fill('127.0.0.2, 10.0.0.0/8');
    await page.locator('#new-key-button').click();
    await page.locator('#new-secret').waitFor({ state: 'visible' });
    secret = await page.locator('#new-secret-value').innerText();
    await page.locator('#new-secret-done').click();

    const row = page.locator('#keys tr[data-key-name="limited"]');
    await row.waitFor();
    assert.match(await row.locator('td[data-spending]').innerText(), /^\$0\.00 of \$2\.50 today \(UTC\), resets /);
    assert.equal(await row.locator('td[data-ips]').innerText(), '127.0.0.2, 10.0.0.0/8');
    assert.equal(await row.locator('td[data-limits]').innerText(), '1,200/min, 64 at once, 500/day');
    assert.equal(await form().getByLabel('Allowed IPs').inputValue(), '', 'the form is cleared for the next key');

    const refused = await chat(secret);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error.code, 'ip_not_allowed', 'this test calls from 127.0.0.1');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-key-limits.png'), fullPage: true });
  });

  it("edits the key's limits in its row: the IP list opened to 127.0.0.1, the spending limit lowered; the list and /v1 follow", async () => {
    const row = page.locator('#keys tr[data-key-name="limited"]');
    await row.getByRole('button', { name: 'Limits' }).click();
    const editor = page.locator('#keys tr[data-limits-of="limited"] form');
    await editor.waitFor();
    assert.equal(await editor.getByLabel('Spending limit (USD)').inputValue(), '2.50');
    assert.equal(await editor.getByLabel('Per').inputValue(), 'day');
    assert.equal(await editor.getByLabel('Allowed IPs').inputValue(), '127.0.0.2, 10.0.0.0/8');
    await editor.getByLabel('Allowed IPs').fill('127.0.0.1/32');
    await editor.getByLabel('Spending limit (USD)').fill('1');
    await editor.getByRole('button', { name: 'Save limits' }).click();
    await page.locator('#keys tr[data-limits-of="limited"]').waitFor({ state: 'detached' });
    await page.locator('#keys tr[data-key-name="limited"] td[data-ips]', { hasText: '127.0.0.1/32' }).waitFor();
    assert.match(await row.locator('td[data-spending]').innerText(), /of \$1\.00 today \(UTC\)/);

    const answer = await chat(secret);
    assert.equal(answer.status, 200, answer.text);
    await page.locator('#keys-refresh').click();
    await page.waitForFunction(() => !/^\$0\.00 /.test(document.querySelector('#keys tr[data-key-name="limited"] td[data-spending]')?.textContent ?? '$0.00 '));
    assert.match(await row.locator('td[data-spending]').innerText(), /^\$0\.0000\d+ of \$1\.00 today/, 'what the request cost, to the micro-dollar');
  });

  it('a bad IP entry is refused with the reason on the page, and nothing changes; Cancel closes the editor', async () => {
    const row = page.locator('#keys tr[data-key-name="limited"]');
    await row.getByRole('button', { name: 'Limits' }).click();
    const editor = page.locator('#keys tr[data-limits-of="limited"] form');
    await editor.getByLabel('Allowed IPs').fill('10.1.2.3/8');
    await editor.getByRole('button', { name: 'Save limits' }).click();
    await page.locator('#alert', { hasText: 'has bits set after its first 8' }).waitFor();
    assert.match(await page.locator('#alert').innerText(), /Could not change the limits of limited[\s\S]*10\.0\.0\.0\/8/);
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('#keys tr[data-limits-of="limited"]').waitFor({ state: 'detached' });
    assert.equal(await row.locator('td[data-ips]').innerText(), '127.0.0.1/32');
    // The refused save's 400 is the one error the browser reports: no CSP violation, no page error.
    assert.deepEqual(browser.problems.filter((p) => !/status of 400/.test(p)), []);
    assert.equal(browser.problems.length, 1);
  });
});
