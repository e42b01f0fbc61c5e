// The admins' Users and Audit log pages in a real browser (Debian's chromium, issue 10), on a real
// gateway over a real SQLite file: the first admin is made with the setup link and sees the admin menu;
// the last admin cannot step down (the gateway's words shown); a user is created and topped up with an
// exact amount (a wrong one refused in the browser before anything is sent); that user, in a second
// browser, has no admin menu, is refused an admin page, and the server refuses them the admin API; a
// password reset (typed once, never shown back) ends their session; a disable asks first (Cancel keeps
// them) and ends it too; the audit log lists it all newest first, filters by action, and shows a model
// name made of HTML as text. Screenshots in both languages, on a phone and dark; no page error, no CSP report.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { main } from '../../../src/gateway/cli.ts';
import { createUser } from '../../../src/gateway/accounts/users.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './browser.ts';
import { PASSWORD } from './consoleAgent.ts';
import { assertNoOverflow, assertNoProblems, menu, open, rowOf, rowsBecome, screenshots, signIn, useAdminConsole } from './consoleAdminSupport.ts';

/** A model name the CLI accepts (printable text) that a page writing HTML would run. */
const HOSTILE = '<img src=x onerror="window.__xss=1">';
const BEA_PASSWORD = 'bea first password';
const BEA_NEW_PASSWORD = 'bea second password';
/** The longest user name there can be: it wraps in its cell. */
const LONG = `${'long-user-name.'.repeat(4)}abcd`;
/** Chromium logs a refused request as a console error: these are the ones the tests ask for. */
const REFUSALS = [/status of 409/, /status of 403/];

describe("the admins' users and audit log in a browser", function () {
  this.timeout(180_000);
  const suite = useAdminConsole({ firstAdminSetup: true, bare: true });
  let admin: Page;
  let base: string;
  let userBrowser: ConsoleBrowser;
  let user: Page;

  before(async () => {
    const { t, store } = suite();
    admin = suite().page;
    base = t.gw.url;
    // The command line prices a model whose name is HTML: its audit row's target must show as text.
    const err: string[] = [];
    const code = await main(['--data', t.dir, 'model', 'price', HOSTILE, '--free'], { out: () => undefined, err: (l) => err.push(l) }, { ...process.env, MODEL_GATEWAY_DATA: '' });
    assert.equal(code, 0, err.join('\n'));
    assert.equal(LONG.length, 64);
    await createUser(store, { name: LONG, password: PASSWORD, admin: false });
    userBrowser = await launchConsoleBrowser(base);
    user = userBrowser.page;
  });
  after(async () => userBrowser?.close());

  const row = (name: string) => rowOf(admin, 'users-table', 'data-user', name);
  const notice = () => admin.locator('#users-notice');
  const dialog = (page: Page = admin) => page.locator('dialog[open]');

  it('the first admin, made with the setup link, has the admin menu; the Users page lists them; the last admin cannot step down', async () => {
    await admin.goto(suite().t.gw.setupUrl!);
    await admin.locator('#setup-name').fill('root');
    await admin.locator('#setup-password').fill(PASSWORD);
    await admin.locator('#setup-repeat').fill(PASSWORD);
    await admin.locator('#setup-form button[type=submit]').click();
    await admin.locator('#signout').waitFor();
    assert.deepEqual((await menu(admin)).slice(7), ['Overview', 'Users', 'Channels', 'Models & prices', 'Redemption codes', 'Invitations', 'All logs', 'Access tokens', 'Audit log', 'Settings']);
    await admin.locator('#side a', { hasText: /^Users$/ }).click();
    await row('root').waitFor();
    assert.match(await row('root').innerText(), /^root\s*admin\s*you\s+root\s+\$0\.00\s+enabled/);
    assert.match(await row(LONG).innerText(), new RegExp(`${LONG.replaceAll('.', '\\.')}\\s+${LONG.replaceAll('.', '\\.')}\\s+\\$0\\.00\\s+enabled[\\s\\S]*never`));

    await row('root').getByRole('button', { name: 'Revoke admin root' }).click();
    await dialog().getByText('Revoke admin of root?').waitFor();
    await dialog().getByRole('button', { name: 'Revoke admin' }).click();
    await admin.locator('#users-error').filter({ hasText: 'This is the last enabled admin' }).waitFor();
    assert.match(await admin.locator('#users-error').innerText(), /409 · last_admin/);
    assert.match(await row('root').innerText(), /admin/);
    assert.ok(await admin.locator('#side a', { hasText: 'Audit log' }).isVisible(), 'still an admin');
  });

  it('creates a user in a dialog, then tops their account up by an exact amount; a wrong amount is refused before it is sent', async () => {
    await admin.locator('#new-user-open').click();
    await admin.locator('#new-user-name').fill('bea');
    await admin.locator('#new-user-password').fill('short');
    await admin.locator('#new-user-submit').click();
    await dialog().getByText('At least 10 characters.', { exact: true }).first().waitFor();
    // A name taken: refused by the server, the password typed is kept to send again with another name.
    await admin.locator('#new-user-name').fill('root');
    await admin.locator('#new-user-password').fill(BEA_PASSWORD);
    await admin.locator('#new-user-submit').click();
    await dialog().locator('.alert.error').waitFor();
    assert.equal(await admin.locator('#new-user-password').inputValue(), BEA_PASSWORD);
    await admin.locator('#new-user-name').fill('bea');
    await admin.locator('#new-user-submit').click();
    await notice().filter({ hasText: 'User bea is created, on account bea.' }).waitFor();
    await row('bea').waitFor();
    assert.equal(await admin.locator('#new-user-password').count(), 0, 'the dialog and its password are gone');
    assert.match(await row('bea').innerText(), /bea\s+bea\s+\$0\.00\s+enabled[\s\S]*never/);

    await row('bea').getByRole('button', { name: 'Top up bea' }).click();
    const amount = admin.locator('#topup-amount');
    for (const [typed, said] of [['12.1234567', 'At most 6 decimals'], ['1,000', 'digits and a point'], ['0', 'more than $0']] as const) {
      await amount.fill(typed);
      await admin.locator('#topup-submit').click();
      await dialog().locator('.field-error', { hasText: said }).waitFor();
    }
    assert.equal((await suite().store.getAccount('bea'))!.balance, 0, 'nothing was sent');
    await amount.fill('$12.5');
    await admin.locator('#topup-submit').click();
    await notice().filter({ hasText: 'Added $12.50 to account bea: its balance is $12.50.' }).waitFor();
    await row('bea').filter({ hasText: '$12.50' }).waitFor();
    await row('bea').getByRole('button', { name: 'Top up bea' }).click();
    await amount.fill('0.000001');
    await admin.locator('#topup-submit').click();
    await notice().filter({ hasText: 'Added $0.000001 to account bea: its balance is $12.500001.' }).waitFor();
    assert.equal((await suite().store.getAccount('bea'))!.balance, 12_500_001, 'exact to the micro-dollar');
  });

  it('the user, in a second browser, has no admin menu and is refused an admin page; the server refuses them the admin API', async () => {
    await signIn(user, base, 'bea', '#/', BEA_PASSWORD);
    assert.deepEqual(await menu(user), ['Dashboard', 'API keys', 'Models', 'Playground', 'Logs', 'Top up', 'Account']);
    assert.equal(await user.locator('#side').getByText('Administration').count(), 0);
    await open(user, base, '#/admin/users');
    await user.getByText('This page is for admins.').waitFor();
    assert.equal(await user.locator('[data-testid="users-table"]').count(), 0);
    const refused = await user.evaluate(async () => {
      const res = await fetch('/api/console/admin/users', { credentials: 'same-origin' });
      return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
    });
    assert.deepEqual(refused, [403, 'admin_required']);
  });

  it("resets the user's password (typed once, never shown back): their session ends, the new password works", async () => {
    await row('bea').getByRole('button', { name: 'Reset password bea' }).click();
    const field = admin.locator('#reset-password');
    assert.equal(await field.getAttribute('type'), 'password');
    assert.equal(await field.getAttribute('autocomplete'), 'new-password');
    await field.fill(BEA_NEW_PASSWORD);
    await admin.locator('#reset-password-submit').click();
    await notice().filter({ hasText: 'The password of bea is changed; their sessions ended.' }).waitFor();
    assert.ok(!(await admin.content()).includes(BEA_NEW_PASSWORD), 'the new password is nowhere in the page');

    await user.reload();
    await user.locator('#signin-name').waitFor();
    await signIn(user, base, 'bea', '#/', BEA_NEW_PASSWORD);
  });

  it('disables the user after a confirmation (Cancel keeps them); their session ends', async () => {
    await row('bea').getByRole('button', { name: 'Disable bea' }).click();
    await dialog().getByText('Disable bea?').waitFor();
    assert.match(await dialog().innerText(), /Their sessions end now, the API keys they made stop working/);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.match(await row('bea').innerText(), /enabled/, 'Cancel keeps the user enabled');
    assert.equal((await suite().store.listUsers()).find((u) => u.name === 'bea')!.status, 'enabled');

    await row('bea').getByRole('button', { name: 'Disable bea' }).click();
    await dialog().getByRole('button', { name: 'Disable' }).click();
    await notice().filter({ hasText: 'bea is disabled; their sessions ended and their API keys stopped working.' }).waitFor();
    await row('bea').getByRole('button', { name: 'Enable bea' }).waitFor();
    assert.match(await row('bea').innerText(), /disabled/);

    await user.reload();
    await user.locator('#signin-name').waitFor();
    await user.locator('#signin-name').fill('bea');
    await user.locator('#signin-password').fill(BEA_NEW_PASSWORD);
    await user.locator('#signin-form button[type=submit]').click();
    await user.locator('.alert.error').waitFor();
    assert.equal(await user.locator('#signout').count(), 0, 'a disabled user cannot sign in');
    assertNoProblems(userBrowser, [...REFUSALS, /status of 401/]);
  });

  it('works from the keyboard alone: a user created, a confirmation cancelled with Escape', async () => {
    const keys = admin.keyboard;
    await admin.locator('#new-user-open').focus();
    await keys.press('Enter');
    await admin.locator('#new-user-name').waitFor();
    assert.ok(await admin.locator('#new-user-name').evaluate((el) => el === document.activeElement), 'the dialog takes the focus');
    await keys.type('kim');
    await keys.press('Tab');
    await keys.type('kim password 1');
    await keys.press('Tab');
    assert.ok(await admin.locator('#new-user-account-new').evaluate((el) => el === document.activeElement), 'then the account choice');
    await keys.press('Tab');
    assert.ok(await admin.locator('#new-user-admin').evaluate((el) => el === document.activeElement), 'then the admin box');
    await keys.press('Tab');
    await keys.press('Tab');
    assert.ok(await admin.locator('#new-user-submit').evaluate((el) => el === document.activeElement), 'Cancel, then Create user');
    await keys.press('Enter');
    await notice().filter({ hasText: 'User kim is created, on account kim.' }).waitFor();
    await row('kim').getByRole('button', { name: 'Disable kim' }).focus();
    await keys.press('Enter');
    await dialog().getByText('Disable kim?').waitFor();
    await keys.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    assert.match(await row('kim').innerText(), /enabled/, 'Escape is Cancel');
  });

  it('the Users page in both languages, on a phone and dark, with no overflow', async () => {
    await admin.locator('#users-q').fill('BE');
    await rowsBecome(admin, 'users-table', 'data-user', ['bea']);
    assert.equal(await admin.locator('#users-q').inputValue(), 'BE', 'the search is any case');
    await admin.locator('#users-q').fill('');
    await row('root').waitFor();
    await screenshots(admin, 'users', () => row(LONG), '用户');
    await assertNoOverflow(admin, 'users');
  });

  it("lists the admin's actions and the CLI's in the Audit log, newest first, a name made of HTML as text; filters by action", async () => {
    await open(admin, base, '#/admin/audit');
    const rows = admin.locator('[data-testid="audit-table"] tbody tr');
    await rows.first().waitFor();
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => [tr.querySelector('td:nth-child(2) strong')?.textContent, tr.getAttribute('data-action'), tr.querySelector('.audit-target')?.textContent]));
    assert.deepEqual(cells.slice(0, 6), [
      ['root', 'user.create', 'kim'], ['root', 'user.disable', 'bea'], ['root', 'user.password_reset', 'bea'], ['root', 'account.topup', 'bea'], ['root', 'account.topup', 'bea'], ['root', 'user.create', 'bea'],
    ]);
    assert.deepEqual(cells.find((c) => c[1] === 'model.price'), ['cli', 'model.price', HOSTILE], 'the HTML is the text of the cell');
    assert.match(await rows.nth(4).innerText(), /account topped up[\s\S]*amount: \$12\.50/);
    assert.equal(await admin.locator('#main img').count(), 0, 'no element was made from the name');
    assert.equal(await admin.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'and nothing ran');

    await admin.locator('#audit-action').selectOption('account.topup');
    await rowsBecome(admin, 'audit-table', 'data-action', ['account.topup', 'account.topup']);
    await admin.locator('#audit-action').selectOption('');
    await admin.locator('#audit-actor').fill('cli');
    await rowsBecome(admin, 'audit-table', 'data-action', ['model.price']);
    await admin.locator('#audit-actor').fill('');
    await screenshots(admin, 'audit', () => admin.locator('[data-testid="audit-table"] tbody tr[data-action="user.create"]'), '审计日志');
    assertNoProblems(suite().browser, REFUSALS);
  });
});
