// The request logs in a real browser (Debian's chromium, issue 10): requests made with the official openai
// SDK are listed newest first with their key, model, status (the error code and its reason in words),
// tokens, cost and times; the filters narrow them and stay in the address; a row opens its details with
// the troubleshooting order; the CSV link carries the filters; live mode shows a new request without a
// reload and pauses while the tab is hidden; older pages follow the `before` cursor; a user never sees
// another account's rows. Long names and messages never widen the page, at 1280 px or on a phone.
// No page error and nothing blocked by the CSP throughout.
import assert from 'node:assert/strict';
import { APIError } from 'openai';
import OpenAI from 'openai';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { assertNoOverflow, assertNoProblems, setLang, setTheme, shoot, signIn, useDashSuite } from './consoleDashSupport.ts';

const LONG_MODEL = `model-${'x'.repeat(120)}-${'y'.repeat(73)}`;

/** The logs table fits its frame: nothing to scroll sideways at this width. */
async function assertTableFits(page: import('playwright-core').Page, what: string): Promise<void> {
  const { scroll, width } = await page.locator('.log-frame').evaluate((frame) => ({ scroll: frame.scrollWidth, width: frame.clientWidth }));
  assert.ok(scroll <= width, `${what}: the table is ${scroll}px wide in a ${width}px frame`);
}

async function chat(sdk: OpenAI, model = 'echo', content = 'hello logs'): Promise<string> {
  const { request_id } = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content }] }).withResponse();
  assert.ok(request_id);
  return request_id;
}

/** A request the gateway refuses: its request id. */
async function refused(sdk: OpenAI, model: string): Promise<{ id: string; status: number }> {
  try {
    await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'nope' }] });
  } catch (error) {
    assert.ok(error instanceof APIError);
    return { id: error.requestID!, status: error.status! };
  }
  throw new Error('the request was not refused');
}

describe('console logs in a browser', function () {
  this.timeout(120_000);
  const suite = useDashSuite();
  let ok1: string;
  let ok2: string;
  let bad: { id: string; status: number };
  let long: { id: string; status: number };
  let failover: string;
  let bobs: string;
  let down: FakeUpstream;
  let up: FakeUpstream;

  before(async () => {
    const { sdk, store } = suite();
    // Two channels for one model: the first tried (higher priority) fails, the second answers.
    [down, up] = await Promise.all([startFakeUpstream({ status: 503, errorMessage: 'upstream overloaded' }), startFakeUpstream({})]);
    await addChannelPricedFree(store, newChannel({ name: 'down-ch', baseUrl: down.url, priority: 10, models: { 'gpt-failover': 'gpt-failover' } }));
    await addChannelPricedFree(store, newChannel({ name: 'up-ch', baseUrl: up.url, priority: 0, models: { 'gpt-failover': 'upstream-name' } }));
    ok1 = await chat(sdk.ada, 'echo', 'first');
    bad = await refused(sdk.ada, 'no-such-model');
    long = await refused(sdk.ada, LONG_MODEL);
    ok2 = await chat(sdk.ada, 'echo', 'second');
    failover = await chat(sdk.ada, 'gpt-failover', 'over to the next channel');
    bobs = await chat(sdk.bob, 'echo', 'from bob');
  });
  after(async () => {
    await down?.close();
    await up?.close();
  });

  const row = (id: string) => suite().page.locator(`[data-testid=logs-table] tbody tr:has([data-request-id="${id}"])`);

  it("lists the user's requests newest first, each with its key, model, status, reason, tokens, cost and times; never another account's", async () => {
    const s = suite();
    await signIn(s, 'ada', '#/logs');
    await setLang(s.page, 'en');
    await row(ok2).waitFor();
    const ids = await s.page.locator('[data-testid=logs-table] [data-request-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-request-id')));
    assert.deepEqual(ids, [failover, ok2, long.id, bad.id, ok1], 'newest first, only ada\'s');
    assert.ok(!ids.includes(bobs));
    assert.match(await row(ok2).innerText(), /ada-key[\s\S]*echo[\s\S]*200[\s\S]*\$0\.\d+[\s\S]*ms[\s\S]*no/);
    const badText = await row(bad.id).innerText();
    assert.match(badText, new RegExp(`no-such-model[\\s\\S]*${bad.status}[\\s\\S]*model_not_found[\\s\\S]*no model has this name`));
    await shoot(s.page, 'logs-en');
    await assertNoOverflow(s.page, 'logs at 1320 px');
    await assertTableFits(s.page, 'logs at 1320 px');
  });

  it('filters by status, key, model and time: kept in the address (a reload keeps them) and carried by the CSV link', async () => {
    const s = suite();
    const { page } = s;
    await page.locator('#logs-status').selectOption('error');
    await row(ok2).waitFor({ state: 'detached' });
    await row(bad.id).waitFor();
    assert.equal(await row(ok1).count(), 0, 'the error filter hides every success');
    assert.equal(new URL(page.url()).hash, '#/logs?status=error');
    await page.reload();
    await row(bad.id).waitFor();
    assert.equal(await row(ok2).count(), 0, 'still filtered after a reload');
    assert.equal(await page.locator('#logs-status').inputValue(), 'error');

    await page.locator('#logs-key').selectOption({ label: 'ada-key' });
    await page.waitForFunction(() => location.hash.includes('key='));
    await page.locator('#logs-model').fill('no-such-model');
    await page.locator('#logs-apply').click();
    await row(long.id).waitFor({ state: 'detached' });
    await row(bad.id).waitFor();
    const href = await page.locator('#logs-csv').getAttribute('href');
    const csv = new URL(href!, s.t.gw.url);
    assert.equal(csv.pathname, '/api/console/account/logs');
    assert.equal(csv.searchParams.get('format'), 'csv');
    assert.equal(csv.searchParams.get('status'), 'error');
    assert.equal(csv.searchParams.get('model'), 'no-such-model');
    assert.match(csv.searchParams.get('key') ?? '', /^\d+$/);
    const download = await page.request.get(csv.href); // with the browser's session cookie, as the link is followed
    assert.equal(download.status(), 200);
    const text = await download.text();
    assert.match(text, new RegExp(`^time,request_id[\\s\\S]*${bad.id}`));
    assert.ok(!text.includes(ok2) && !text.includes(long.id), 'the CSV has the filtered rows only');

    await page.locator('#logs-range').selectOption('1h');
    await row(bad.id).waitFor();
    assert.ok(new URL(page.url()).hash.includes('range=1h'));
    assert.ok(new URL((await page.locator('#logs-csv').getAttribute('href'))!, s.t.gw.url).searchParams.get('since'), 'the time range is in the CSV link');
    await page.locator('#logs-range').selectOption('custom');
    await page.locator('#logs-since').fill('2000-01-01T00:00');
    await page.locator('#logs-until').fill('2000-01-02T00:00');
    await page.locator('#logs-apply').click();
    await page.locator('#logs-empty').waitFor();
    assert.match(await page.locator('#logs-empty').innerText(), /No request matches these filters/);

    await page.locator('#logs-clear').click();
    await row(ok2).waitFor();
    assert.equal(new URL(page.url()).hash, '#/logs');
    assert.equal(await page.locator('[data-testid=logs-table] tbody tr').count(), 5);

    // A request id (from an error message, or X-Request-Id) finds that one request.
    await page.locator('#logs-request-id').fill(` ${bad.id} `);
    await page.locator('#logs-request-id').press('Enter');
    await row(ok2).waitFor({ state: 'detached' });
    assert.equal(await page.locator('[data-testid=logs-table] tbody tr').count(), 1);
    await row(bad.id).waitFor();
    assert.equal(new URL((await page.locator('#logs-csv').getAttribute('href'))!, s.t.gw.url).searchParams.get('request_id'), bad.id);
    await page.locator('#logs-clear').click();
    await row(ok2).waitFor();
  });

  it('opens a row to its details: the reason in words, what to do, and where to start in the 7.3 order; Escape closes it', async () => {
    const { page } = suite();
    await row(bad.id).click();
    const details = page.locator('[data-testid=log-details]');
    await details.waitFor();
    assert.equal(await details.getAttribute('data-request-id'), bad.id);
    assert.match(await page.locator('[data-testid=log-reason]').innerText(), /model not found: no model has this name/);
    assert.equal(await details.locator('[data-step][aria-current=step]').getAttribute('data-step'), 'model', 'model_not_found starts at step 4');
    assert.equal(await details.locator('[data-step]').count(), 7);
    await shoot(page, 'logs-details-en');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });

    // By keyboard: a row takes focus and Enter opens it.
    await row(ok2).focus();
    await page.keyboard.press('Enter');
    await details.waitFor();
    assert.equal(await details.getAttribute('data-request-id'), ok2);
    assert.equal(await page.locator('[data-testid=log-reason]').count(), 0, 'a success has no reason to explain');
    // The full record: the channel that answered, the client that sent it.
    await page.locator('[data-testid=log-channel]').filter({ hasText: 'echo' }).waitFor();
    assert.match(await page.locator('[data-testid=log-user-agent]').innerText(), /OpenAI\/JS/);
    await page.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'detached' });

    // A request that failed over: the channel tried before, why it failed there, and the one that answered.
    await row(failover).click();
    await details.waitFor();
    const attempts = page.locator('[data-testid=log-attempts] tbody tr');
    await attempts.first().waitFor();
    assert.equal(await attempts.count(), 1);
    assert.match(await attempts.first().innerText(), /down-ch[\s\S]*upstream/);
    assert.match(await page.locator('[data-testid=log-channel]').innerText(), /up-ch/);
    assert.match(await details.innerText(), /Upstream model\s+upstream-name/);
    await shoot(page, 'logs-failover-en');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
  });

  it('live mode: a request made after it is on appears at the top without a reload, marked new; it pauses while the tab is hidden', async () => {
    const s = suite();
    const { page } = s;
    await page.locator('#logs-live').click();
    await page.locator('#logs-live-status[data-state=on]').waitFor();
    assert.equal(await page.locator('#logs-live').getAttribute('aria-pressed'), 'true');
    assert.ok(new URL(page.url()).hash.includes('live=1'));
    const fresh = await chat(s.sdk.ada, 'echo', 'while live');
    const freshRow = row(fresh);
    await freshRow.waitFor({ timeout: 6000 });
    assert.equal(await freshRow.locator('[data-fresh]').count(), 1, 'marked new');
    const first = await page.locator('[data-testid=logs-table] [data-request-id]').first().getAttribute('data-request-id');
    assert.equal(first, fresh, 'at the top');
    await page.locator('#logs-live-status').filter({ hasText: /1 new since live mode started/ }).waitFor();
    await shoot(page, 'logs-live-en');

    // The tab hides: live mode says it paused and asks nothing; shown again, it catches up at once.
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.locator('#logs-live-status[data-state=paused]').waitFor();
    const asked: string[] = [];
    const onRequest = (r: { url(): string }): void => { if (r.url().includes('/api/console/account/logs')) asked.push(r.url()); };
    page.on('request', onRequest);
    const whileHidden = await chat(s.sdk.ada, 'echo', 'while hidden');
    await page.waitForTimeout(2600);
    assert.deepEqual(asked, [], 'nothing asked while hidden');
    assert.equal(await row(whileHidden).count(), 0);
    await page.evaluate(() => {
      delete (document as { hidden?: boolean }).hidden;
      delete (document as { visibilityState?: string }).visibilityState;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await row(whileHidden).waitFor({ timeout: 3000 });
    page.off('request', onRequest);
    await page.locator('#logs-live-status[data-state=on]').waitFor();

    await page.locator('#logs-live').click();
    await page.locator('#logs-live-status').waitFor({ state: 'detached' });
    assert.ok(!new URL(page.url()).hash.includes('live=1'));
  });

  it('pages through older requests with the before cursor, and back to the newest', async () => {
    const s = suite();
    const { page } = s;
    for (let i = 0; i < 50; i++) await chat(s.sdk.ada, 'echo', `page ${i}`);
    await page.reload();
    await page.locator('#logs-older').waitFor();
    assert.equal(await page.locator('[data-testid=logs-table] tbody tr').count(), 50);
    await page.locator('#logs-older').click();
    await row(ok1).waitFor();
    assert.match(new URL(page.url()).hash, /before=\d+/);
    assert.equal(await page.locator('#logs-older').count(), 0, 'the last page');
    const older = await page.locator('[data-testid=logs-table] tbody tr').count();
    assert.equal(older, 57 - 50);
    await page.locator('#logs-newest').click();
    await page.locator('#logs-older').waitFor();
    assert.equal(await row(ok1).count(), 0);
  });

  it('long model names and messages wrap: no overflow at 1280 px or on a phone, in English, Chinese and dark', async () => {
    const s = suite();
    const { page } = s;
    await page.goto(`${s.t.gw.url}/#/logs?status=error`);
    await row(long.id).waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
    await assertNoOverflow(page, 'logs at 1280 px');
    await setLang(page, 'zh-CN');
    await page.locator('#logs-status').filter({ hasText: '失败' }).waitFor();
    assert.match(await row(bad.id).innerText(), /model_not_found[\s\S]*没有此名称的模型/);
    await shoot(page, 'logs-zh-CN');
    await row(bad.id).click();
    await page.locator('[data-testid=log-details]').waitFor();
    await shoot(page, 'logs-details-zh-CN');
    await page.keyboard.press('Escape');
    await setTheme(page, 'dark');
    await shoot(page, 'logs-dark-zh-CN');
    await setLang(page, 'en');
    await setTheme(page, 'system');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await row(long.id).waitFor();
    await assertNoOverflow(page, 'logs on a phone');
    await shoot(page, 'logs-phone-en');
    await row(long.id).click();
    await page.locator('[data-testid=log-details]').waitFor();
    await assertNoOverflow(page, 'details on a phone');
    await shoot(page, 'logs-details-phone-en');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1320, height: 1000 });
    assertNoProblems(s);
  });

  it("bob sees his own request only, none of ada's; the admins' page is not his", async () => {
    const s = suite();
    await signIn(s, 'bob', '#/logs');
    await row(bobs).waitFor();
    const ids = await s.page.locator('[data-testid=logs-table] [data-request-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-request-id')));
    assert.deepEqual(ids, [bobs]);
    await s.page.goto(`${s.t.gw.url}/#/admin/logs`);
    await s.page.getByText('This page is for admins.').waitFor();
    assert.equal(await s.page.locator('[data-testid=logs-table]').count(), 0);
    assertNoProblems(s);
  });

  it("admins see every account's rows, each named, filtered by account or user, with the same details, CSV and live mode", async () => {
    const s = suite();
    const { page } = s;
    const adaNow = await chat(s.sdk.ada, 'gpt-failover', 'for the admins');
    const bobNow = await chat(s.sdk.bob, 'echo', 'bob again');
    await signIn(s, 'root', '#/admin/logs');
    await setLang(page, 'en');
    await row(bobNow).waitFor();
    await row(adaNow).waitFor();
    assert.match(await row(bobNow).innerText(), /bob[\s\S]*bob-key[\s\S]*echo[\s\S]*200/);
    assert.match(await row(adaNow).innerText(), /ada[\s\S]*ada-key[\s\S]*gpt-failover[\s\S]*200/);
    await shoot(page, 'admin-logs-en');
    await assertTableFits(page, "admins' logs at 1320 px");

    await page.locator('#logs-account').fill('bob');
    await page.locator('#logs-apply').click();
    await row(adaNow).waitFor({ state: 'detached' });
    const ids = await page.locator('[data-testid=logs-table] [data-request-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-request-id')));
    assert.deepEqual(ids, [bobNow, bobs]);
    const csv = new URL((await page.locator('#logs-csv').getAttribute('href'))!, s.t.gw.url);
    assert.equal(csv.pathname, '/api/console/admin/logs');
    assert.equal(csv.searchParams.get('account'), 'bob');
    const download = await page.request.get(csv.href);
    assert.equal(download.status(), 200);
    assert.ok((await download.text()).includes(bobNow));

    await page.locator('#logs-account').fill('');
    await page.locator('#logs-user').fill('ada');
    await page.locator('#logs-apply').click();
    await row(bobNow).waitFor({ state: 'detached' });
    await row(adaNow).waitFor();
    assert.ok(new URL(page.url()).hash.includes('user=ada'));
    await page.locator('#logs-status').selectOption('error');
    await row(bad.id).click();
    await page.locator('[data-testid=log-details]').waitFor();
    assert.match(await page.locator('[data-testid=log-details]').innerText(), /Account\s+ada/);
    assert.equal(await page.locator('[data-testid=log-details] [data-step][aria-current=step]').getAttribute('data-step'), 'model');
    await page.keyboard.press('Escape');
    await page.locator('#logs-status').selectOption('');
    await row(adaNow).waitFor();

    await page.locator('#logs-live').click();
    await page.locator('#logs-live-status[data-state=on]').waitFor();
    const fresh = await chat(s.sdk.ada, 'echo', 'admin live');
    const unseen = await chat(s.sdk.bob, 'echo', 'not ada');
    await row(fresh).waitFor({ timeout: 6000 });
    assert.equal(await row(fresh).locator('[data-fresh]').count(), 1);
    assert.equal(await row(unseen).count(), 0, "live mode keeps the filter: bob's row stays out");
    await page.locator('#logs-live').click();

    // An account that does not exist is said so, in the contract's words.
    await page.locator('#logs-user').fill('');
    await page.locator('#logs-account').fill('nobody-here');
    await page.locator('#logs-apply').click();
    await page.getByText('No account with this name.').waitFor();
    await setLang(page, 'zh-CN');
    await page.locator('#logs-account').fill('');
    await page.locator('#logs-apply').click();
    await row(bobNow).waitFor();
    await shoot(page, 'admin-logs-zh-CN');
    await setLang(page, 'en');
    assertNoProblems(s, [/status of 404/]);
  });

  it("renders what users and upstreams wrote as text: markup in a model name and a User-Agent, a 1,000-character upstream message", async () => {
    const s = suite();
    const { page } = s;
    const payload = '<img src=x onerror="window.__xss=1">';
    const sneaky = new OpenAI({ apiKey: s.sdk.ada.apiKey, baseURL: s.sdk.ada.baseURL, maxRetries: 0, defaultHeaders: { 'User-Agent': `<script>window.__xss=2</script>${'agent-'.repeat(60)}` } });
    const marked = await refused(sneaky, payload);
    // An attempt whose upstream said a great deal (written as the log writer would: the relay keeps such words in attempts).
    const ada = (await s.store.getAccount('ada'))!;
    const message = `The upstream said: ${'overloaded, '.repeat(60)}${'x'.repeat(300)} <b>not bold</b> ${payload}`;
    await s.store.write({
      logs: [{
        time: Date.now(), requestId: 'long-message-row', method: 'POST', path: '/v1/chat/completions', accountId: ada.id, keyId: null, keyName: null,
        model: 'gpt-failover', channel: 'up-ch', status: 502, errorCode: 'upstream_error', promptTokens: 0, completionTokens: 0, usageEstimated: false,
        cost: 0, latencyMs: 30, firstByteMs: null, stream: true, attempts: JSON.stringify([{ channel: 'down-ch', code: 'upstream_error', detail: message, ms: 12 }]),
      }],
      keysUsed: new Map(),
    });

    await signIn(s, 'ada', '#/logs');
    await row(marked.id).waitFor();
    assert.ok((await row(marked.id).innerText()).includes(payload), 'the model name shown as written');
    await row(marked.id).click();
    await page.locator('[data-testid=log-user-agent]').waitFor();
    assert.match(await page.locator('[data-testid=log-user-agent]').innerText(), /^<script>window\.__xss=2<\/script>agent-/);
    await page.keyboard.press('Escape');

    await page.goto(`${s.t.gw.url}/#/logs?request_id=long-message-row`);
    await row('long-message-row').click();
    const attempt = page.locator('[data-testid=log-attempts] tbody tr');
    await attempt.waitFor();
    assert.ok((await attempt.innerText()).includes(message.slice(0, 200)));
    assert.ok((await attempt.innerText()).includes('<b>not bold</b>'));
    assert.equal(await page.locator('[data-testid=log-details] b, main img, dialog img').count(), 0, 'no markup became an element');
    assert.equal(await page.evaluate(() => (window as { __xss?: number }).__xss), undefined, 'nothing ran');
    await assertNoOverflow(page, 'a long message at 1320 px');
    await page.setViewportSize({ width: 390, height: 844 });
    await assertNoOverflow(page, 'a long message on a phone');
    await shoot(page, 'logs-long-message-phone-en');
    await page.setViewportSize({ width: 1320, height: 1000 });
    await page.keyboard.press('Escape');
    assertNoProblems(s, [/status of 404/]);
  });
});
