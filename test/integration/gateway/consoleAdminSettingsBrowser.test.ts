// Gateway settings, invitation codes and self sign-up in a real browser (Debian's chromium, issue 10):
// sign-up is off by default (no link on the sign-in page, the sign-up page says so); an admin turns it to
// invitations with a starting balance, a log retention and a notice made of HTML (wrong values refused in
// the browser first); generates invitations (shown once, copied whole); a visitor, in a second browser,
// reads the notice as text, follows the sign-in page's link, is refused a wrong code in the gateway's
// words and signs up with a right one, signed in at once with the starting balance; the admin sees who
// used it, disables the rest of the batch, and puts sign-up back to its default (off). Screenshots in
// both languages, on a phone and dark; no page error, no CSP report.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { assertNoOverflow, assertNoProblems, open, rowsBecome, screenshots, setLang, signIn, useAdminConsole } from './consoleAdminSupport.ts';

const INVITATION = /^MGI(-[0-9A-HJKMNP-TV-Z]{4}){5}$/;
const NOTICE = '<b>Maintenance</b> on Sunday.\nAsk root@example.com for help.';
const CAROL_PASSWORD = 'carol password 1';

describe('settings, invitations and sign-up in a browser', function () {
  this.timeout(180_000);
  const suite = useAdminConsole();
  let page: Page;
  let base: string;
  let visitorBrowser: ConsoleBrowser;
  let visitor: Page;
  let codes: string[] = [];

  before(async () => {
    page = suite().page;
    base = suite().t.gw.url;
    visitorBrowser = await launchConsoleBrowser(base);
    visitor = visitorBrowser.page;
  });
  after(async () => visitorBrowser?.close());

  const notice = (id: string) => page.locator(`#${id}-notice`);
  const dialog = () => page.locator('dialog[open]');

  it('sign-up is off by default: no link on the sign-in page, and the sign-up page says so', async () => {
    await signIn(page, base, 'root', '#/admin/settings');
    await page.locator('#settings-form').waitFor();
    assert.ok(await page.locator('#settings-sign-up-off').isChecked());
    assert.equal(await page.locator('#settings-balance').inputValue(), '0.00');
    assert.equal(await page.locator('#settings-retention').inputValue(), '90');
    assert.equal(await page.locator('#settings-notice').inputValue(), '');
    assert.equal(await page.locator('#settings-form .badge', { hasText: 'default' }).count(), 4, 'every setting at its default');

    await visitor.goto(`${base}/#/signin`);
    await visitor.locator('#signin-form').waitFor();
    await visitor.locator('#signin-form').getByText('Sign in').waitFor();
    assert.equal(await visitor.locator('#signup-link').count(), 0);
    assert.equal(await visitor.locator('#signin-notice').count(), 0);
    await visitor.goto(`${base}/#/signup`);
    await visitor.locator('#signup-closed', { hasText: 'Its admins create the accounts' }).waitFor();
    assert.equal(await visitor.locator('#signup-form').count(), 0);
  });

  it('the admin turns sign-up to invitations, with a starting balance, a log retention and a notice; wrong values are refused first', async () => {
    await page.locator('#settings-sign-up-invitation').check();
    await page.locator('#settings-balance').fill('0.1234567');
    await page.locator('#settings-retention').fill('-1');
    await page.locator('#settings-submit').click();
    await page.locator('#settings-balance-error', { hasText: 'At most 6 decimals' }).waitFor();
    await page.locator('#settings-retention-error', { hasText: 'A whole number from 0 to 36500.' }).waitFor();
    assert.deepEqual(await suite().store.settings.read(), {}, 'nothing was sent');

    await page.locator('#settings-balance').fill('$0.50');
    await page.locator('#settings-retention').fill('30');
    await page.locator('#settings-notice').fill(NOTICE);
    await page.locator('#settings-submit').click();
    await notice('settings').filter({ hasText: 'Settings saved.' }).waitFor();
    assert.equal(await page.locator('#settings-form .badge', { hasText: 'default' }).count(), 0);
    assert.equal(await page.locator('#settings-balance').inputValue(), '0.50');
    assert.deepEqual(await suite().store.settings.read(), { sign_up: 'invitation', new_user_balance: 500_000, log_retention_days: 30, notice: NOTICE });
    await page.locator('#settings-submit').click();
    await notice('settings').filter({ hasText: 'Nothing changed.' }).waitFor();
    await screenshots(page, 'settings', () => page.locator('#settings-sign-up-invitation:checked'), '设置');
  });

  it('generates invitations: shown once, copied whole, listed without the codes', async () => {
    await open(page, base, '#/admin/invitations');
    await page.locator('#invitations-mode', { hasText: 'Sign-up is now: with an invitation code.' }).waitFor();
    await page.getByText('No invitations yet. Generate some above.').waitFor();
    await page.locator('#invite-count').fill('2');
    await page.locator('#invite-batch').fill('team');
    await page.locator('#invite-submit').click();
    await page.locator('#new-invitations').waitFor();
    codes = (await page.locator('#new-invitations-list').innerText()).trim().split('\n');
    assert.equal(codes.length, 2);
    for (const code of codes) assert.match(code, INVITATION);
    assert.equal(await page.locator('#new-invitations-what').innerText(), '2 invitations, batch team');
    await page.getByRole('button', { name: 'Copy all invitation codes' }).click();
    await page.getByRole('button', { name: 'Copy all invitation codes' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), codes.join('\n'));
    const rows = page.locator('[data-testid="invitations-table"] tbody tr');
    await rows.nth(1).waitFor();
    assert.match(await rows.first().innerText(), /team\s+unused\s+—[\s\S]*by root[\s\S]*never/);
    await page.locator('#new-invitations-done').click();
    await page.locator('#new-invitations').waitFor({ state: 'detached' });
    const html = await page.content();
    for (const code of codes) assert.ok(!html.includes(code.slice(4)), 'no code left in the DOM');
  });

  it('a visitor reads the notice as text, follows the link, is refused a wrong code and signs up with a right one', async () => {
    await visitor.goto(`${base}/#/signin`);
    await visitor.locator('#signin-notice').waitFor();
    assert.equal(await visitor.locator('#signin-notice').innerText(), NOTICE, 'its line break kept');
    assert.equal(await visitor.locator('#main b').count(), 0, 'the notice is text, never HTML');
    await visitor.screenshot({ path: join(SCREENSHOTS, 'console-admin-signin-notice-en.png'), fullPage: true });
    await visitor.locator('#signup-link', { hasText: 'Create an account' }).click();
    await visitor.locator('#signup-form').waitFor();
    await visitor.locator('#signup-name').fill('carol');
    await visitor.locator('#signup-password').fill(CAROL_PASSWORD);
    await visitor.locator('#signup-repeat').fill('carol password 2');
    await visitor.locator('#signup-form button[type=submit]').click();
    await visitor.locator('#signup-repeat-error', { hasText: 'The two passwords differ.' }).waitFor();
    await visitor.locator('#signup-code-error', { hasText: 'needs an invitation code' }).waitFor();
    await visitor.locator('#signup-repeat').fill(CAROL_PASSWORD);
    await visitor.locator('#signup-code').fill('MGI-0000-0000-0000-0000-0000');
    await visitor.locator('#signup-form button[type=submit]').click();
    await visitor.locator('#main .alert.error', { hasText: 'This invitation code cannot be used' }).waitFor();
    assert.match(await visitor.locator('#main .alert.error').innerText(), /invitation_invalid/);
    await visitor.setViewportSize({ width: 390, height: 844 });
    await assertNoOverflow(visitor, 'sign-up on a phone');
    await visitor.screenshot({ path: join(SCREENSHOTS, 'console-admin-signup-phone.png'), fullPage: true });
    await visitor.setViewportSize({ width: 1280, height: 900 });
    await setLang(visitor, 'zh-CN');
    await visitor.locator('#signup-title', { hasText: '创建账户' }).waitFor();
    await visitor.screenshot({ path: join(SCREENSHOTS, 'console-admin-signup-zh-CN.png'), fullPage: true });
    await setLang(visitor, 'en');
    await visitor.screenshot({ path: join(SCREENSHOTS, 'console-admin-signup-en.png'), fullPage: true });

    await visitor.locator('#signup-code').fill(codes[0]!.toLowerCase());
    await visitor.locator('#signup-form button[type=submit]').click();
    await visitor.locator('#signout').waitFor();
    assert.equal(await visitor.locator('[data-testid="who"]').innerText(), 'carol');
    assert.equal((await suite().store.getAccount('carol'))!.balance, 500_000, 'the starting balance of the settings');
    assertNoProblems(visitorBrowser, [/status of 400/]);
  });

  it('the admin sees who used the invitation and disables the rest of the batch after a confirmation', async () => {
    await page.locator('#invitations-refresh').click();
    await page.locator('[data-testid="invitations-table"] tbody tr', { hasText: 'carol' }).waitFor();
    assert.match(await page.locator('[data-testid="invitations-table"] tbody tr', { hasText: 'carol' }).innerText(), /team\s+used\s+carol/);
    await page.locator('#invitations-batch').fill('team');
    await page.locator('#invitations-disable-batch').click();
    await dialog().getByText('Disable every unused invitation of team?').waitFor();
    await dialog().getByRole('button', { name: 'Disable' }).click();
    await notice('invitations').filter({ hasText: '1 invitation of team is disabled.' }).waitFor();
    await page.locator('[data-testid="invitations-table"] tbody tr', { hasText: 'disabled' }).waitFor();
    await screenshots(page, 'invitations', () => page.locator('[data-testid="invitations-table"] tbody tr', { hasText: 'carol' }), '邀请码');
  });

  it('puts sign-up back to its default (off): the sign-up page is closed again; the audit log has it all', async () => {
    await open(page, base, '#/admin/settings');
    await page.locator('#settings-reset-sign_up').click();
    await notice('settings').filter({ hasText: 'Sign-up is back to its default.' }).waitFor();
    assert.ok(await page.locator('#settings-sign-up-off').isChecked());
    await visitor.locator('#signout').click();
    await visitor.locator('#signin-form').waitFor();
    await visitor.goto(`${base}/#/signup`);
    await visitor.locator('#signup-closed').waitFor();
    await open(page, base, '#/admin/audit');
    await rowsBecome(page, 'audit-table', 'data-action', ['settings.change', 'invitation.disable', 'user.sign_up', 'invitation.create', 'settings.change']);
    assert.match(await page.locator('[data-testid="audit-table"] tr[data-action="user.sign_up"]').innerText(), /carol\s+signed up/);
    assertNoProblems(suite().browser);
  });
});
