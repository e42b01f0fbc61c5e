// Admin access tokens in a real browser (Debian's chromium, issue 10): an admin makes a token in the
// Tokens view (shown once with a copy button and a curl example, gone from the page after "I have copied
// it"), sees it listed without it, and a script uses it; the Audit view shows the script's change under
// the admin and the token; the admin revokes it after a confirmation and the script is refused. A user
// who is not an admin has no Tokens tab. No CSP violation or page error throughout.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { assertError } from '../../support/answer.ts';
import { SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { useConsoleInBrowser } from './consoleBrowserSuite.ts';
import { call, type Started } from './helpers.ts';

const TOKEN = /^mgt-[A-Za-z0-9_-]{43}$/;

describe('admin access tokens in a browser', function () {
  this.timeout(90_000);
  const suite = useConsoleInBrowser();
  const { signIn, signOut, tab } = suite;
  let t: Started;
  let browser: ConsoleBrowser;
  let page: Page;
  let token = '';
  before(() => void ({ t, browser, page } = suite.now()));

  /** Chromium reports a refused request as a failed resource load: none is expected here. */
  const problems = () => browser.problems;

  it('an admin makes a token in the Tokens view: shown once with a copy button and a curl example, listed without it', async () => {
    await page.goto(t.gw.url);
    await signIn('root');
    await tab('Tokens').click();
    await page.locator('#view-tokens').waitFor({ state: 'visible' });
    await page.locator('#tokens').getByText('No admin access tokens yet').waitFor();
    assert.equal(await page.locator('#tokens-openapi').innerText(), '/api/openapi.json');
    await page.locator('#new-token-input-name').fill('reports');
    await page.locator('#new-token-button').click();
    await page.locator('#new-token').waitFor({ state: 'visible' });
    token = (await page.locator('#new-token-value').innerText()).trim();
    assert.match(token, TOKEN);
    assert.equal(await page.locator('#new-token-name').innerText(), 'reports');
    assert.equal(await page.locator('#new-token-example').innerText(), `curl ${t.gw.url}/api/console/admin/users \\\n  -H "Authorization: Bearer ${token}"`);

    await page.getByRole('button', { name: 'Copy admin access token' }).click();
    await page.getByRole('button', { name: 'Copy admin access token' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);

    const row = page.locator('#tokens tr[data-token-name="reports"]');
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(`reports[\\s\\S]*${token.slice(0, 8)}…[\\s\\S]*active[\\s\\S]*root[\\s\\S]*never[\\s\\S]*never`));
    await page.screenshot({ path: join(SCREENSHOTS, 'console-tokens.png'), fullPage: true });

    await page.locator('#new-token-done').click();
    await page.locator('#new-token').waitFor({ state: 'hidden' });
    const html = await page.content();
    assert.ok(!html.includes(token) && !html.includes(token.slice(8)), 'no token left in the DOM');
    assert.equal(await page.evaluate(() => sessionStorage.length + localStorage.length), 0, 'nothing kept in web storage');
    assert.deepEqual(problems(), []);
  });

  it("a script uses it; the Audit view shows the change under the admin, via the token; the list shows its use", async () => {
    const topped = await call(t.gw, 'POST', '/api/console/admin/accounts/topup', { key: token, body: { account: 'ada', amount_usd: '2' } });
    assert.equal(topped.status, 200, topped.text);
    await tab('Audit').click();
    const row = page.locator('#audit tr[data-action="account.topup"]');
    await row.waitFor();
    assert.match(await row.innerText(), /root via token reports[\s\S]*account\.topup[\s\S]*ada/);
    await tab('Tokens').click();
    await page.locator('#tokens tr[data-token-name="reports"]').filter({ hasNotText: /never\s+never/ }).waitFor();
    assert.deepEqual(problems(), []);
  });

  it('revokes the token after a confirmation: the list says so, and the script is refused', async () => {
    const row = page.locator('#tokens tr[data-token-name="reports"]');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoke reports? Scripts using it are refused at once.').waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.locator('.pill', { hasText: 'revoked' }).waitFor();
    assert.equal(await row.getByRole('button', { name: 'Revoke' }).count(), 0, 'nothing left to revoke');
    assertError(await call(t.gw, 'GET', '/api/console/admin/users', { key: token }), 403, 'admin_token_revoked');
    assert.deepEqual(problems(), []);
  });

  it('a user who is not an admin has no Tokens tab', async () => {
    await signOut();
    await signIn('ada');
    assert.ok(await tab('Tokens').isHidden(), 'the Tokens view is for admins');
    assert.ok(await page.locator('#view-tokens').isHidden());
    assert.deepEqual(problems(), []);
  });
});
