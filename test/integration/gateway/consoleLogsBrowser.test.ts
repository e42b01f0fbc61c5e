// The request logs in a real browser (Debian's chromium, issue 10): requests made with the official openai
// SDK are listed newest first with their key, model, status (the error code and its reason in words),
// tokens, cost and times; the filters narrow them and stay in the address; a row opens its details with
// the troubleshooting order; the CSV link carries the filters; live mode shows a new request without a
// reload and pauses while the tab is hidden; older pages follow the `before` cursor; a user never sees
// another account's rows. Long names and messages never widen the page, at 1280 px or on a phone.
// No page error and nothing blocked by the CSP throughout.
import assert from 'node:assert/strict';
import { APIError } from 'openai';
import type OpenAI from 'openai';
import { assertNoOverflow, assertNoProblems, setLang, setTheme, shoot, signIn, useDashSuite } from './consoleDashSupport.ts';

const LONG_MODEL = `model-${'x'.repeat(120)}-${'y'.repeat(73)}`;

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
  let bobs: string;

  before(async () => {
    const { sdk } = suite();
    ok1 = await chat(sdk.ada, 'echo', 'first');
    bad = await refused(sdk.ada, 'no-such-model');
    long = await refused(sdk.ada, LONG_MODEL);
    ok2 = await chat(sdk.ada, 'echo', 'second');
    bobs = await chat(sdk.bob, 'echo', 'from bob');
  });

  const row = (id: string) => suite().page.locator(`[data-testid=logs-table] tbody tr:has([data-request-id="${id}"])`);

  it("lists the user's requests newest first, each with its key, model, status, reason, tokens, cost and times; never another account's", async () => {
    const s = suite();
    await signIn(s, 'ada', '#/logs');
    await setLang(s.page, 'en');
    await row(ok2).waitFor();
    const ids = await s.page.locator('[data-testid=logs-table] [data-request-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-request-id')));
    assert.deepEqual(ids, [ok2, long.id, bad.id, ok1], 'newest first, only ada\'s');
    assert.ok(!ids.includes(bobs));
    assert.match(await row(ok2).innerText(), /ada-key[\s\S]*echo[\s\S]*200[\s\S]*\$0\.\d+[\s\S]*ms[\s\S]*no/);
    const badText = await row(bad.id).innerText();
    assert.match(badText, new RegExp(`no-such-model[\\s\\S]*${bad.status}[\\s\\S]*model_not_found[\\s\\S]*no model has this name`));
    await shoot(s.page, 'logs-en');
    await assertNoOverflow(s.page, 'logs at 1320 px');
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
    assert.equal(await page.locator('[data-testid=logs-table] tbody tr').count(), 4);
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
    await page.getByRole('button', { name: 'Close' }).click();
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
    assert.equal(older, 56 - 50);
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

  it("bob sees his own request only, none of ada's", async () => {
    const s = suite();
    await signIn(s, 'bob', '#/logs');
    await row(bobs).waitFor();
    const ids = await s.page.locator('[data-testid=logs-table] [data-request-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-request-id')));
    assert.deepEqual(ids, [bobs]);
    assertNoProblems(s);
  });
});
