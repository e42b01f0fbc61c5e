// Signing in and managing keys in a real browser (Debian's chromium, issue 10): the first admin made
// from the setup link, a key created with its secret shown once (copied, and working at once on /v1),
// listed without it, still listed after a reload (the session cookie), rotated and deleted after a
// confirmation; sign-out, and sign-in with the user name and password; the Models view (search as you
// type, copy buttons), the Logs view (a request made with the user's key listed, hidden by the error
// filter, the CSV link with the same filters) and a password change then signing in with the new
// password. No CSP violation or page error throughout. Waits poll the DOM.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { PASSWORD } from './consoleAgent.ts';
import { call, chatBody, chatModel, startTestGateway, type Started } from './helpers.ts';

const NEW_PASSWORD = 'changed in the browser';

describe('console keys in a browser', function () {
  this.timeout(90_000);
  let t: Started;
  let browser: ConsoleBrowser;
  let page: Page;
  let secret: string;

  before(async () => {
    t = await startTestGateway({ firstAdminSetup: true });
    // A second model, so that the catalogue's search has something to leave out.
    const admin = t.admin();
    await addChannelPricedFree(admin, newChannel({ name: 'other', baseUrl: 'http://127.0.0.1:9', apiKey: 'upstream-secret', models: { 'gpt-browser': 'gpt-browser' } }));
    await admin.setModel(chatModel('gpt-browser', 150_000, 600_000, { contextLength: 128_000, toolCalling: true }));
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

  it('Models: every model with its copy button, the search narrowing the list as one types', async () => {
    browser.problems.splice(0, browser.problems.length, ...browser.problems.filter((p) => !/status of 401/.test(p)));
    assert.deepEqual(browser.problems, []);
    await page.getByRole('button', { name: 'Models', exact: true }).click();
    await page.locator('#view-models').waitFor({ state: 'visible' });
    assert.ok(await page.locator('#view-keys').isHidden(), 'one view at a time');
    const rows = page.locator('#catalogue tbody tr');
    await page.locator('#catalogue tr[data-model="gpt-browser"]').waitFor();
    await page.locator('#catalogue tr[data-model="echo"]').waitFor();
    assert.ok(await page.getByRole('button', { name: 'Copy model name gpt-browser' }).isVisible());
    assert.match(await page.locator('#catalogue tr[data-model="gpt-browser"]').innerText(), /gpt-browser[\s\S]*chat[\s\S]*128,000[\s\S]*\$0\.15[\s\S]*\$0\.6[\s\S]*yes/);
    const all = await rows.count();
    assert.ok(all >= 2);

    await page.locator('#catalogue-q').pressSequentially('gpt-b');
    await page.locator('#catalogue tr[data-model="echo"]').waitFor({ state: 'detached' });
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-model'))), ['gpt-browser']);
    await page.getByRole('button', { name: 'Copy model name gpt-browser' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'gpt-browser');
    await page.locator('#catalogue-q').fill('');
    await page.locator('#catalogue tr[data-model="echo"]').waitFor();
    assert.equal(await rows.count(), all, 'clearing the search shows them all again');
    await page.screenshot({ path: join(SCREENSHOTS, 'console-models.png'), fullPage: true });
  });

  it("Logs: a request made with the user's key is listed; the error filter hides it; the CSV link carries the filters", async () => {
    const answer = await chat(t.key);
    assert.equal(answer.status, 200);
    const requestId = answer.headers.get('x-request-id')!;
    await page.getByRole('button', { name: 'Logs', exact: true }).click();
    const row = page.locator(`#account-logs tr[data-request-id="${requestId}"]`);
    await row.waitFor();
    assert.match(await row.innerText(), /default[\s\S]*echo[\s\S]*200/);
    await page.locator('#account-logs-key').selectOption({ label: 'default' });
    await row.waitFor();
    const csv = await page.locator('#account-logs-csv').getAttribute('href');
    assert.ok(csv && !csv.includes(t.key));
    const csvUrl = new URL(csv);
    assert.equal(csvUrl.searchParams.get('format'), 'csv');
    assert.ok(csvUrl.searchParams.get('key'), 'the key filter is in the CSV link');
    const download = await page.request.get(csv); // with the browser's session cookie, as the link is followed
    assert.equal(download.status(), 200);
    assert.match(await download.text(), new RegExp(`^time,request_id[\\s\\S]*${requestId}`));

    await page.locator('#account-logs-status').selectOption('error');
    await row.waitFor({ state: 'detached' });
    assert.match(await page.locator('#account-logs').innerText(), /No request matches/);
    assert.equal(new URL((await page.locator('#account-logs-csv').getAttribute('href'))!).searchParams.get('status'), 'error');
    await page.locator('#account-logs-status').selectOption('ok');
    await row.waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'console-logs.png'), fullPage: true });
  });

  it('changes the password in the browser, then signs in with the new one (the old one refused)', async () => {
    await page.getByRole('button', { name: 'Password', exact: true }).click();
    await page.locator('#password-current').fill(PASSWORD);
    await page.locator('#password-new').fill(NEW_PASSWORD);
    await page.locator('#password-again').fill(NEW_PASSWORD);
    await page.locator('#password-button').click();
    await page.locator('#password-done').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#password-current').inputValue(), '', 'the form is emptied');
    await page.reload();
    await page.locator('#keys tr[data-key-name="default"]').waitFor();

    await page.locator('#signout').click();
    await page.locator('#user-name').waitFor({ state: 'visible' });
    assert.deepEqual(browser.problems, [], 'the CSP blocked nothing and the page logged no error');
    await page.locator('#user-name').fill('local');
    await page.locator('#user-password').fill(PASSWORD);
    await page.locator('#user-signin-button').click();
    await page.locator('#alert').filter({ hasText: 'the user name or the password is wrong' }).waitFor();
    browser.problems.splice(0, browser.problems.length, ...browser.problems.filter((p) => !/status of 401/.test(p)));
    await page.locator('#user-password').fill(NEW_PASSWORD);
    await page.locator('#user-signin-button').click();
    await page.locator('#keys tr[data-key-name="default"]').waitFor();
    assert.deepEqual(browser.problems, [], 'no page error or CSP violation');
  });
});
