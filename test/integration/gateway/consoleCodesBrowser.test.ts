// Redemption codes in a real browser (Debian's chromium, issue 10): an admin generates a batch in the
// Codes view (shown once, copied whole with Copy all, gone from the page after "I have copied them"),
// sees it listed and disables one after a confirmation; a user, who has no Codes tab, signs in, redeems
// a code in the Top up view and sees the new balance; a disabled code is refused in plain words; the
// admin then sees who used it. No CSP violation or page error throughout. Waits poll the DOM.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Store } from '../../../src/gateway/store/types.ts';
import { SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { useConsoleInBrowser } from './consoleBrowserSuite.ts';
import type { Started } from './helpers.ts';

const CODE = /^MGC(-[0-9A-HJKMNP-TV-Z]{4}){5}$/;

describe('redemption codes in a browser', function () {
  this.timeout(90_000);
  const suite = useConsoleInBrowser();
  const { signIn, signOut, tab } = suite;
  let t: Started;
  let store: Store;
  let browser: ConsoleBrowser;
  let page: Page;
  let codes: string[] = [];
  before(() => void ({ t, store, browser, page } = suite.now()));

  /** Chromium reports a refused request as a failed resource load: that one is expected, nothing else is. */
  const unexpectedProblems = () => browser.problems.filter((p) => !/status of 400/.test(p));

  it('an admin generates a batch in the Codes view: shown once, copied whole, listed without the codes', async () => {
    await page.goto(t.gw.url);
    await signIn('root');
    await tab('Codes').click();
    await page.locator('#view-codes').waitFor({ state: 'visible' });
    await page.locator('#admin-codes').getByText('No code matches').waitFor();
    await page.locator('#generate-value').fill('2.50');
    await page.locator('#generate-count').fill('3');
    await page.locator('#generate-batch').fill('browser');
    await page.locator('#generate-button').click();
    await page.locator('#new-codes').waitFor({ state: 'visible' });
    codes = (await page.locator('#new-codes-list').innerText()).trim().split('\n');
    assert.equal(codes.length, 3);
    for (const code of codes) assert.match(code, CODE);
    assert.match(await page.locator('#new-codes-what').innerText(), /3 codes of \$2\.50, batch browser/);

    await page.getByRole('button', { name: 'Copy all codes' }).click();
    await page.getByRole('button', { name: 'Copy all codes' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), codes.join('\n'), 'every code, one per line');

    const rows = page.locator('#admin-codes tbody tr');
    await rows.nth(2).waitFor();
    assert.equal(await rows.count(), 3);
    assert.match(await rows.first().innerText(), /browser[\s\S]*\$2\.50[\s\S]*unused[\s\S]*root/);
    await page.screenshot({ path: join(SCREENSHOTS, 'console-codes.png'), fullPage: true });

    await page.locator('#new-codes-done').click();
    await page.locator('#new-codes').waitFor({ state: 'hidden' });
    const html = await page.content();
    for (const code of codes) assert.ok(!html.includes(code) && !html.includes(code.slice(4)), 'no code left in the DOM');
    assert.equal(await page.evaluate(() => sessionStorage.length + localStorage.length), 0, 'nothing kept in web storage');
  });

  it('disables a code after a confirmation; the list says so', async () => {
    const id = (await store.listCodes({ now: Date.now(), batch: 'browser', limit: 1 }))[0]!.id; // the last made: codes[2]
    const row = page.locator(`#admin-codes tr[data-code-id="${id}"]`);
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByText(`Disable code ${id}?`).waitFor();
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.locator('.pill', { hasText: 'disabled' }).waitFor();
    assert.deepEqual(unexpectedProblems(), []);
  });

  it('a user (no Codes tab) redeems a code in the Top up view and sees the new balance; a disabled code is refused in plain words', async () => {
    await signOut();
    await signIn('ada');
    assert.ok(await tab('Codes').isHidden(), 'the Codes view is for admins');
    await tab('Top up').click();
    await page.locator('#view-topup').waitFor({ state: 'visible' });
    await page.locator('#redeem-code').fill(codes[0]!.toLowerCase());
    await page.locator('#redeem-button').click();
    await page.locator('#redeem-done').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#redeem-balance').innerText(), '$3.50');
    assert.match(await page.locator('#redeem-credited').innerText(), /Redeemed: \$2\.50 added to account ada\./);
    assert.equal(await page.locator('#redeem-code').inputValue(), '', 'the field is emptied');
    assert.equal((await store.getAccount('ada'))!.balance, 3_500_000);
    await page.screenshot({ path: join(SCREENSHOTS, 'console-topup.png'), fullPage: true });

    await page.locator('#redeem-code').fill(codes[2]!);
    await page.locator('#redeem-button').click();
    await page.locator('#alert').filter({ hasText: 'This redemption code cannot be used' }).waitFor();
    assert.match(await page.locator('#alert').innerText(), /Could not redeem the code[\s\S]*mistyped, used already, expired or disabled/);
    assert.ok(await page.locator('#redeem-done').isHidden());
    assert.equal((await store.getAccount('ada'))!.balance, 3_500_000, 'nothing credited');
    assert.deepEqual(unexpectedProblems(), [], 'no CSP violation or page error');
  });

  it('the admin sees the code used, by whom', async () => {
    await signOut();
    await signIn('root');
    await tab('Codes').click();
    const all = page.locator('#admin-codes tbody tr');
    await all.nth(2).waitFor();
    const notUsed = (await store.listCodes({ now: Date.now(), limit: 10 })).filter((c) => c.redeemedAt === null).map((c) => c.id);
    assert.equal(notUsed.length, 2);
    await page.locator('#admin-codes-status').selectOption('used');
    for (const id of notUsed) await page.locator(`#admin-codes tr[data-code-id="${id}"]`).waitFor({ state: 'detached' });
    const used = page.locator('#admin-codes tbody tr');
    assert.equal(await used.count(), 1);
    assert.match(await used.first().innerText(), /browser[\s\S]*\$2\.50[\s\S]*used[\s\S]*ada \(ada\)/);
    assert.deepEqual(unexpectedProblems(), []);
  });
});
