// The dashboard in a real browser (Debian's chromium, issue 10): after requests made with the official
// openai SDK (two models, two kinds of refusal), the user's dashboard shows their balance, spent today
// and this month equal to the sum of their requests' costs, the requests and errors of the range, charts
// drawn on their canvas (redrawn for the dark theme and a narrower window) whose tables list every
// bucket, spending by model, and the top error reasons in the contract's words with a link to those
// rows in the logs. The range (24 hours, 7 days, 30 days) is kept in the address. Another user's
// dashboard counts none of it. Long model names wrap; no overflow at 1280 px or on a phone; screenshots
// in English, Chinese and dark. No page error and nothing blocked by the CSP.
import assert from 'node:assert/strict';
import { APIError } from 'openai';
import type OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { assertNoOverflow, assertNoProblems, setLang, setTheme, shoot, signIn, useDashSuite } from './consoleDashSupport.ts';
import { chatModel } from './helpers.ts';

const LONG_MODEL = `unknown-${'m'.repeat(150)}-${'n'.repeat(41)}`;

/** Money as the console writes it (i18n/format.ts usd): at least two decimals, trailing zeros dropped. */
function usd(micro: number): string {
  const fraction = String(micro % 1_000_000).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `$${Math.floor(micro / 1_000_000).toLocaleString('en-US')}.${fraction}`;
}

async function refused(sdk: OpenAI, model: string): Promise<number> {
  try {
    await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'nope' }] });
  } catch (error) {
    assert.ok(error instanceof APIError);
    return error.status!;
  }
  throw new Error('not refused');
}

/** How many pixels of the chart's canvas are painted, and a fingerprint of them. */
function canvasInk(page: Page, testId: string): Promise<{ painted: number; width: number; print: string }> {
  return page.locator(`[data-testid=${testId}] canvas`).first().evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d')!;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! > 0) painted++;
      sum = (sum + data[i]! * 3 + data[i + 1]! * 5 + data[i + 2]! * 7) % 1_000_000_007;
    }
    return { painted, width: canvas.getBoundingClientRect().width, print: String(sum) };
  });
}

describe('console dashboard in a browser', function () {
  this.timeout(120_000);
  const suite = useDashSuite();
  let upstream: FakeUpstream;
  const made = { ok: 0, echo: 0, dash: 0, notFound: 0 };

  before(async () => {
    const s = suite();
    upstream = await startFakeUpstream({ usage: { prompt_tokens: 1000, completion_tokens: 500 } });
    await addChannelPricedFree(s.store, newChannel({ name: 'dash-upstream', baseUrl: upstream.url, models: { 'gpt-dash': 'gpt-dash' } }));
    await s.store.setModel(chatModel('gpt-dash', 2_000_000, 8_000_000));
    for (let i = 0; i < 3; i++) {
      await s.sdk.ada.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: `echo ${i}` }] });
      made.echo++;
    }
    for (let i = 0; i < 2; i++) {
      await s.sdk.ada.chat.completions.create({ model: 'gpt-dash', messages: [{ role: 'user', content: `dash ${i}` }] });
      made.dash++;
    }
    assert.equal(await refused(s.sdk.ada, 'no-such-model'), 404);
    assert.equal(await refused(s.sdk.ada, LONG_MODEL), 404);
    made.notFound = 2;
    await s.sdk.bob.chat.completions.create({ model: 'gpt-dash', messages: [{ role: 'user', content: 'bob' }] });
  });
  after(async () => upstream?.close());

  /** Ada's costs from the gateway's own log: the sum the dashboard must show. */
  async function adaSpent(): Promise<number> {
    const s = suite();
    const rows = (await s.store.listLogs(500)).filter((r) => r.accountName === 'ada');
    return rows.reduce((sum, r) => sum + r.cost, 0);
  }

  it("shows the user's balance, spent today and this month (the sum of the requests' costs), requests and errors", async () => {
    const s = suite();
    await signIn(s, 'ada', '#/');
    await setLang(s.page, 'en');
    const spent = await adaSpent();
    assert.ok(spent > 0, 'the requests cost something');
    const balance = (await s.store.getAccount('ada'))!.balance;
    await s.page.locator('[data-testid=stat-today]').waitFor();
    assert.match(await s.page.locator('[data-testid=stat-balance]').innerText(), new RegExp(`Balance\\s+\\${usd(balance)}`));
    assert.match(await s.page.locator('[data-testid=stat-today]').innerText(), new RegExp(`Spent today\\s+\\${usd(spent)}`));
    assert.match(await s.page.locator('[data-testid=stat-month]').innerText(), new RegExp(`Spent this month\\s+\\${usd(spent)}`));
    assert.match(await s.page.locator('[data-testid=stat-requests]').innerText(), /Requests\s+7\b/);
    assert.match(await s.page.locator('[data-testid=stat-errors]').innerText(), /Errors\s+2\b[\s\S]*28\.6% failed/);
    assert.match(await s.page.locator('[data-testid=stat-latency]').innerText(), /Latency \(median\)\s+\d+ ms\s+95% within \d+ ms/);
  });

  it('draws the charts on their canvas, each with a sentence and a table of every bucket', async () => {
    const { page } = suite();
    const ink = await canvasInk(page, 'chart-requests');
    assert.ok(ink.painted > 200, `the requests chart is drawn (${ink.painted} pixels)`);
    assert.ok((await canvasInk(page, 'chart-cost')).painted > 200, 'the spending chart is drawn');
    assert.ok((await canvasInk(page, 'chart-by-model')).painted > 200, 'the by-model chart is drawn');

    const table = page.locator('[data-testid=chart-requests] .chart-table table');
    assert.equal(await table.locator('tbody tr').count(), 24, 'one row per hour');
    const counts = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    assert.deepEqual(counts.at(-1), ['7', '2'], 'this hour: 7 requests, 2 errors');
    assert.equal(counts.slice(0, -1).filter(([r]) => r !== '0').length, 0, 'nothing earlier');
    assert.match(await page.locator('[data-testid=chart-requests] figcaption').innerText(), /Requests in the last 24 hours: 7, of which 2 failed\. The busiest hour was .*, with 7 of them\./);
    await page.locator('[data-testid=chart-requests] summary').click();
    assert.ok(await table.isVisible(), 'the table opens');

    const models = await page.locator('[data-testid=chart-by-model] .chart-table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.querySelector('th')!.textContent));
    assert.deepEqual(models.slice(0, 2), ['gpt-dash', 'echo'], 'the dearest model first');
    assert.ok(models.includes(LONG_MODEL), 'the long name is listed whole in the table');
    assert.match(await page.locator('[data-testid=chart-by-model] figcaption').innerText(), /4 models used; the most spent on gpt-dash/);
    await shoot(page, 'dashboard-en');
    await assertNoOverflow(page, 'dashboard at 1320 px');
  });

  it('lists the top error reasons in the contract words, linked to those rows in the logs', async () => {
    const { page } = suite();
    const item = page.locator('[data-testid=top-errors] li[data-code=model_not_found]');
    assert.match(await item.innerText(), /404[\s\S]*model_not_found[\s\S]*2[\s\S]*no model has this name/);
    const link = new URL((await page.locator('#top-errors-logs').getAttribute('href'))!, 'http://x/');
    assert.equal(link.hash, '#/logs?range=24h&status=error');
  });

  it('switches the range (kept in the address through a reload): 7 daily buckets, then 30', async () => {
    const { page } = suite();
    await page.locator('label:has(#range-7d)').click();
    await page.waitForFunction(() => location.hash === '#/?range=7d');
    const rows = page.locator('[data-testid=chart-requests] .chart-table tbody tr');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=chart-requests] .chart-table tbody tr').length === 7);
    assert.deepEqual(await rows.last().locator('td').allTextContents(), ['7', '2']);
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=chart-requests] .chart-table tbody tr').length === 7);
    assert.ok(await page.locator('#range-7d').isChecked());
    // By keyboard: the range is a radio group.
    await page.locator('#range-7d').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => location.hash === '#/?range=30d');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=chart-requests] .chart-table tbody tr').length === 30);
    assert.match(await page.locator('[data-testid=stat-requests]').innerText(), /7\s+in the last 30 days/);
  });

  it('redraws for the dark theme and a narrower window; Chinese words; no overflow on a phone', async () => {
    const s = suite();
    const { page } = s;
    await page.goto(`${s.t.gw.url}/#/`);
    await page.locator('[data-testid=chart-requests] canvas').waitFor();
    await setTheme(page, 'light');
    await page.waitForTimeout(100);
    const light = await canvasInk(page, 'chart-requests');
    const lightImage = await page.locator('[data-testid=chart-requests] canvas').evaluate((c: HTMLCanvasElement) => c.toDataURL());
    await setTheme(page, 'dark');
    await page.waitForFunction((before) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=chart-requests] canvas');
      return canvas !== null && canvas.toDataURL() !== before;
    }, lightImage);
    const dark = await canvasInk(page, 'chart-requests');
    assert.notEqual(dark.print, light.print, 'the dark theme redraws the chart in its colours');
    await shoot(page, 'dashboard-dark-en');

    await setLang(page, 'zh-CN');
    await page.locator('[data-testid=chart-requests] figcaption').filter({ hasText: '最近 24 小时共 7 个请求、2 个错误' }).waitFor();
    assert.match(await page.locator('[data-testid=top-errors] li[data-code=model_not_found]').innerText(), /没有此名称的模型/);
    assert.match(await page.locator('[data-testid=stat-today]').innerText(), /今日消费/);
    await shoot(page, 'dashboard-dark-zh-CN');
    await setTheme(page, 'system');
    await shoot(page, 'dashboard-zh-CN');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => (document.querySelector('[data-testid=chart-requests] canvas')?.getBoundingClientRect().width ?? 999) < 390);
    const narrow = await canvasInk(page, 'chart-requests');
    assert.ok(narrow.width < 390 && narrow.painted > 100, `redrawn narrower (${narrow.width}px)`);
    await assertNoOverflow(page, 'dashboard on a phone (Chinese)');
    await setLang(page, 'en');
    await assertNoOverflow(page, 'dashboard on a phone');
    await shoot(page, 'dashboard-phone-en');
    await page.setViewportSize({ width: 1280, height: 900 });
    await assertNoOverflow(page, 'dashboard at 1280 px');
    await page.setViewportSize({ width: 1320, height: 1000 });
    assertNoProblems(s);
  });

  it("the admins' overview: the whole gateway's requests and money, the top accounts linked to their logs, the counts", async () => {
    const s = suite();
    const { page } = s;
    await signIn(s, 'root', '#/admin');
    await page.locator('[data-testid=stat-requests]').waitFor();
    assert.match(await page.locator('[data-testid=stat-requests]').innerText(), /Requests\s+8\b/);
    assert.match(await page.locator('[data-testid=stat-errors]').innerText(), /Errors\s+2\b/);
    const everyone = (await s.store.listLogs(500)).reduce((sum, r) => sum + r.cost, 0);
    assert.match(await page.locator('[data-testid=stat-today]').innerText(), new RegExp(`\\${usd(everyone)}`));
    for (const [name, n] of [['users', 3], ['accounts', 4], ['keys', 3], ['channels', 2]] as const) {
      assert.match(await page.locator(`[data-testid=stat-${name}]`).innerText(), new RegExp(`\\b${n}$`), name);
    }
    const accounts = page.locator('[data-testid=top-accounts] tbody tr');
    assert.deepEqual(await accounts.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-account'))), ['ada', 'bob'], 'the account that spent most first');
    assert.match(await accounts.first().innerText(), /ada\s+7\s+2\s+\$/);
    assert.ok((await canvasInk(page, 'chart-requests')).painted > 200);
    await shoot(page, 'admin-overview-en');
    await setLang(page, 'zh-CN');
    await page.locator('[data-testid=stat-users]').filter({ hasText: '用户' }).waitFor();
    await shoot(page, 'admin-overview-zh-CN');
    await setLang(page, 'en');
    await accounts.first().getByRole('link', { name: 'ada' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/admin/logs?'));
    assert.equal(await page.locator('#logs-account').inputValue(), 'ada');
    await page.locator('[data-testid=logs-table] tbody tr').first().waitFor();
    assert.match(await page.locator('[data-testid=logs-table] tbody').innerText(), /ada-key/);
    assert.doesNotMatch(await page.locator('[data-testid=logs-table] tbody').innerText(), /bob-key/);
    assertNoProblems(s);
  });

  it("another user's dashboard counts only their own request", async () => {
    const s = suite();
    await signIn(s, 'bob', '#/');
    await s.page.locator('[data-testid=stat-requests]').waitFor();
    assert.match(await s.page.locator('[data-testid=stat-requests]').innerText(), /Requests\s+1\b/);
    assert.match(await s.page.locator('[data-testid=stat-errors]').innerText(), /Errors\s+0\b/);
    assert.equal(await s.page.locator('[data-testid=top-errors]').count(), 0);
    const models = await s.page.locator('[data-testid=chart-by-model] .chart-table tbody tr th').allTextContents();
    assert.deepEqual(models, ['gpt-dash']);
    assertNoProblems(s);
  });
});
