// Admin access tokens in a real browser (Debian's chromium, issue 10): an admin makes a token (shown
// once with a copy button and a curl example, gone from the page when copied), sees it listed without
// it, and a script uses it; the audit log shows the script's change under the admin and the token; the
// list shows its last use; a second token of a taken name is refused in the gateway's words; the admin
// revokes it after a confirmation (Cancel keeps it) and the script is refused. Screenshots in both
// languages, on a phone and dark; no page error, no CSP report.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from './browser.ts';
import { assertError } from '../../support/answer.ts';
import { call } from './helpers.ts';
import { assertNoProblems, open, rowOf, screenshots, signIn, useAdminConsole } from './consoleAdminSupport.ts';

const TOKEN = /^mgt-[A-Za-z0-9_-]{43}$/;

describe('admin access tokens in a browser', function () {
  this.timeout(180_000);
  const suite = useAdminConsole();
  let page: Page;
  let base: string;
  let token = '';

  before(() => {
    page = suite().page;
    base = suite().t.gw.url;
  });

  const row = (name: string) => rowOf(page, 'tokens-table', 'data-token-name', name);
  const dialog = () => page.locator('dialog[open]');

  it('makes a token: shown once with a copy button and a curl example, listed without it, gone when copied', async () => {
    await signIn(page, base, 'root', '#/admin/tokens');
    await page.getByText('No admin access tokens yet').waitFor();
    assert.equal(await page.locator('#tokens-openapi').innerText(), '/api/openapi.json');
    await page.locator('#new-token-name').fill('reports');
    await page.locator('#new-token-submit').click();
    await page.locator('#new-token').waitFor();
    token = (await page.locator('#new-token-value').innerText()).trim();
    assert.match(token, TOKEN);
    assert.equal(await page.locator('#new-token-label').innerText(), 'reports');
    assert.equal(await page.locator('#new-token-example').innerText(), `curl ${base}/api/console/admin/users \\\n  -H "Authorization: Bearer ${token}"`);

    await page.getByRole('button', { name: 'Copy admin access token' }).click();
    await page.getByRole('button', { name: 'Copy admin access token' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);
    await page.getByRole('button', { name: 'Copy the curl command' }).click();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^curl .*\n  -H "Authorization: Bearer mgt-/);

    await row('reports').waitFor();
    assert.match(await row('reports').innerText(), new RegExp(`^reports\\s+${token.slice(0, 8)}…\\s+active\\s+root\\s+[\\s\\S]*never\\s+never`));
    await page.screenshot({ path: join(SCREENSHOTS, 'console-admin-tokens-shown-once.png'), fullPage: true });

    await page.locator('#new-token-done').click();
    await page.locator('#new-token').waitFor({ state: 'detached' });
    const html = await page.content();
    assert.ok(!html.includes(token) && !html.includes(token.slice(8)), 'no token left in the DOM');
    assert.ok(!(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).includes(token.slice(8)), 'nor in web storage');
  });

  it('a script uses it; the audit log shows the change under the admin, via the token; the list shows its use', async () => {
    const topped = await call(suite().t.gw, 'POST', '/api/console/admin/accounts/topup', { key: token, body: { account: 'ada', amount_usd: '2' } });
    assert.equal(topped.status, 200, topped.text);
    await open(page, base, '#/admin/audit');
    const audit = page.locator('[data-testid="audit-table"] tr[data-action="account.topup"]');
    await audit.waitFor();
    assert.match(await audit.innerText(), /root\s+via token reports\s+account topped up\s+account\.topup\s+ada/);
    await open(page, base, '#/admin/tokens');
    await row('reports').filter({ hasNotText: /never\s+never/ }).waitFor();
  });

  it('refuses a second token of a taken name in the gateway’s words', async () => {
    await page.locator('#new-token-name').fill('reports');
    await page.locator('#new-token-submit').click();
    await page.locator('#new-token-form .alert.error', { hasText: 'An admin access token with this name exists already' }).waitFor();
    assert.equal(await page.locator('#new-token').count(), 0);
  });

  it('revokes the token after a confirmation (Cancel keeps it): the list says so, and the script is refused', async () => {
    await row('reports').getByRole('button', { name: 'Revoke reports' }).click();
    await dialog().getByText('Revoke reports?').waitFor();
    assert.match(await dialog().innerText(), /Scripts using it are refused from their next request on/);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.equal((await call(suite().t.gw, 'GET', '/api/console/admin/users', { key: token })).status, 200, 'Cancel keeps it');
    await row('reports').getByRole('button', { name: 'Revoke reports' }).click();
    await dialog().getByRole('button', { name: 'Revoke' }).click();
    await page.locator('#tokens-notice', { hasText: 'Token reports is revoked.' }).waitFor();
    await row('reports').filter({ hasText: 'revoked' }).waitFor();
    assert.equal(await row('reports').getByRole('button').count(), 0, 'nothing left to revoke');
    assertError(await call(suite().t.gw, 'GET', '/api/console/admin/users', { key: token }), 403, 'admin_token_revoked');
    await screenshots(page, 'tokens', () => row('reports'), '管理员访问令牌');
    assertNoProblems(suite().browser, [/status of 409/]);
  });
});
