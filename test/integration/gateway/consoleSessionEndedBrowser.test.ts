// A session that ends while the console is open (Debian's chromium): signed out in another tab of the same
// browser, or ended by a password change made elsewhere. The next thing the person does on the open page is
// refused with not_signed_in; the console then forgets the user and shows the sign-in form with the page
// they were on as `next` and a word that the session ended, instead of keeping the layout of a user that is
// no longer signed in and showing "401 not_signed_in" on every page. Signing in again goes back to that page.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { consoleAgent, PASSWORD } from './consoleAgent.ts';
import { assertNoProblems, REFUSED, signIn, useUserSuite } from './consoleUserSupport.ts';

const NEW_PASSWORD = 'changed somewhere else';

/** Clicks a page of the menu; the page asks the gateway for its data as it opens. */
async function openFromMenu(page: Page, path: string): Promise<void> {
  await page.locator(`#side a[href="#${path}"]`).first().click();
}

/** The sign-in form stands where the page was, saying why, with the page to go back to. */
async function assertSentToSignIn(page: Page, next: string): Promise<void> {
  await page.locator('#signin-form').waitFor({ state: 'visible' });
  await page.locator('#signin-ended').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#signout').count(), 0, 'the signed-in layout is gone');
  assert.equal(await page.locator('[data-testid=who]').count(), 0, 'no user shown');
  const hash = new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');
  assert.equal(hash.get('next'), next);
}

async function signInAgainOn(page: Page, password: string): Promise<void> {
  await page.locator('#signin-name').fill('ada');
  await page.locator('#signin-password').fill(password);
  await page.locator('#signin-form button[type=submit]').click();
  await page.locator('#signout').waitFor({ state: 'visible' });
}

describe('console: a session that ends while a page is open', function () {
  this.timeout(120_000);
  const suite = useUserSuite();

  it('signed out in another tab: the next click in this tab lands on the sign-in form, then back on the page', async () => {
    const first = suite().page;
    await signIn(suite(), 'ada', '#/keys');
    const second = await suite().browser.context.newPage();
    try {
      await second.goto(`${suite().t.gw.url}/#/keys`);
      await second.locator('[data-testid=who]', { hasText: 'ada' }).waitFor();

      await first.locator('#signout').click();
      await first.locator('#signin-name').waitFor({ state: 'visible' });
      assert.equal(await second.locator('[data-testid=who]').innerText(), 'ada', 'the other tab does not know yet');

      await openFromMenu(second, '/models');
      await assertSentToSignIn(second, '/models');

      await signInAgainOn(second, PASSWORD);
      await second.waitForFunction(() => location.hash.startsWith('#/models'));
      await second.locator('[data-testid=who]', { hasText: 'ada' }).waitFor();
      assert.equal(await second.locator('#signin-ended').count(), 0);
    } finally {
      await second.close();
    }
    suite().browser.problems.length = 0;
  });

  it('password changed in another browser: the next page opened lands on the sign-in form', async () => {
    const page = suite().page;
    await signIn(suite(), 'ada', '#/logs');
    const elsewhere = consoleAgent(suite().t.gw);
    assert.equal((await elsewhere.signIn('ada')).status, 200);
    assert.equal((await elsewhere.post('/api/console/password', { current: PASSWORD, new: NEW_PASSWORD })).status, 200);

    await openFromMenu(page, '/keys');
    await assertSentToSignIn(page, '/keys');
    await signInAgainOn(page, NEW_PASSWORD);
    await page.waitForFunction(() => location.hash.startsWith('#/keys'));
    assertNoProblems(suite(), [REFUSED(401)]);
  });

  it('sign-in throttled after wrong passwords: the button waits what the gateway asked, and says how long', async () => {
    const page = suite().page;
    await page.locator('#signout').click();
    await page.locator('#signin-form').waitFor({ state: 'visible' });
    const button = page.locator('#signin-form button[type=submit]');
    let waiting = '';
    for (let tries = 0; tries < 12 && !waiting; tries++) {
      await page.locator('#signin-name').fill('root');
      await page.locator('#signin-password').fill(`wrong password ${tries}`);
      const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/console/login')), button.click()]);
      if (answer.status() !== 429) continue;
      await page.waitForFunction(() => /^Wait \d+ s$/.test(document.querySelector('#signin-form button[type=submit]')?.textContent ?? ''));
      waiting = await button.innerText();
    }
    assert.match(waiting, /^Wait \d+ s$/, 'a 429 came within 12 tries, and the button said how long to wait');
    assert.equal(await button.isDisabled(), true);
    suite().browser.problems.length = 0;
  });
});
