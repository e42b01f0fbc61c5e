// The console opened with an API key (#/key), no sign-in, in a real browser (Debian's chromium; contract 1.3,
// 5.3, 7.2, 7.3): the key pasted with spaces around it is trimmed with a notice and kept in the tab's
// sessionStorage only, never shown; the key's facts, balance, models (exact names, copy buttons), base URLs
// and the troubleshooting order; a request made with the official openai SDK shows up after Refresh with its
// request id, tokens and cost, and the balance follows; the key is kept over a reload; "Forget the key"
// forgets it; a wrong key is explained with the contract's meaning of 401 and not kept. Screenshots in both
// languages and on a phone. No page error and nothing blocked by the CSP (the refusals caused excepted).
import assert from 'node:assert/strict';
import { createKey } from '../../../src/gateway/admin.ts';
import { usd } from '../../../src/console/i18n/format.ts';
import { call } from './helpers.ts';
import { assertNoProblems, REFUSED, sdkWith, setLang, shoot, shootBothLanguages, useUserSuite } from './consoleUserSupport.ts';

const KEY_ITEM = 'modelGateway.console.apiKey';
const LONG_KEY = `key-${'q'.repeat(192)}-end`;

describe('console opened with an API key, in a browser', function () {
  this.timeout(120_000);
  const suite = useUserSuite({ users: false });
  const page = () => suite().page;
  const text = (selector: string) => page().locator(selector).innerText();

  it('opens with the key (spaces around it trimmed, with a notice): balance, key facts, models and base URLs; the key kept in this tab only', async () => {
    const { t } = suite();
    await page().goto(`${t.gw.url}/#/key`);
    await setLang(page(), 'en');
    await page().locator('#key-input').waitFor({ state: 'visible' });
    assert.equal(await page().locator('#key-input').getAttribute('type'), 'password');
    assert.match(await text('#key-steps'), /Check the API address/, 'the troubleshooting order (contract 7.3)');
    assert.match(await text('#key-codes'), /401[\s\S]*Re-copy the key/);
    assert.match(await text('#key-report'), /the Base URL, the model name[\s\S]*never the key/, 'what to send with a report (contract 7.4)');

    await page().locator('#key-input').fill(` ${t.key} `);
    await page().locator('#key-open').click();
    await page().locator('#key-balance-value', { hasText: '$10.00' }).waitFor();
    assert.match(await text('#key-trimmed'), /Check that your tool has none either/, 'says it removed the spaces around the key');
    assert.equal(await page().evaluate((item) => sessionStorage.getItem(item), KEY_ITEM), t.key);
    assert.ok(!(await page().evaluate(() => JSON.stringify(Object.entries(localStorage)))).includes(t.key), 'nothing of it in localStorage');
    assert.ok(!(await page().locator('body').innerText()).includes(t.key), 'the secret is never shown');

    assert.equal(await text('#key-name'), 'default');
    assert.equal(await text('#key-allowed'), 'every model of the gateway');
    const row = page().locator('[data-testid=key-models-table] tr[data-model="echo"]');
    await row.waitFor();
    assert.match(await row.innerText(), /echo[\s\S]*32,768[\s\S]*\$2\.00[\s\S]*\$8\.00/);
    await row.getByRole('button', { name: 'Copy model name echo' }).click();
    await row.getByRole('button', { name: 'Copy model name echo' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page().evaluate(() => navigator.clipboard.readText()), 'echo', 'the exact model name is copied');

    const urls = await text('#key-urls');
    assert.ok(urls.includes(t.gw.url) && urls.includes(`${t.gw.url}/v1`), urls);
    assert.match(await text('#key-curl'), new RegExp(`curl ${t.gw.url}/v1/models`));
    assert.match(await text('[data-testid=key-logs-card], #key-logs-card'), /No requests with this key yet/);
  });

  it('shows a request made with the SDK after Refresh, with its request id, tokens and cost, and the lower balance', async () => {
    const { t } = suite();
    const { request_id: requestId } = await sdkWith(suite(), t.key).chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'is anybody there?' }] }).withResponse();
    assert.ok(requestId);
    const logged = (await call(t.gw, 'GET', '/api/console/logs', { key: t.key })).json.data[0];

    await page().locator('#key-refresh').click();
    const row = page().locator(`[data-testid=key-logs] tr[data-request-id="${requestId}"]`);
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    assert.equal(cells[1], requestId);
    assert.equal(cells[2], 'POST /v1/chat/completions');
    assert.equal(cells[3], 'echo');
    assert.equal(cells[4], '200');
    assert.equal(cells[6], `${logged.prompt_tokens} / ${logged.completion_tokens}`);
    assert.equal(cells[7], usd(logged.cost));
    assert.equal(cells[9], 'no');
    const remaining = (await call(t.gw, 'GET', '/api/console/me', { key: t.key })).json.balance.remaining;
    assert.ok(remaining.micro_usd < 10_000_000, 'the request was charged');
    await page().locator('#key-balance-value', { hasText: usd(remaining) }).waitFor();
  });

  it('keeps the key over a reload (this tab), and long names wrap: no overflow in either language or on a phone', async () => {
    const { t, store } = suite();
    const { secret } = await createKey(store, { account: 'local', name: LONG_KEY });
    await page().locator('#key-signout').click();
    await page().locator('#key-input').fill(secret);
    await page().locator('#key-open').click();
    await page().locator('#key-name', { hasText: LONG_KEY }).waitFor();
    await page().reload();
    await page().locator('#key-name', { hasText: LONG_KEY }).waitFor();
    await shootBothLanguages(page(), 'key');
    await page().locator('#key-signout').click();
    await page().locator('#key-input').fill(t.key);
    await page().locator('#key-open').click();
    await page().locator('#key-name', { hasText: 'default' }).waitFor();
    await shoot(page(), 'key-default-en');
    assertNoProblems(suite());
  });

  it('"Forget the key" forgets it; a wrong key is explained with the contract\'s meaning of 401 and not kept', async () => {
    await page().locator('#key-signout').click();
    await page().locator('#key-input').waitFor({ state: 'visible' });
    assert.equal(await page().evaluate((item) => sessionStorage.getItem(item), KEY_ITEM), null);

    await page().locator('#key-input').fill('sk-not-a-real-key');
    await page().locator('#key-open').click();
    const alert = page().locator('#key-signin .alert.error');
    await alert.filter({ hasText: 'Authentication failed (401)' }).waitFor();
    assert.match(await alert.innerText(), /Re-copy the key in full/);
    assert.match(await alert.innerText(), /Invalid token[\s\S]*\[invalid_api_key\]/, "the gateway's own words and code");
    assert.equal(await page().evaluate((item) => sessionStorage.getItem(item), KEY_ITEM), null, 'a refused key is not kept');
    await shoot(page(), 'key-refused-en');
    await setLang(page(), 'zh-CN');
    await alert.filter({ hasText: '认证失败（401）' }).waitFor();
    await shoot(page(), 'key-refused-zh-CN');
    await setLang(page(), 'en');
    assertNoProblems(suite(), [REFUSED(401)]);
  });
});
