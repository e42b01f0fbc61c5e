// The API keys page (#/keys) in a real browser (Debian's chromium, issue 10), against a real gateway on a
// real SQLite file: the first admin made from the setup link (signed in at once, the token gone from the
// address bar); a key created with a model allow-list chosen from the catalogue, its secret shown once with
// copy buttons and snippets (curl, Python, Node, the VS Code extension's settings, never the key in them),
// working at once with the official openai SDK, then listed without it; disabled in the browser (the SDK's
// next request refused with 403) and enabled again; rotated and deleted after confirmations; a key's own
// limits (a spending limit per day, requests per day, an IP allow-list) set on the create form, shown in the
// list, held on /v1, and changed in place, a bad entry refused in the gateway's words; a key whose maker is
// disabled shown so, and refused, until they are enabled; long names never
// widening the page, at 1320 px or on a phone, in English and Chinese; sign-out and sign-in. No page error
// and nothing blocked by the CSP throughout.
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { createKey } from '../../../src/gateway/admin.ts';
import { createUser } from '../../../src/gateway/accounts/users.ts';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { PASSWORD } from './consoleAgent.ts';
import { chatModel } from './helpers.ts';
import {
  assertNoOverflow, assertNoProblems, chatStatus, onPhone, REFUSED, sdkWith, setLang, shoot, shootBothLanguages, useUserSuite,
} from './consoleUserSupport.ts';

const LONG_MODEL = `model-${'m'.repeat(190)}-end`;
const LONG_KEY = `key-${'k'.repeat(192)}-end`;
const FORM_LONGEST = `k${'e'.repeat(62)}y`;

describe('console API keys page in a browser', function () {
  this.timeout(120_000);
  const suite = useUserSuite({ firstAdminSetup: true, users: false });
  let secret: string;

  before(async () => {
    // A second model, and one with a 200-character name, so that the allow-list has more to choose from than echo.
    const admin = suite().store;
    await addChannelPricedFree(admin, newChannel({ name: 'other', baseUrl: 'http://127.0.0.1:9', apiKey: 'upstream-secret', models: { 'gpt-browser': 'gpt-browser', [LONG_MODEL]: LONG_MODEL } }));
    await admin.setModel(chatModel('gpt-browser', 150_000, 600_000, { contextLength: 128_000, toolCalling: true }));
  });

  const page = () => suite().page;
  const row = (name: string): Locator => page().locator(`[data-testid=keys-list] [data-key-name="${name}"]`);
  const dialog = (): Locator => page().locator('dialog[open]');
  const keyOf = async (name: string) => (await suite().store.listKeys()).find((k) => k.name === name);

  it('creates the first admin from the setup link, signed in at once, the token gone from the address bar', async () => {
    const { t } = suite();
    const token = new URL(t.gw.setupUrl!).hash.slice('#setup='.length);
    assert.ok(token.length > 10);
    await page().goto(t.gw.setupUrl!);
    await page().locator('#setup-name').waitFor({ state: 'visible' });
    assert.equal(await page().locator('#signin-name').count(), 0, 'the setup form, not the sign-in form');
    await page().locator('#setup-name').fill('local');
    await page().locator('#setup-password').fill(PASSWORD);
    await page().locator('#setup-repeat').fill(PASSWORD);
    await page().locator('#setup-form button[type=submit]').click();
    await page().locator('#signout').waitFor({ state: 'visible' });
    assert.ok(!page().url().includes(token), 'the token left the address bar');
    assert.match(await page().locator('[data-testid=who]').innerText(), /^local · admin$/);
    // The admin joined the bootstrap account "local": its key is listed.
    await page().goto(`${t.gw.url}/#/keys`);
    await setLang(page(), 'en');
    await row('default').waitFor();
    assert.match(await page().locator('.page-header').innerText(), /Keys of account local\./);
  });

  it('creates a key with a model chosen from the catalogue: the secret shown once with copy buttons and snippets, working at once with the SDK', async () => {
    const { t } = suite();
    await page().locator('#new-key-name').fill('browser-key');
    await page().locator('#new-key-models-section > summary').click();
    const choices = page().locator('#new-key-models input[type=checkbox]');
    await choices.first().waitFor();
    const offered = await choices.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    const catalogue = (await suite().store.listModels()).map((m) => m.name);
    assert.deepEqual([...offered].sort(), [...catalogue].sort(), 'every model of the catalogue');
    for (const name of ['echo', 'gpt-browser', LONG_MODEL]) assert.ok(offered.includes(name), name);
    await page().locator('#new-key-models input[value="echo"]').check();
    assert.match(await page().locator('#new-key-models-section > summary').innerText(), /1 chosen/);
    await page().locator('#new-key-button').click();
    await page().locator('#new-secret').waitFor({ state: 'visible' });
    secret = await page().locator('#new-secret-value').innerText();
    assert.match(secret, /^sk-[A-Za-z0-9_-]{43}$/);
    assert.equal(await page().locator('#new-secret-base').innerText(), `${t.gw.url}/v1`);
    assert.match(await page().locator('#snippet-curl').innerText(), new RegExp(`^curl ${t.gw.url}/v1/chat/completions`));
    assert.match(await page().locator('#snippet-python').innerText(), /from openai import OpenAI[\s\S]*"echo"/);
    assert.match(await page().locator('#snippet-node').innerText(), /import OpenAI from 'openai'/);
    const vscode = await page().locator('#snippet-vscode').innerText();
    assert.deepEqual(JSON.parse(vscode), { 'modelGateway.baseUrl': `${t.gw.url}/v1`, 'modelGateway.model': 'echo' }, 'the extension\'s real setting names');
    assert.ok(!vscode.includes(secret), 'never the key in settings.json');
    assert.match(await page().locator('#snippet-vscode-key').innerText(), /Model Gateway: Set API Key[\s\S]*never put the key in settings\.json/i);

    await page().getByRole('button', { name: 'Copy API key' }).click();
    await page().getByRole('button', { name: 'Copy API key' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page().evaluate(() => navigator.clipboard.readText()), secret, 'the whole secret is copied');
    await page().getByRole('button', { name: 'Copy the Python (openai) snippet' }).click();
    assert.match(await page().evaluate(() => navigator.clipboard.readText()), /^from openai import OpenAI/);

    assert.deepEqual(await chatStatus(sdkWith(suite(), secret)), { status: 200, code: null }, 'the new key works at once');
    assert.deepEqual((await keyOf('browser-key'))?.models, ['echo']);
    await row('browser-key').waitFor();
    assert.match(await row('browser-key').innerText(), /browser-key[\s\S]*enabled[\s\S]*echo/);
    await shoot(page(), 'keys-new-secret-en');
    await setLang(page(), 'zh-CN');
    await page().locator('#new-secret-title').filter({ hasText: '你的新 API 密钥' }).waitFor();
    assert.match(await page().locator('#snippet-vscode-key').innerText(), /Model Gateway: 设置 API 密钥/);
    await shoot(page(), 'keys-new-secret-zh-CN');
    await setLang(page(), 'en');

    await page().locator('#new-secret-done').click();
    await page().locator('#new-secret').waitFor({ state: 'detached' });
    assert.ok(!(await page().content()).includes(secret), 'the secret is gone from the DOM');
    const stored = await page().evaluate(() => JSON.stringify([Object.entries(sessionStorage), Object.entries(localStorage)]));
    assert.ok(!stored.includes(secret), 'nothing of it kept in web storage');
    assert.equal(await page().evaluate(() => document.cookie), '', 'the session cookie is HttpOnly');
    assert.equal(await page().locator('#new-key-name').inputValue(), '', 'the form is cleared for the next key');
  });

  it('after a reload: still signed in, the key listed, its secret nowhere', async () => {
    await page().reload();
    await row('browser-key').waitFor();
    assert.ok(!(await page().content()).includes(secret));
  });

  it('disabling the key in the browser makes the next SDK request fail with 403; enabling it lets it through again', async () => {
    const sdk = sdkWith(suite(), secret);
    await row('browser-key').getByRole('button', { name: 'Disable' }).click();
    await row('browser-key').locator('.badge', { hasText: 'disabled' }).waitFor();
    assert.match(await page().locator('#keys .alert.success').innerText(), /browser-key is disabled/);
    assert.deepEqual(await chatStatus(sdk), { status: 403, code: 'key_disabled' });
    await row('browser-key').getByRole('button', { name: 'Enable' }).click();
    await row('browser-key').locator('.badge', { hasText: 'enabled' }).waitFor();
    assert.deepEqual(await chatStatus(sdk), { status: 200, code: null });
  });

  it('rotates after a confirmation (the old secret refused, the new one shown once) and deletes after one', async () => {
    await row('browser-key').getByRole('button', { name: 'Rotate' }).click();
    await dialog().getByText('Rotate key browser-key?').waitFor();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.deepEqual(await chatStatus(sdkWith(suite(), secret)), { status: 200, code: null }, 'cancel keeps the secret');

    await row('browser-key').getByRole('button', { name: 'Rotate' }).click();
    await dialog().getByText('the old one stops working at once').waitFor();
    await dialog().getByRole('button', { name: 'Rotate' }).click();
    await page().locator('#new-secret-title', { hasText: 'The new secret of browser-key' }).waitFor();
    const fresh = await page().locator('#new-secret-value').innerText();
    assert.notEqual(fresh, secret);
    assert.deepEqual(await chatStatus(sdkWith(suite(), secret)), { status: 401, code: 'invalid_api_key' }, 'the old secret is refused');
    assert.deepEqual(await chatStatus(sdkWith(suite(), fresh)), { status: 200, code: null });
    await page().locator('#new-secret-done').click();

    await row('browser-key').getByRole('button', { name: 'Delete' }).focus();
    await page().keyboard.press('Enter');
    await dialog().getByText('Delete key browser-key?').waitFor();
    await page().keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    assert.ok(await row('browser-key').isVisible(), 'cancel keeps the key');
    // The focus is back on the button that opened the dialog, not at the top of the page.
    assert.equal(await page().evaluate(() => document.activeElement?.textContent), 'Delete');
    await row('browser-key').getByRole('button', { name: 'Delete' }).click();
    await dialog().getByText('Delete key browser-key?').waitFor();
    await dialog().getByRole('button', { name: 'Delete' }).press('Enter');
    await row('browser-key').waitFor({ state: 'detached' });
    assert.deepEqual(await chatStatus(sdkWith(suite(), fresh)), { status: 401, code: 'invalid_api_key' }, 'a deleted key is refused');
    assertNoProblems(suite());
  });

  it('creates a key with a spending limit per day, requests per day and an IP allow-list; the list shows them and /v1 holds the key to them', async () => {
    await page().locator('#new-key-name').fill('limited');
    await page().locator('#new-key-limits > summary').click();
    await page().locator('#new-key-spend').fill('2.50');
    await page().locator('#new-key-period').selectOption('day');
    await page().locator('#new-key-rpd').fill('500');
    await page().locator('#new-key-ips').fill('127.0.0.2, 10.0.0.0/8');
    await page().locator('#new-key-button').click();
    await page().locator('#new-secret').waitFor({ state: 'visible' });
    secret = await page().locator('#new-secret-value').innerText();
    await page().locator('#new-secret-done').click();

    await row('limited').waitFor();
    assert.match(await row('limited').locator('[data-spending]').innerText(), /^\$0\.00 of \$2\.50 today \(UTC\), resets /);
    assert.equal(await row('limited').locator('[data-ips]').innerText(), '127.0.0.2, 10.0.0.0/8');
    assert.equal(await row('limited').locator('[data-limits]').innerText(), '1,200/min, 64 at once, 500/day');
    assert.equal(await page().locator('#new-key-ips').inputValue(), '', 'the form is cleared for the next key');
    assert.deepEqual(await chatStatus(sdkWith(suite(), secret)), { status: 403, code: 'ip_not_allowed' }, 'this test calls from 127.0.0.1');
  });

  it("changes the key's limits in place: the IP list opened to 127.0.0.1, the spending limit lowered; the list and /v1 follow", async () => {
    await row('limited').getByRole('button', { name: 'Limits' }).click();
    const editor = page().locator('#key-limits-form[data-limits-of="limited"]');
    await editor.waitFor();
    assert.equal(await editor.locator('#edit-key-spend').inputValue(), '2.50');
    assert.equal(await editor.locator('#edit-key-period').inputValue(), 'day');
    assert.equal(await editor.locator('#edit-key-rpd').inputValue(), '500');
    assert.equal(await editor.locator('#edit-key-ips').inputValue(), '127.0.0.2, 10.0.0.0/8');
    await shoot(page(), 'keys-limits-en', false);
    await editor.locator('#edit-key-ips').fill('127.0.0.1/32');
    await editor.locator('#edit-key-spend').fill('1');
    await editor.locator('#edit-key-rpd').fill('');
    await editor.locator('#key-limits-save').click();
    await editor.waitFor({ state: 'detached' });
    await row('limited').locator('[data-ips]', { hasText: '127.0.0.1/32' }).waitFor();
    assert.match(await row('limited').locator('[data-spending]').innerText(), /of \$1\.00 today \(UTC\)/);
    assert.equal(await row('limited').locator('[data-limits]').innerText(), '1,200/min, 64 at once', 'an emptied field removes its limit');

    assert.deepEqual(await chatStatus(sdkWith(suite(), secret)), { status: 200, code: null });
    await page().locator('#keys-refresh').click();
    await page().waitForFunction(() => !/^\$0\.00 /.test(document.querySelector('[data-key-name="limited"] [data-spending]')?.textContent ?? '$0.00 '));
    assert.match(await row('limited').locator('[data-spending]').innerText(), /^\$0\.0000\d+ of \$1\.00 today/, 'what the request cost, to the micro-dollar');
  });

  it('a bad IP entry is refused in the dialog in the gateway\'s words, and nothing changes; Escape closes the editor', async () => {
    await row('limited').getByRole('button', { name: 'Limits' }).click();
    const editor = page().locator('#key-limits-form');
    await editor.locator('#edit-key-ips').fill('10.1.2.3/8');
    await editor.locator('#key-limits-save').click();
    await editor.locator('.alert.error', { hasText: 'has bits set after its first 8' }).waitFor();
    assert.match(await editor.locator('.alert.error').innerText(), /10\.0\.0\.0\/8[\s\S]*invalid_request/);
    await page().keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    assert.equal(await row('limited').locator('[data-ips]').innerText(), '127.0.0.1/32');
    assertNoProblems(suite(), [REFUSED(400)]);
    suite().browser.problems.length = 0;
  });

  it('a button pressed from the keyboard keeps the focus through its busy time (a disabled button loses it in the browser)', async () => {
    // The list answers slowly, so the button stays busy (disabled) for a while.
    await page().route('**/api/console/keys', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    try {
      await page().locator('#keys-refresh').focus();
      await page().keyboard.press('Enter');
      await page().locator('#keys-refresh[aria-busy]').waitFor();
      await page().locator('#keys-refresh:not([aria-busy])').waitFor();
      assert.equal(await page().evaluate(() => document.activeElement?.id), 'keys-refresh', 'the focus is back on the button');
    } finally {
      await page().unroute('**/api/console/keys');
    }
  });

  it('long key and model names wrap inside their cells: no overflow at 1320 px or on a phone, in English and in Chinese', async () => {
    const { store } = suite();
    await createKey(store, { account: 'local', name: LONG_KEY, models: [LONG_MODEL] });
    await page().locator('#new-key-name').fill(FORM_LONGEST);
    await page().locator('#new-key-models-section > summary').click();
    await page().locator(`#new-key-models input[value="${LONG_MODEL}"]`).check();
    await page().locator('#new-key-button').click();
    await page().locator('#new-secret').waitFor({ state: 'visible' });
    await page().locator('#new-secret-done').click();
    await row(FORM_LONGEST).waitFor();
    await row(LONG_KEY).waitFor();
    assert.equal(await row(LONG_KEY).locator('.key-name').innerText(), LONG_KEY, 'the whole name, as text');
    await page().locator('#new-key-models-section > summary').click();
    await page().locator('#new-key-limits > summary').click();
    await shootBothLanguages(page(), 'keys');
    await page().locator('#pref-theme').selectOption('dark');
    await shoot(page(), 'keys-dark-en');
    await page().locator('#pref-theme').selectOption('system');
    await onPhone(page(), async () => {
      await row('limited').getByRole('button', { name: 'Limits' }).click();
      await page().locator('#key-limits-form').waitFor();
      await assertNoOverflow(page(), 'the limits editor on a phone');
      await shoot(page(), 'keys-limits-phone-en', false);
      await page().keyboard.press('Escape');
    });
    assertNoProblems(suite());
  });

  it("a key made by another user of the account, who is disabled, says so (in both languages) and is refused; enabling them clears it", async () => {
    const { store } = suite();
    const lee = await createUser(store, { name: 'lee', password: PASSWORD, admin: false, account: 'local' });
    const { secret: leeSecret } = await createKey(store, { account: 'local', userId: lee.id, name: 'lee-key' });
    const sdk = sdkWith(suite(), leeSecret);
    await store.setUserStatus('lee', 'disabled');
    await page().locator('#keys-refresh').click();
    await row('lee-key').locator('.badge', { hasText: 'user disabled' }).waitFor();
    assert.match(await row('lee-key').locator('[data-user-disabled]').innerText(), /User lee is disabled: requests with this key are refused \(403\)/);
    assert.equal(await row('lee-key').getByRole('button', { name: 'Disable' }).count(), 1, 'the key itself stays enabled');
    assert.equal(await row('default').locator('[data-user-disabled]').count(), 0, "the account's other keys are not stopped");
    assert.deepEqual(await chatStatus(sdk), { status: 403, code: 'key_disabled' });
    await setLang(page(), 'zh-CN');
    await row('lee-key').locator('.badge', { hasText: '用户已禁用' }).waitFor();
    assert.match(await row('lee-key').locator('[data-user-disabled]').innerText(), /用户 lee 已被禁用/);
    await setLang(page(), 'en');
    await store.setUserStatus('lee', 'enabled');
    await page().locator('#keys-refresh').click();
    await row('lee-key').locator('.badge', { hasText: 'enabled' }).waitFor();
    assert.equal(await row('lee-key').locator('[data-user-disabled]').count(), 0);
    assert.deepEqual(await chatStatus(sdk), { status: 200, code: null });
    assertNoProblems(suite());
  });

  it('signs out, then in with the user name and password; a wrong password is explained', async () => {
    const { t } = suite();
    await page().locator('#signout').click();
    await page().locator('#signin-name').waitFor({ state: 'visible' });
    await page().goto(`${t.gw.url}/#/keys`);
    await page().locator('#signin-name').waitFor({ state: 'visible' });
    assert.match(page().url(), /#\/signin\?next=%2Fkeys/, 'a signed-out visitor is sent to sign in, and back afterwards');
    await page().locator('#signin-name').fill('local');
    await page().locator('#signin-password').fill('not the password');
    await page().locator('#signin-form button[type=submit]').click();
    await page().locator('.alert.error', { hasText: 'the user name or the password is wrong' }).waitFor();
    // A person typed a password: not the API clients' words ("Invalid token: ...").
    assert.equal(await page().locator('.alert.error', { hasText: 'Invalid token' }).count(), 0);
    assertNoProblems(suite(), [REFUSED(401)]);
    suite().browser.problems.length = 0;
    await page().locator('#signin-password').fill(PASSWORD);
    await page().locator('#signin-form button[type=submit]').click();
    await row('default').waitFor();
    assertNoProblems(suite());
  });
});
