// Redemption codes, the admins' side, in a real browser (Debian's chromium, issue 10): an admin
// generates a batch (a wrong value or count refused in the browser first), shown once with Copy all
// and gone from the page when copied; the list never shows a code; one code is disabled after a
// confirmation (Cancel keeps it); a user redeems another through the API and the list says by whom;
// every unused code of the batch is disabled at once; a batch with an expiry says when. Screenshots in
// both languages, on a phone and dark; no page error, no CSP report.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from './browser.ts';
import { consoleAgent } from './consoleAgent.ts';
import { assertNoProblems, rowOf, rowsBecome, screenshots, signIn, useAdminConsole } from './consoleAdminSupport.ts';

const CODE = /^MGC(-[0-9A-HJKMNP-TV-Z]{4}){5}$/;

describe('redemption codes, the admins’ side, in a browser', function () {
  this.timeout(180_000);
  const suite = useAdminConsole();
  let page: Page;
  let codes: string[] = [];
  let ids: number[] = [];

  before(() => void ({ page } = suite()));

  const notice = () => page.locator('#codes-notice');
  const row = (id: number) => rowOf(page, 'codes-table', 'data-code-id', String(id));
  const dialog = () => page.locator('dialog[open]');

  it('generates a batch: shown once, copied whole with Copy all, listed without the codes, gone when copied', async () => {
    await signIn(page, suite().t.gw.url, 'root', '#/admin/codes');
    await page.getByText('No codes yet. Generate some above.').waitFor();
    await page.locator('#generate-value').fill('2.5.0');
    await page.locator('#generate-count').fill('0');
    await page.locator('#generate-batch').fill('has space');
    await page.locator('#generate-submit').click();
    await page.locator('#generate-value-error', { hasText: 'digits and a point' }).waitFor();
    await page.locator('#generate-count-error', { hasText: 'A whole number from 1 to 1000.' }).waitFor();
    await page.locator('#generate-batch-error', { hasText: '1 to 64 letters' }).waitFor();
    assert.equal((await suite().store.listCodes({ now: Date.now(), limit: 10 })).length, 0, 'nothing was sent');

    await page.locator('#generate-value').fill('2.50');
    await page.locator('#generate-count').fill('3');
    await page.locator('#generate-batch').fill('browser');
    await page.locator('#generate-submit').click();
    await page.locator('#new-codes').waitFor();
    codes = (await page.locator('#new-codes-list').innerText()).trim().split('\n');
    assert.equal(codes.length, 3);
    for (const code of codes) assert.match(code, CODE);
    assert.equal(await page.locator('#new-codes-what').innerText(), '3 codes of $2.50, batch browser');
    assert.ok(await page.locator('#new-codes').evaluate((el) => el === document.activeElement), 'the panel takes the focus');
    assert.equal(await page.locator('#generate-value').inputValue(), '', 'the form is emptied');

    await page.getByRole('button', { name: 'Copy all codes' }).click();
    await page.getByRole('button', { name: 'Copy all codes' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), codes.join('\n'), 'every code, one per line');

    ids = (await suite().store.listCodes({ now: Date.now(), batch: 'browser', limit: 10 })).map((c) => c.id);
    await rowsBecome(page, 'codes-table', 'data-code-id', ids.map(String));
    assert.match(await row(ids[0]!).innerText(), new RegExp(`^${ids[0]}\\s+browser\\s+\\$2\\.50\\s+unused\\s+—[\\s\\S]*by root[\\s\\S]*never`));
    await page.screenshot({ path: join(SCREENSHOTS, 'console-admin-codes-shown-once.png'), fullPage: true });

    await page.locator('#new-codes-done').click();
    await page.locator('#new-codes').waitFor({ state: 'detached' });
    const html = await page.content();
    for (const code of codes) assert.ok(!html.includes(code) && !html.includes(code.slice(4)), 'no code left in the DOM');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    for (const code of codes) assert.ok(!stored.includes(code.slice(4)), 'nor in web storage');
  });

  it('disables a code after a confirmation (Cancel keeps it); the list says so', async () => {
    const last = ids[0]!; // the newest first
    await row(last).getByRole('button', { name: `Disable ${last}` }).click();
    await dialog().getByText(`Disable code ${last}?`).waitFor();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    assert.match(await row(last).innerText(), /unused/, 'Cancel keeps it');
    await row(last).getByRole('button', { name: `Disable ${last}` }).click();
    await dialog().getByRole('button', { name: 'Disable' }).click();
    await notice().filter({ hasText: `Code ${last} is disabled.` }).waitFor();
    await row(last).filter({ hasText: 'disabled' }).waitFor();
    assert.equal(await row(last).getByRole('button').count(), 0, 'nothing left to disable');
  });

  it('a code redeemed by a user shows who used it and when; the status filter keeps the used ones', async () => {
    const ada = consoleAgent(suite().t.gw);
    assert.equal((await ada.signIn('ada')).status, 200);
    const redeemed = await ada.post('/api/console/account/redeem', { code: codes[0]!.toLowerCase() });
    assert.equal(redeemed.status, 200, redeemed.text);
    // The first code of the answer is the oldest row (ids are newest first).
    await page.locator('#codes-status').selectOption('used');
    await rowsBecome(page, 'codes-table', 'data-code-id', [String(ids[2])]);
    assert.match(await row(ids[2]!).innerText(), /browser\s+\$2\.50\s+used\s+ada \(ada\)/);
    await page.locator('#codes-status').selectOption('');
    await rowsBecome(page, 'codes-table', 'data-code-id', ids.map(String));
  });

  it('disables every unused code of a batch after a confirmation', async () => {
    await page.locator('#codes-batch').fill('browser');
    await page.locator('#codes-disable-batch').click();
    await dialog().getByText('Disable every unused code of browser?').waitFor();
    await dialog().getByRole('button', { name: 'Disable' }).click();
    await notice().filter({ hasText: '1 code of browser is disabled.' }).waitFor();
    await row(ids[1]!).filter({ hasText: 'disabled' }).waitFor();
    assert.match(await row(ids[2]!).innerText(), /used/, 'a used code stays used');
  });

  it('a batch with an expiry says when; the page in both languages, on a phone and dark', async () => {
    const day = new Date(Date.now() + 3 * 86_400_000);
    const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    await page.locator('#codes-batch').fill('');
    await page.locator('#generate-value').fill('0.000001');
    await page.locator('#generate-batch').fill('spring');
    await page.locator('#generate-expires').fill(date);
    await page.locator('#generate-submit').click();
    await page.locator('#new-codes-what', { hasText: /^1 code of \$0\.000001, batch spring, expiring / }).waitFor();
    const [made] = await suite().store.listCodes({ now: Date.now(), batch: 'spring', limit: 1 });
    assert.equal(made!.value, 1);
    assert.equal(new Date(made!.expiresAt!).getDate(), day.getDate(), 'the end of the day chosen, in the browser’s time zone');
    await page.locator('#new-codes-done').click();
    await screenshots(page, 'codes', () => row(made!.id), '兑换码');
    assertNoProblems(suite().browser);
  });
});
