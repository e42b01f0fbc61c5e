// Signing in and managing keys in a real browser (Debian's chromium, issue 10): the first admin made
// from the setup link, a key created with its secret shown once (copied, and working at once on /v1),
// listed without it, still listed after a reload (the session cookie), rotated and deleted after a
// confirmation; sign-out, and sign-in with the user name and password. Waits poll the DOM.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { PASSWORD } from './consoleAgent.ts';
import { call, chatBody, startTestGateway, type Started } from './helpers.ts';

describe('console keys in a browser', function () {
  this.timeout(90_000);
  let t: Started;
  let browser: ConsoleBrowser;
  let page: Page;
  let secret: string;

  before(async () => {
    t = await startTestGateway({ firstAdminSetup: true });
    browser = await launchConsoleBrowser(t.gw.url);
    page = browser.page;
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const chat = (key: string) => call(t.gw, 'POST', '/v1/chat/completions', { key, body: chatBody('echo', 'from the browser key') });
  const bodyText = () => page.locator('body').innerText();

  it('creates the first admin from the setup link, signed in at once, the token gone from the address bar', async () => {
    await page.goto(t.gw.setupUrl!);
    await page.locator('#setup-name').waitFor({ state: 'visible' });
    assert.ok(await page.locator('#signin').isHidden());
    await page.locator('#setup-name').fill('local');
    await page.locator('#setup-password').fill(PASSWORD);
    await page.locator('#setup-button').click();
    await page.locator('#keys-app').waitFor({ state: 'visible' });
    assert.equal(new URL(page.url()).hash, '', 'the token left the address bar');
    assert.match(await page.locator('#who').innerText(), /local \(admin\)/);
    // The admin joined the bootstrap account "local": its key is listed.
    await page.locator('#keys tr[data-key-name="default"]').waitFor();
  });

  it('creates a key: the secret shown once with a copy button and snippets, working at once, then listed without it', async () => {
    await page.locator('#new-key-name').fill('browser-key');
    await page.locator('#new-key-models').fill('echo');
    await page.locator('#new-key-button').click();
    await page.locator('#new-secret').waitFor({ state: 'visible' });
    secret = await page.locator('#new-secret-value').innerText();
    assert.match(secret, /^sk-[A-Za-z0-9_-]{43}$/);
    assert.equal(await page.locator('#new-secret-base').innerText(), `${t.gw.url}/v1`);
    assert.match(await page.locator('#snippets').innerText(), /from openai import OpenAI[\s\S]*import OpenAI from 'openai'/);

    await page.getByRole('button', { name: 'Copy API key' }).click();
    await page.getByRole('button', { name: 'Copy API key' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret, 'the whole secret is copied');
    assert.equal((await chat(secret)).status, 200, 'the new key works at once');

    const row = page.locator('#keys tr[data-key-name="browser-key"]');
    await row.waitFor();
    assert.match(await row.innerText(), /browser-key[\s\S]*enabled[\s\S]*echo/);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-new-key.png'), fullPage: true });

    await page.locator('#new-secret-done').click();
    await page.locator('#new-secret').waitFor({ state: 'hidden' });
    assert.ok(!(await bodyText()).includes(secret), 'the secret is gone from the page');
    assert.ok(!(await page.content()).includes(secret), 'and from the DOM');
    assert.equal(await page.evaluate(() => sessionStorage.length + localStorage.length), 0, 'nothing kept in web storage');
    assert.equal(await page.evaluate(() => document.cookie), '', 'the session cookie is HttpOnly');
  });

  it('after a reload: still signed in, the key listed, its secret nowhere', async () => {
    await page.reload();
    const row = page.locator('#keys tr[data-key-name="browser-key"]');
    await row.waitFor();
    assert.ok(!(await page.content()).includes(secret));
  });

  it('rotates after a confirmation (the old secret refused, the new one shown once) and deletes after one', async () => {
    const row = page.locator('#keys tr[data-key-name="browser-key"]');
    await row.getByRole('button', { name: 'Rotate' }).click();
    await row.getByText('New secret? The old one stops at once.').waitFor();
    await row.getByRole('button', { name: 'Rotate' }).click();
    await page.locator('#new-secret').waitFor({ state: 'visible' });
    const fresh = await page.locator('#new-secret-value').innerText();
    assert.notEqual(fresh, secret);
    assert.equal((await chat(secret)).status, 401, 'the old secret is refused');
    assert.equal((await chat(fresh)).status, 200);
    await page.locator('#new-secret-done').click();

    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Cancel' }).click();
    assert.ok(await row.isVisible(), 'cancel keeps the key');
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByText('Delete browser-key?').waitFor();
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await chat(fresh)).status, 401, 'a deleted key is refused');
  });

  it('signs out, then in with the user name and password; a wrong password is explained', async () => {
    await page.locator('#signout').click();
    await page.locator('#user-name').waitFor({ state: 'visible' });
    assert.ok(await page.locator('#keys-app').isHidden());
    assert.deepEqual(browser.problems, [], 'the CSP blocked nothing and the page logged no error up to here');
    await page.locator('#user-name').fill('local');
    await page.locator('#user-password').fill('not the password');
    await page.locator('#user-signin-button').click();
    await page.locator('#alert').filter({ hasText: 'the user name or the password is wrong' }).waitFor();
    // The refusal is reported by chromium as a failed resource load; nothing else may be.
    assert.deepEqual(browser.problems.filter((p) => !/status of 401/.test(p)), []);

    await page.locator('#user-password').fill(PASSWORD);
    await page.locator('#user-signin-button').click();
    await page.locator('#keys tr[data-key-name="default"]').waitFor();
    assert.ok(await page.locator('#alert').isHidden());
  });

});
