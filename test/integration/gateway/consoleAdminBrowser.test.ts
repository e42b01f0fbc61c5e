// The admins' console in a real browser (Debian's chromium, issue 10): the first admin signs in and sees
// every tab, the admin ones (Users, Audit, Codes, Channels, Models & prices) after the user's own; creates a user in the Users view and tops them up; the user, in a second
// browser, signs in and sees the balance (and no admin tab; the server refuses them anyway); a password
// reset (typed once, never shown back) and a disable (after a confirmation) end the user's session; the
// Audit view lists the admin's actions and the CLI's, a model name made of HTML shown as text, never run.
// No CSP violation or page error throughout. Waits poll the DOM.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { main } from '../../../src/gateway/cli.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { PASSWORD } from './consoleAgent.ts';
import { startTestGateway, type Started } from './helpers.ts';

/** A model name the CLI accepts (printable text) that a page writing HTML would run. */
const HOSTILE = '<img src=x onerror="window.__xss=1">';
const BEA_PASSWORD = 'bea first password';
const BEA_NEW_PASSWORD = 'bea second password';

describe("the admins' console in a browser", function () {
  this.timeout(120_000);
  let t: Started;
  let adminBrowser: ConsoleBrowser;
  let userBrowser: ConsoleBrowser;
  let admin: Page;
  let user: Page;

  before(async () => {
    t = await startTestGateway({ firstAdminSetup: true });
    // The command line prices a model whose name is HTML: its audit row's target must show as text.
    const err: string[] = [];
    const code = await main(['--data', t.dir, 'model', 'price', HOSTILE, '--free'], { out: () => undefined, err: (l) => err.push(l) }, { ...process.env, MODEL_GATEWAY_DATA: '' });
    assert.equal(code, 0, err.join('\n'));
    adminBrowser = await launchConsoleBrowser(t.gw.url);
    userBrowser = await launchConsoleBrowser(t.gw.url);
    admin = adminBrowser.page;
    user = userBrowser.page;
  });
  after(async () => {
    await adminBrowser?.close();
    await userBrowser?.close();
    await t?.close();
  });

  const row = (name: string) => admin.locator(`#users tr[data-user="${name}"]`);
  /** The tabs a page shows, in their order. */
  const visibleTabs = async (page: Page) => page.locator('#user-tabs .tab:visible').allInnerTexts();
  const notice = () => admin.locator('#users-done');

  async function userSignsIn(password: string): Promise<void> {
    await user.locator('#user-name').waitFor({ state: 'visible' });
    await user.locator('#user-name').fill('bea');
    await user.locator('#user-password').fill(password);
    await user.locator('#user-signin-button').click();
    await user.locator('#keys-app').waitFor({ state: 'visible' });
  }

  it('the first admin sees every tab, the admin ones (Users, Audit, Codes) last; the Users view lists them', async () => {
    await admin.goto(t.gw.setupUrl!);
    await admin.locator('#setup-name').fill('root');
    await admin.locator('#setup-password').fill(PASSWORD);
    await admin.locator('#setup-button').click();
    await admin.locator('#keys-app').waitFor({ state: 'visible' });
    await admin.locator('#user-tabs [data-view="audit"]').waitFor({ state: 'visible' });
    assert.deepEqual(await visibleTabs(admin), ['API keys', 'Models', 'Logs', 'Top up', 'Password', 'Users', 'Audit', 'Codes', 'Channels', 'Models & prices', 'Tokens']);
    await admin.locator('#user-tabs [data-view="users"]').click();
    await row('root').waitFor();
    assert.match(await row('root').innerText(), /^root\s*admin\s+root\s+\$0\.00\s+enabled/);
    // The last enabled admin cannot step down: the page says why, and root stays an admin.
    await row('root').getByRole('button', { name: 'Revoke admin' }).click();
    await row('root').getByRole('button', { name: 'Revoke' }).click();
    await admin.locator('#alert').filter({ hasText: 'This is the last enabled admin' }).waitFor();
    assert.ok(await admin.locator('#user-tabs [data-view="users"]').isVisible());
    adminBrowser.problems.length = 0; // the refused request (409) is a console error of the browser, expected here
  });

  it('creates a user in the Users view and tops them up; the amount is exact', async () => {
    await admin.locator('#new-user-name').fill('bea');
    await admin.locator('#new-user-password').fill(BEA_PASSWORD);
    await admin.locator('#new-user-button').click();
    await row('bea').waitFor();
    assert.match(await notice().innerText(), /User bea is created, on account bea\./);
    assert.equal(await admin.locator('#new-user-password').inputValue(), '', 'the form forgot the password');
    assert.match(await row('bea').innerText(), /bea[\s\S]*\$0\.00[\s\S]*enabled[\s\S]*never/);

    await row('bea').getByRole('button', { name: 'Top up' }).click();
    await row('bea').getByRole('textbox', { name: 'USD to add to account bea' }).fill('12.5');
    await row('bea').getByRole('button', { name: 'Add' }).click();
    await notice().filter({ hasText: 'Added $12.50 to account bea: its balance is $12.50.' }).waitFor();
    await row('bea').filter({ hasText: '$12.50' }).waitFor();
    mkdirSync(SCREENSHOTS, { recursive: true });
    await admin.screenshot({ path: join(SCREENSHOTS, 'console-admin-users.png'), fullPage: true });
  });

  it('the user signs in in a second browser and sees the balance, with no admin tab; the server refuses them the admin API', async () => {
    await user.goto(t.gw.url);
    await userSignsIn(BEA_PASSWORD);
    await user.locator('#account-balance').filter({ hasText: '$12.50' }).waitFor();
    assert.deepEqual(await visibleTabs(user), ['API keys', 'Models', 'Logs', 'Top up', 'Password'], 'only their own views');
    const refused = await user.evaluate(async () => {
      const res = await fetch('/api/console/admin/users', { credentials: 'same-origin' });
      return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
    });
    assert.deepEqual(refused, [403, 'admin_required']);
  });

  it("resets the user's password (typed once, never shown back): their session ends, the new password works", async () => {
    await row('bea').getByRole('button', { name: 'Reset password' }).click();
    const field = row('bea').getByLabel('New password for bea');
    assert.equal(await field.getAttribute('type'), 'password');
    await field.fill(BEA_NEW_PASSWORD);
    await row('bea').getByRole('button', { name: 'Set password' }).click();
    await notice().filter({ hasText: 'The password of bea is changed; their sessions ended.' }).waitFor();
    assert.ok(!(await admin.content()).includes(BEA_NEW_PASSWORD), 'the new password is nowhere in the page');

    await user.locator('#keys-refresh').click();
    await user.locator('#user-name').waitFor({ state: 'visible' });
    await userSignsIn(BEA_NEW_PASSWORD);
    await user.locator('#account-balance').filter({ hasText: '$12.50' }).waitFor();
  });

  it('disables the user after a confirmation (cancel keeps them); their next request signs them out', async () => {
    await row('bea').getByRole('button', { name: 'Disable' }).click();
    await row('bea').getByText('Disable bea? Their sessions end now.').waitFor();
    await row('bea').getByRole('button', { name: 'Cancel' }).click();
    assert.match(await row('bea').innerText(), /enabled/, 'cancel keeps the user enabled');
    await row('bea').getByRole('button', { name: 'Disable' }).click();
    await row('bea').getByRole('button', { name: 'Disable' }).click();
    await row('bea').getByRole('button', { name: 'Enable' }).waitFor();
    assert.match(await row('bea').innerText(), /disabled/);

    await user.locator('#keys-refresh').click();
    await user.locator('#user-name').waitFor({ state: 'visible' });
    assert.match(await user.locator('#alert').innerText(), /Signed out/);
  });

  it("lists the admin's actions and the CLI's in the Audit view, a name made of HTML as text", async () => {
    await admin.locator('#user-tabs [data-view="audit"]').click();
    const rows = admin.locator('#audit tbody tr');
    await rows.first().waitFor();
    const actions = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).slice(1, 4).map((td) => td.textContent)));
    assert.deepEqual(actions.slice(0, 4), [['root', 'user.disable', 'bea'], ['root', 'user.password_reset', 'bea'], ['root', 'account.topup', 'bea'], ['root', 'user.create', 'bea']]);
    assert.deepEqual(actions.at(-1), ['cli', 'model.price', HOSTILE], 'the HTML is the text of the cell');
    assert.match(await rows.nth(2).innerText(), /amount_micro_usd: 12500000, amount: \$12\.50/);
    assert.equal(await admin.locator('#audit img').count(), 0, 'no element was made from the name');
    assert.equal(await admin.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'and nothing ran');

    await admin.locator('#audit-action').selectOption('account.topup');
    await rows.filter({ hasText: 'account.topup' }).first().waitFor();
    await admin.locator('#audit tbody tr:not([data-action="account.topup"])').first().waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    await admin.screenshot({ path: join(SCREENSHOTS, 'console-admin-audit.png'), fullPage: true });
    assert.deepEqual(adminBrowser.problems, [], 'the CSP blocked nothing and the admin page logged no error');
  });
});
