// The admins' Channels and Models & prices pages in a real browser (Debian's chromium, issue 10): an
// admin adds a channel to a fake upstream (its key typed once, never shown back), tests it (the
// upstream's status, time and words in the channel's card, then a refusal with the contract's code),
// follows the answer's link to price the model it serves without a price, and a request through the
// official openai SDK is then served, said to take images as input in the same form; its maximum output set in the same form lowers a client's larger cap, and emptied is removed; an image model with prices by size and quality, and a model free
// on purpose; an edit in place moves the channel to another upstream, the key kept; disable and enable;
// delete after a confirmation (Cancel keeps it); the SDK's requests follow each change. Model names made
// of HTML show as text, a 200-character one wraps; screenshots in both languages, on a phone and dark.
import assert from 'node:assert/strict';
import OpenAI, { InternalServerError } from 'openai';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from './browser.ts';
import { poll } from '../../support/poll.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { assertNoOverflow, assertNoProblems, open, rowOf, screenshots, signIn, useAdminConsole } from './consoleAdminSupport.ts';

const SECRET = 'sk-typed-in-the-browser-0123456789';
/** A model name the rules accept (printable text) that a page writing HTML would run. */
const HOSTILE = '<i>hostile</i><script>window.__xss=1</script>';
/** A model name of 200 characters: it wraps, it never widens the page. */
const LONG = `long-model-${'x'.repeat(189)}`;
/** Refusals the tests ask for (Chromium logs each as a console error): none of the console's own. */
const ASKED = [/status of (400|403|503)/];

describe("the admins' channels and prices in a browser", function () {
  this.timeout(180_000);
  const suite = useAdminConsole();
  let page: Page;
  let base: string;
  let a: FakeUpstream;
  let b: FakeUpstream;
  let client: OpenAI;

  before(async () => {
    ({ page } = suite());
    base = suite().t.gw.url;
    [a, b] = await Promise.all([startFakeUpstream({}), startFakeUpstream({})]);
    client = new OpenAI({ apiKey: suite().t.key, baseURL: `${base}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  const card = (name: string) => page.locator(`#channels article[data-channel="${name}"]`);
  const notice = (id: string) => page.locator(`#${id}-notice`);
  const priceRow = (name: string) => rowOf(page, 'prices-table', 'data-model', name);
  const ask = () => client.chat.completions.create({ model: 'team-model', messages: [{ role: 'user', content: 'hi' }] });

  it('adds a channel from a dialog: its key set (never shown), its models listed, the answer pointing to those without a price', async () => {
    await signIn(page, base, 'root', '#/admin/channels');
    await card('echo').waitFor();
    await page.locator('#channel-add-open').click();
    await page.locator('#channel-name').fill('up');
    await page.locator('#channel-type').selectOption('openai');
    await page.locator('#channel-base-url').fill(a.url);
    await page.locator('#channel-models-key-0').fill('team-model');
    await page.locator('#channel-models-value-0').fill('upstream-model');
    await page.locator('#channel-models-add').click();
    await page.locator('#channel-models-key-1').fill(HOSTILE);
    await page.locator('#channel-models-add').click();
    await page.locator('#channel-models-key-2').fill(LONG);
    await page.locator('#channel-timeout').fill('5000');
    await page.locator('#channel-key').fill(SECRET);
    // A wrong URL is refused in the browser, before anything is sent.
    await page.locator('#channel-proxy').fill('ftp://proxy');
    await page.locator('#channel-submit').click();
    await page.locator('#channel-proxy-error', { hasText: 'An http:// or https:// address.' }).waitFor();
    assert.equal(await card('up').count(), 0);
    await page.screenshot({ path: join(SCREENSHOTS, 'console-admin-channels-add-dialog.png') });
    await page.locator('#channel-proxy').fill('');
    if (!(await page.locator('#channel-key').inputValue())) await page.locator('#channel-key').fill(SECRET);
    await page.locator('#channel-submit').click();

    await card('up').waitFor();
    assert.equal((await notice('channels').innerText()).replace(/\s+/g, ' '),
      `Channel up is added, serving team-model, ${HOSTILE}, ${LONG}. No price yet for team-model, ${HOSTILE}, ${LONG}: not served until priced. Price team-model`);
    assert.match(await card('up').innerText(), /up\s+openai\s+enabled/);
    assert.equal(await card('up').getByTestId('channel-key').innerText(), 'key set (…6789)');
    assert.equal(await card('up').getByTestId('channel-health').innerText(), '0 served · 0 failed');
    assert.deepEqual(await card('up').locator('[data-model]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-model'))), ['team-model', HOSTILE, LONG]);
    assert.match(await card('up').locator('[data-model="team-model"]').innerText(), /team-model → upstream-model no price/);
    assert.equal(await page.locator('#channel-key').count(), 0, 'the form and its key are gone');
    assert.ok(!(await page.content()).includes(SECRET), 'the key is nowhere in the page');
    await page.locator('#channels-unpriced', { hasText: '3 models served by channels have no price' }).waitFor();
  });

  it("tests the channel: the upstream's status, time and words in its card, then a refusal with the contract's code", async () => {
    await card('up').getByRole('button', { name: 'Test up' }).click();
    const result = card('up').getByTestId('channel-test-result');
    await result.filter({ hasText: 'OK' }).waitFor();
    assert.match(await result.innerText(), /^OK\s+HTTP 200 · \d+ ms · model team-model as upstream-model\s*OK 200 in \d+ ms: up -> http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    assert.equal(a.requests.at(-1)!.headers.authorization, `Bearer ${SECRET}`);
    a.behaviour = { status: 401, errorMessage: `Incorrect API key provided: ${SECRET}` };
    await card('up').getByRole('button', { name: 'Test up' }).click();
    await result.filter({ hasText: 'upstream_error' }).waitFor();
    assert.match(await result.innerText(), /^upstream_error\s+HTTP 401[\s\S]*Incorrect API key provided: \*\*\*\*/);
    a.behaviour = {};
    assert.ok(!(await page.content()).includes(SECRET));
  });

  it("prices the model from the answer's link; the SDK request is then served through the channel", async () => {
    await assert.rejects(ask(), (e: unknown) => e instanceof OpenAI.APIError && e.code === 'model_not_priced');
    await notice('channels').getByRole('link', { name: 'Price team-model' }).click();
    await page.locator('#price-form').waitFor();
    assert.equal(await page.locator('#price-model').inputValue(), 'team-model');
    assert.equal(await page.locator('#price-model').getAttribute('readonly'), '');
    assert.equal(new URL(page.url()).hash, '#/admin/models', 'the link is used once');
    await page.locator('#price-input').fill('0.5');
    await page.locator('#price-output').fill('1.5');
    await page.locator('#price-cached').fill('0.1234567');
    await page.locator('#price-submit').click();
    await page.locator('#price-cached-error', { hasText: 'At most 6 decimals' }).waitFor();
    await page.locator('#price-cached').fill('');
    await page.locator('#price-context').fill('32000');
    assert.equal(await page.locator('#price-images').inputValue(), '', 'not said: kept as it is');
    await page.locator('#price-images').selectOption('yes');
    await page.locator('#price-submit').click();
    await notice('prices').filter({ hasText: 'team-model is priced: $0.50 in / $1.50 out per 1M tokens. Clients can use it now.' }).waitFor();
    await priceRow('team-model').filter({ hasText: '$0.50 in' }).waitFor();
    assert.equal(await priceRow('team-model').getAttribute('class'), null, 'no longer marked');
    assert.match(await priceRow('team-model').innerText(), /32,000/);
    // Model, kind, price, context, max output, tools, image input: tools not said, images yes.
    assert.deepEqual((await priceRow('team-model').locator('td').allInnerTexts()).slice(5, 7).map((c) => c.trim()), ['—', 'yes']);
    const listed = (await client.models.list()).data.find((m) => m.id === 'team-model') as unknown as { capabilities?: object };
    assert.deepEqual(listed.capabilities, { image_input: true }, 'clients read it from /v1/models');

    const answer = await ask();
    assert.equal(answer.choices[0]!.message.content, 'w1 w2 w3');
    assert.equal(a.requests.at(-1)!.body.model, 'upstream-model');
  });

  it("sets the model's maximum output in the price form: above its context refused in the dialog, then a client's larger cap lowered to it; emptied, removed", async () => {
    const editPrice = async () => {
      await priceRow('team-model').getByRole('button', { name: 'Edit price team-model' }).click();
      await page.locator('#price-form').waitFor();
    };
    const capped = async () => {
      const { response } = await client.chat.completions.create({ model: 'team-model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 32_000 }).withResponse();
      return { header: response.headers.get('x-gateway-max-tokens'), sent: a.requests.at(-1)!.body.max_tokens };
    };
    await editPrice();
    assert.equal(await page.locator('#price-max-output').inputValue(), '');
    await page.locator('#price-max-output').fill('64000');
    await page.locator('#price-submit').click();
    await page.locator('#price-form').getByText("max_output_tokens (64000) is more than the model's context (32000)").waitFor();
    await page.locator('#price-max-output').fill('8192');
    await page.locator('#price-submit').click();
    await page.locator('#price-form').waitFor({ state: 'detached' });
    await priceRow('team-model').filter({ hasText: '8,192' }).waitFor();
    assert.deepEqual(await capped(), { header: '8192', sent: 8192 });

    await editPrice();
    assert.equal(await page.locator('#price-max-output').inputValue(), '8192', 'the form shows what the model has');
    assert.equal(await page.locator('#price-images').inputValue(), 'yes', 'image input too');
    await page.locator('#price-max-output').fill('');
    await page.locator('#price-submit').click();
    await page.locator('#price-form').waitFor({ state: 'detached' });
    await poll('the row without a maximum output', async () => (/8,192/.test(await priceRow('team-model').innerText()) ? undefined : true));
    assert.deepEqual(await capped(), { header: null, sent: 32_000 });
  });

  it('lists the unpriced models first, their names as text; prices one free on purpose and an image model by size and quality', async () => {
    assert.equal(await page.locator('#prices-unpriced').innerText(),
      `2 models are served by a channel but have no price, so the gateway refuses them (model_not_priced): ${HOSTILE}, ${LONG}.`);
    const order = await page.locator('[data-testid="prices-table"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-model')));
    assert.deepEqual(order.slice(0, 2), [HOSTILE, LONG], 'unpriced first');
    assert.equal(await priceRow(HOSTILE).locator('code').textContent(), HOSTILE, 'the name is the text of the cell');
    assert.equal(await priceRow(HOSTILE).getAttribute('class'), 'unpriced');
    assert.match(await priceRow(HOSTILE).innerText(), /no price[\s\S]*Not served until priced/);
    assert.equal(await page.locator('#main i, #main script').count(), 0, 'no element was made from it');

    await priceRow(LONG).getByRole('button', { name: `Set price ${LONG}` }).click();
    await page.locator('#price-free').check();
    assert.equal(await page.locator('#price-input').count(), 0, 'free takes no price');
    await page.locator('#price-submit').click();
    await notice('prices').filter({ hasText: `${LONG} is priced: free. Clients can use it now.` }).waitFor();

    await page.locator('#price-new').click();
    await page.locator('#price-model').fill('pictures');
    await page.locator('#price-kind').selectOption('image');
    assert.equal(await page.locator('#price-input').count(), 0, 'an image model takes a price per image');
    await page.locator('#price-image').fill('0.04');
    await page.locator('#price-variants-add').click();
    await page.locator('#price-variants-key-0').fill('1024x1792');
    await page.locator('#price-variants-value-0').fill('0.08');
    await page.locator('#price-variants-add').click();
    await page.locator('#price-variants-key-1').fill('HD');
    await page.locator('#price-variants-value-1').fill('0.12');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENSHOTS, 'console-admin-models-price-dialog-phone.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.locator('#price-submit').click();
    await notice('prices').filter({ hasText: 'pictures is priced: $0.04 / image, $0.08 for 1024x1792, $0.12 for hd. No enabled channel serves it yet.' }).waitFor();

    await page.locator('#prices-q').fill('hostile');
    await page.locator('#prices-count', { hasText: '1 model matches “hostile”.' }).waitFor();
    await page.locator('#prices-q').fill('');
    await page.locator('#prices-count', { hasText: 'priced or served by a channel' }).waitFor();
    await screenshots(page, 'models', () => priceRow(HOSTILE), '模型与价格');
  });

  it('edits the channel in place: the next request goes to the new upstream, the key kept', async () => {
    await open(page, base, '#/admin/channels');
    await card('up').getByRole('button', { name: 'Edit up' }).click();
    const baseUrl = card('up').locator('#edit-up-base-url');
    assert.equal(await baseUrl.inputValue(), a.url);
    assert.equal(await card('up').locator('#edit-up-key').inputValue(), '', 'the key is not in the form');
    assert.match(await card('up').locator('#edit-up-key-hint').innerText(), /Empty: keep the key \(…6789\)/);
    await baseUrl.fill(b.url);
    await card('up').screenshot({ path: join(SCREENSHOTS, 'console-admin-channels-edit.png') });
    await card('up').locator('#edit-up-submit').click();
    await notice('channels').filter({ hasText: 'Channel up is saved; the next request uses it.' }).waitFor();
    await card('up').filter({ hasText: b.url }).waitFor();
    assert.equal(await card('up').locator('#edit-up-base-url').count(), 0, 'the form closed');
    await ask();
    assert.deepEqual([b.requests.length, b.requests.at(-1)!.headers.authorization], [1, `Bearer ${SECRET}`]);
  });

  it('disables and enables the channel; deletes it after a confirmation (Cancel keeps it); the requests follow', async () => {
    await card('up').getByRole('button', { name: 'Disable up' }).click();
    await card('up').getByRole('button', { name: 'Enable up' }).waitFor();
    assert.match(await card('up').innerText(), /up\s+openai\s+disabled/);
    await assert.rejects(ask(), (e: unknown) => e instanceof InternalServerError && e.code === 'upstream_unavailable');
    await card('up').getByRole('button', { name: 'Enable up' }).click();
    await card('up').getByRole('button', { name: 'Disable up' }).waitFor();
    await ask();
    await screenshots(page, 'channels', () => card('up'), '渠道');

    const dialog = page.locator('dialog[open]');
    await card('up').getByRole('button', { name: 'Delete up' }).click();
    await dialog.getByText('Delete channel up?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await card('up').count(), 1, 'Cancel keeps it');
    await ask();
    await card('up').getByRole('button', { name: 'Delete up' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await notice('channels').filter({ hasText: 'Channel up is deleted.' }).waitFor();
    await card('up').waitFor({ state: 'detached' });
    await assert.rejects(ask(), (e: unknown) => e instanceof InternalServerError && e.code === 'upstream_unavailable');
  });

  it('showed the names made of HTML as text everywhere, ran nothing, never showed the key, and the CSP blocked nothing', async () => {
    await open(page, base, '#/admin/models');
    // The HTML-named model went with the channel (no price, no channel); the long one is priced, free.
    await priceRow(LONG).filter({ hasText: 'free' }).waitFor();
    assert.equal(await priceRow(HOSTILE).count(), 0);
    await assertNoOverflow(page, 'models');
    assert.equal(await page.locator('#main i, #main script').count(), 0, 'no element was made from a name');
    assert.equal(await page.evaluate(() => '__xss' in window), false, 'and nothing ran');
    assert.ok(!(await page.content()).includes(SECRET));
    assertNoProblems(suite().browser, ASKED);
  });
});
