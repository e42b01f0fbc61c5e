// The account page (#/account) in a real browser (Debian's chromium, issue 10): who is signed in, on which
// account, its balance; the password change (two new passwords that differ are caught on the page, a wrong
// current password is refused in the gateway's words, the right one changes it: every other session of the
// user ends, this one stays, and the new password signs in while the old one is refused); the language and
// theme chosen here apply at once, everywhere on the page, and stay after a reload. Screenshots in both
// languages and on a phone. No page error and nothing blocked by the CSP (the refusals caused excepted).
import assert from 'node:assert/strict';
import { consoleAgent, PASSWORD } from './consoleAgent.ts';
import { assertNoProblems, REFUSED, setLang, shootBothLanguages, signIn, signOut, useUserSuite } from './consoleUserSupport.ts';

const NEW_PASSWORD = 'changed in the browser';

describe('console account page in a browser', function () {
  this.timeout(120_000);
  const suite = useUserSuite();
  const page = () => suite().page;

  it('shows the user, the account and its balance', async () => {
    await signIn(suite(), 'ada', '#/account');
    await setLang(page(), 'en');
    await page().locator('[data-testid=account-balance] .stat-value', { hasText: '$1.00' }).waitFor();
    assert.match(await page().locator('[data-testid=account-user]').innerText(), /ada[\s\S]*user/);
    assert.match(await page().locator('[data-testid=account-name]').innerText(), /ada/);
    await shootBothLanguages(page(), 'account');
  });

  it('changes the password: differing new passwords caught on the page, a wrong current one refused, then every other session ended', async () => {
    const elsewhere = consoleAgent(suite().t.gw);
    assert.equal((await elsewhere.signIn('ada')).status, 200);

    await page().locator('#password-current').fill(PASSWORD);
    await page().locator('#password-new').fill(NEW_PASSWORD);
    await page().locator('#password-again').fill(`${NEW_PASSWORD}!`);
    await page().getByText('The two new passwords differ.').waitFor();
    assert.ok(await page().locator('#password-button').isDisabled());

    await page().locator('#password-again').fill(NEW_PASSWORD);
    await page().locator('#password-current').fill('not my password');
    await page().locator('#password-button').click();
    await page().locator('#password-form .alert.error', { hasText: 'The current password is wrong' }).waitFor();
    assert.equal(await page().locator('#password-current').inputValue(), '', 'the wrong password is emptied');
    assert.equal((await elsewhere.get('/api/console/session')).json.user?.name, 'ada', 'nothing changed');

    await page().locator('#password-current').fill(PASSWORD);
    await page().locator('#password-button').click();
    await page().locator('#password-done').waitFor();
    assert.match(await page().locator('#password-done').innerText(), /Every other browser signed in as you was signed out/);
    for (const id of ['#password-current', '#password-new', '#password-again']) assert.equal(await page().locator(id).inputValue(), '', `${id} emptied`);
    assert.equal((await elsewhere.get('/api/console/session')).json.user, null, 'the other session ended');
    await page().reload();
    await page().locator('[data-testid=account-user]').waitFor();
    assert.equal(await page().locator('[data-testid=who]').innerText(), 'ada', 'this browser stays signed in');
    assertNoProblems(suite(), [REFUSED(403)]);
    suite().browser.problems.length = 0;
  });

  it('signs in with the new password; the old one is refused', async () => {
    await signOut(suite());
    await page().locator('#signin-name').fill('ada');
    await page().locator('#signin-password').fill(PASSWORD);
    await page().locator('#signin-form button[type=submit]').click();
    await page().locator('.alert.error', { hasText: 'the user name or the password is wrong' }).waitFor();
    await signIn(suite(), 'ada', '#/account', NEW_PASSWORD);
    await page().locator('[data-testid=account-user]').waitFor();
    assertNoProblems(suite(), [REFUSED(401)]);
    suite().browser.problems.length = 0;
  });

  it('the language and theme chosen here apply at once, in the top bar too, and stay after a reload', async () => {
    await page().locator('#account-lang').selectOption('zh-CN');
    await page().waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page().locator('h1', { hasText: '账户' }).waitFor();
    assert.equal(await page().locator('#pref-lang').inputValue(), 'zh-CN');
    await page().locator('#account-theme').selectOption('dark');
    assert.equal(await page().evaluate(() => document.documentElement.dataset['theme']), 'dark');
    assert.equal(await page().locator('#pref-theme').inputValue(), 'dark', 'the top bar shows the same theme');
    await page().reload();
    await page().locator('h1', { hasText: '账户' }).waitFor();
    assert.equal(await page().locator('#account-theme').inputValue(), 'dark');
    assert.equal(await page().evaluate(() => document.documentElement.dataset['theme']), 'dark');
    await page().locator('#pref-theme').selectOption('system');
    assert.equal(await page().locator('#account-theme').inputValue(), 'system', 'and the other way round');
    await page().locator('#account-lang').selectOption('en');
    await page().locator('h1', { hasText: 'Account' }).waitFor();
    assertNoProblems(suite());
  });
});
