// The admins' Channels and Models & prices views in a real browser (Debian's chromium, issue 10): an admin
// adds a channel to a fake upstream in the Channels view (its key typed once, never shown back), tests it
// (the upstream's answer under the row), sees its model marked unpriced in Models & prices and prices it
// from the row's fix, and a key's request through the official openai SDK is then served; an edit in place
// moves the channel to another upstream; disable and enable; delete after a confirmation (cancel keeps
// it). A model name made of HTML shows as text, never runs; no CSP violation or page error throughout.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI, { InternalServerError } from 'openai';
import type { Page } from 'playwright-core';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { launchConsoleBrowser, SCREENSHOTS, type ConsoleBrowser } from './browser.ts';
import { PASSWORD } from './consoleAgent.ts';
import { useAdminGateway, type Started } from './helpers.ts';

const SECRET = 'sk-typed-in-the-browser-0123456789';
/** A model name the rules accept (printable text, and no "=" or ",", which the models field reads) that a page writing HTML would run. */
const HOSTILE = '<i>hostile</i><script>window.__xss++</script>';

describe("the admins' channels and prices in a browser", function () {
  this.timeout(120_000);
  const suite = useAdminGateway();
  let t: Started;
  let browser: ConsoleBrowser;
  let page: Page;
  let a: FakeUpstream;
  let b: FakeUpstream;
  let client: OpenAI;

  before(async () => {
    ({ t, a, b, openai: client } = suite);
    browser = await launchConsoleBrowser(t.gw.url);
    page = browser.page;
  });
  after(async () => browser?.close());

  const row = (name: string) => page.locator(`#channels tr[data-channel="${name}"]`);
  const priceRow = (name: string) => page.locator('#prices tr').filter({ has: page.locator('code', { hasText: name }) });
  const ask = () => client.chat.completions.create({ model: 'team-model', messages: [{ role: 'user', content: 'hi' }] });

  it('adds a channel in the Channels view: listed with its key set (never shown), and the answer points to its unpriced models', async () => {
    await page.goto(t.gw.url);
    await page.locator('#user-name').fill('root');
    await page.locator('#user-password').fill(PASSWORD);
    await page.locator('#user-signin-button').click();
    await page.locator('#user-tabs [data-view="channels"]').click();
    await row('echo').waitFor();

    await page.locator('#channel-name').fill('up');
    await page.locator('#channel-type').selectOption('openai');
    await page.locator('#channel-base-url').fill(a.url);
    await page.locator('#channel-models').fill(`team-model=upstream-model, ${HOSTILE}`);
    await page.locator('#channel-timeout').fill('5000');
    await page.locator('#channel-key').fill(SECRET);
    await page.locator('#channel-add-button').click();
    await row('up').waitFor();
    assert.equal(await page.locator('#channels-done').innerText(), `Channel up is added, serving team-model, ${HOSTILE}. No price yet for team-model, ${HOSTILE}: not served until priced. Price team-model`);
    assert.match(await row('up').innerText(), /up\s*openai[\s\S]*team-model=upstream-model, <i>hostile<\/i>[\s\S]*set \(…6789\)[\s\S]*enabled[\s\S]*0 served · 0 failed/);
    assert.equal(await page.locator('#channel-key').inputValue(), '', 'the form forgot the key');
    assert.ok(!(await page.content()).includes(SECRET), 'the key is nowhere in the page');
  });

  it("tests the channel: the upstream's answer under its row, then a refusal with the contract's code", async () => {
    await row('up').getByRole('button', { name: 'Test' }).click();
    const result = page.locator('#channels tr[data-test-for="up"]');
    await result.filter({ hasText: 'OK' }).waitFor();
    assert.match(await result.innerText(), /OK\s+HTTP 200, \d+ ms, model team-model as upstream-model: OK 200 in \d+ ms: up -> http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    assert.equal(a.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`);
    a.behaviour = { status: 401, errorMessage: `Incorrect API key provided: ${SECRET}` };
    await row('up').getByRole('button', { name: 'Test' }).click();
    await result.filter({ hasText: 'upstream_error' }).waitFor();
    assert.match(await result.innerText(), /upstream_error\s+HTTP 401[\s\S]*Incorrect API key provided: \*\*\*\*/);
    a.behaviour = {};
    assert.ok(!(await page.content()).includes(SECRET));
  });

  it('prices the model from its unpriced row in Models & prices; the SDK request is then served through the channel', async () => {
    await assert.rejects(ask(), (e: unknown) => e instanceof OpenAI.APIError && e.code === 'model_not_priced');
    await page.locator('#user-tabs [data-view="prices"]').click();
    await priceRow('team-model').waitFor();
    assert.match(await page.locator('#prices-unpriced').innerText(), /2 models are served by a channel but have no price/);
    assert.equal(await priceRow('team-model').getAttribute('class'), 'unpriced');
    assert.equal(await priceRow('hostile').locator('code').textContent(), HOSTILE, 'the name is the text of the cell');
    assert.equal(await page.locator('#view-channels i, #view-prices i, #view-channels script, #view-prices script').count(), 0, 'no element was made from it');
    assert.match(await priceRow('team-model').innerText(), /no price[\s\S]*Not served until priced/);
    await priceRow('team-model').getByRole('button', { name: 'Set price' }).click();
    assert.equal(await page.locator('#price-model').inputValue(), 'team-model');
    await page.locator('#price-input').fill('0.5');
    await page.locator('#price-output').fill('1.5');
    await page.locator('#price-context').fill('32000');
    await page.locator('#price-button').click();
    await page.locator('#prices-done').filter({ hasText: 'team-model is priced: $0.50 in / $1.50 out per 1M tokens. Clients can use it now.' }).waitFor();
    await priceRow('team-model').filter({ hasText: '$0.50 in' }).waitFor();
    assert.equal(await priceRow('team-model').getAttribute('class'), null, 'no longer marked');
    assert.match(await page.locator('#prices-unpriced').innerText(), /^1 model is served by a channel but has no price, so the gateway refuses it \(model_not_priced\): <i>hostile/);

    const answer = await ask();
    assert.equal(answer.choices[0]!.message.content, 'w1 w2 w3');
    assert.equal(a.requests.at(-1)!.body.model, 'upstream-model');

    // An image model with a variant, from the same form: the kind's fields are the ones shown.
    await page.locator('#price-model').fill('pictures');
    await page.locator('#price-kind').selectOption('image');
    assert.equal(await page.locator('#price-input').isVisible(), false);
    await page.locator('#price-image').fill('0.04');
    await page.locator('#price-variants').fill('1024x1792=0.08, HD=0.12');
    await page.locator('#price-button').click();
    await page.locator('#prices-done').filter({ hasText: 'pictures is priced: $0.04 / image, $0.08 for 1024x1792, $0.12 for hd.' }).waitFor();
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-admin-prices.png'), fullPage: true });
  });

  it('edits the channel in place: the next request goes to the new upstream, the key kept', async () => {
    await page.locator('#user-tabs [data-view="channels"]').click();
    await row('up').getByRole('button', { name: 'Edit' }).click();
    const baseUrl = page.getByLabel('Base URL of up');
    assert.equal(await baseUrl.inputValue(), a.url);
    assert.equal(await page.getByLabel('New API key of up').inputValue(), '', 'the key is not in the form');
    await baseUrl.fill(b.url);
    await page.locator('#channels tr[data-edit-for="up"]').getByRole('button', { name: 'Save' }).click();
    await page.locator('#channels-done').filter({ hasText: 'Channel up is saved; the next request uses it.' }).waitFor();
    await row('up').filter({ hasText: b.url }).waitFor();
    await ask();
    assert.deepEqual([b.requests.length, b.requests.at(-1)!.headers.authorization], [1, `Bearer ${SECRET}`]);
  });

  it('disables and enables the channel; deletes it after a confirmation (cancel keeps it); the requests follow', async () => {
    await row('up').getByRole('button', { name: 'Disable' }).click();
    await row('up').getByRole('button', { name: 'Enable' }).waitFor();
    await assert.rejects(ask(), (e: unknown) => e instanceof InternalServerError && e.code === 'upstream_unavailable');
    await row('up').getByRole('button', { name: 'Enable' }).click();
    await row('up').getByRole('button', { name: 'Disable' }).waitFor();
    await ask();
    await page.screenshot({ path: join(SCREENSHOTS, 'console-admin-channels.png'), fullPage: true });

    await row('up').getByRole('button', { name: 'Delete' }).click();
    await row('up').getByText('Delete channel up? Its models are no longer served by it.').waitFor();
    await row('up').getByRole('button', { name: 'Cancel' }).click();
    await row('up').getByRole('button', { name: 'Delete' }).click();
    await row('up').getByRole('button', { name: 'Delete' }).click();
    await page.locator('#channels-done').filter({ hasText: 'Channel up is deleted.' }).waitFor();
    await row('up').waitFor({ state: 'detached' });
    await assert.rejects(ask(), (e: unknown) => e instanceof InternalServerError && e.code === 'upstream_unavailable');
  });

  it('showed the model name made of HTML as text everywhere, ran nothing, and the CSP blocked nothing', async () => {
    await page.locator('#user-tabs [data-view="prices"]').click();
    await page.locator('#prices-q').fill('hostile');
    await page.locator('#prices-count').filter({ hasText: '0 models match "hostile".' }).waitFor();
    await page.locator('#prices-q').fill('');
    await page.locator('#user-tabs [data-view="channels"]').click();
    await row('echo').waitFor();
    assert.equal(await page.locator('#view-channels i, #view-prices i, #view-channels script, #view-prices script').count(), 0, 'no element was made from the name');
    assert.equal(await page.evaluate(() => '__xss' in window), false, 'and nothing ran');
    assert.ok(!(await page.content()).includes(SECRET));
    assert.deepEqual(browser.problems.filter((p) => !/status of (403|503)/.test(p)), [], 'no page error, no CSP report');
  });
});
