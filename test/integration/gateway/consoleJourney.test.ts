// Issue 10's journey, end to end, in two real browsers (Debian's chromium) against a real gateway on a real
// SQLite file: the first admin from the setup link; the admin creates a user, a channel to a fake upstream
// (tested), its model's price and a redemption code; the user signs in, redeems the code, creates a key with a
// model allow-list and a spending limit and copies it; the official openai SDK uses it; the request shows up in
// the user's logs (live mode, no reload) and on the dashboard; disabling the key in the browser makes the next
// SDK request fail with 403; the user cannot reach the admin pages or the admin's data; sign-out ends the
// session. Then every page, as the admin and as a user, in English and Chinese: a screenshot of each
// (test-results/journey-*.png), and markup planted in every field a user or an upstream controls renders as
// text, runs nothing, and never widens a page.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { startFakeUpstream, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { poll } from '../../support/poll.ts';
import { ADMIN_NAV, USER_NAV } from '../../../src/console/nav.ts';
import { formatMicroUsd } from '../../../src/contract/index.ts';
import { launchConsoleBrowser, type ConsoleBrowser } from './browser.ts';
import { assertNoOverflow, assertNoProblems, REFUSED, setLang, shoot, signInOn, signOutOn, useConsoleSuite } from './consoleSupport.ts';

const ROOT_PASSWORD = 'journey root password';
const ADA_PASSWORD = 'journey ada password';
const KEY = 'journey-key';
/** Markup that would run if any page built elements from text (in the fields that take any text: key and user names do not): each sets window.__xss. */
const XSS = {
  model: '<img src=x onerror="window.__xss=1">',
  notice: '<script>window.__xss=3</script><b>bold?</b>',
  userAgent: '<iframe srcdoc="<script>parent.__xss=4</script>">',
};

describe('console journey: setup, admin, user, SDK, logs, dashboard, refusals (issue 10)', function () {
  this.timeout(180_000);
  const suite = useConsoleSuite({ firstAdminSetup: true }, async () => ({}));
  let upstream: FakeUpstream;
  let user: ConsoleBrowser;
  let code = '';
  let secret = '';
  let requestId = '';
  before(async () => {
    upstream = await startFakeUpstream({ pieces: ['hello from the journey upstream'] });
    user = await launchConsoleBrowser(suite().t.gw.url);
  });
  after(async () => {
    await user?.close();
    await upstream?.close();
  });

  const admin = (): Page => suite().page;
  const base = (): string => suite().t.gw.url;
  const sdk = (key: string) => new OpenAI({ apiKey: key, baseURL: `${base()}/v1`, maxRetries: 0 });

  it('the first admin is made from the setup link that serve prints', async () => {
    await admin().goto(suite().t.gw.setupUrl!);
    await admin().locator('#setup-name').fill('root');
    await admin().locator('#setup-password').fill(ROOT_PASSWORD);
    await admin().locator('#setup-repeat').fill(ROOT_PASSWORD);
    await admin().locator('#setup-form button[type=submit]').click();
    await admin().locator('#signout').waitFor();
    assert.ok(!admin().url().includes('setup='), 'the token is gone from the address bar');
  });

  it('the admin creates a user, a channel to the upstream (and tests it), its price and a redemption code', async () => {
    const page = admin();
    await page.goto(`${base()}/#/admin/users`);
    await page.locator('#new-user-open').click();
    await page.locator('#new-user-name').fill('ada');
    await page.locator('#new-user-password').fill(ADA_PASSWORD);
    await page.locator('#new-user-submit').click();
    await page.locator('[data-testid=users-table] tbody tr[data-user="ada"]').waitFor();

    await page.goto(`${base()}/#/admin/channels`);
    await page.locator('#channel-add-open').click();
    await page.locator('#channel-name').fill('up');
    await page.locator('#channel-type').selectOption('openai');
    await page.locator('#channel-base-url').fill(upstream.url);
    await page.locator('#channel-models-key-0').fill('team-model');
    await page.locator('#channel-models-add').click();
    await page.locator('#channel-models-key-1').fill(XSS.model);
    await page.locator('#channel-key').fill('sk-upstream-journey-1234');
    await page.locator('#channel-submit').click();
    const card = page.locator('#channels article[data-channel="up"]');
    await card.waitFor();
    await card.getByRole('button', { name: 'Test up' }).click();
    await card.getByTestId('channel-test-result').filter({ hasText: /^OK/ }).waitFor();

    await page.locator('#channels-notice').getByRole('link', { name: 'Price team-model' }).click();
    await page.locator('#price-input').fill('2');
    await page.locator('#price-output').fill('6');
    await page.locator('#price-submit').click();
    await page.locator('[data-testid=prices-table] tbody tr[data-model="team-model"]').filter({ hasText: '$2' }).waitFor();

    await page.goto(`${base()}/#/admin/codes`);
    await page.locator('#generate-value').fill('5');
    await page.locator('#generate-count').fill('1');
    await page.locator('#generate-batch').fill('journey');
    await page.locator('#generate-submit').click();
    code = (await page.locator('#new-codes-list').innerText()).trim();
    assert.match(code, /^MGC-/);
  });

  it('the user signs in, redeems the code and sees the new balance', async () => {
    await signInOn(user.page, base(), 'ada', '#/topup', ADA_PASSWORD);
    await user.page.locator('#redeem-code').fill(code);
    await user.page.locator('#redeem-button').click();
    await user.page.locator('#redeem-done').waitFor({ state: 'visible' });
    assert.equal(await user.page.locator('#redeem-balance').innerText(), '$5.00');
  });

  it('creates a key for one model with a spending limit per day, copies it, and the SDK uses it', async () => {
    const page = user.page;
    await page.goto(`${base()}/#/keys`);
    await page.locator('#new-key-name').fill(KEY);
    await page.locator('#new-key-models-section > summary').click();
    await page.locator('#new-key-models input[value="team-model"]').check();
    await page.locator('#new-key-limits > summary').click();
    await page.locator('#new-key-spend').fill('1');
    await page.locator('#new-key-period').selectOption('day');
    await page.locator('#new-key-button').click();
    await page.locator('#new-secret').waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Copy API key' }).click();
    secret = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(secret, await page.locator('#new-secret-value').innerText());
    await page.locator('#new-secret-done').click();

    // The live logs, open before the request is made: it arrives without a reload.
    await page.goto(`${base()}/#/logs`);
    await page.locator('#logs-live').click();
    await page.locator('#logs-live-status[data-state=on]').waitFor();
    const client = sdk(secret);
    const { data, request_id } = await client.chat.completions
      .create({ model: 'team-model', messages: [{ role: 'user', content: 'journey' }] }, { headers: { 'user-agent': XSS.userAgent } })
      .withResponse();
    requestId = request_id!;
    assert.equal(data.choices[0]?.message.content, 'hello from the journey upstream');
    await page.locator(`[data-testid=logs-table] tbody tr:has([data-request-id="${requestId}"])`).waitFor({ timeout: 10_000 });
    await assert.rejects(client.chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'not allowed' }] }), (e: unknown) => e instanceof OpenAI.APIError && e.status === 403);
  });

  it('the dashboard counts the request and its cost', async () => {
    const page = user.page;
    await page.goto(`${base()}/#/`);
    await page.locator('[data-testid=stat-requests]').waitFor();
    // The successful request and the refused one (a model the key may not use): both logged, one charged.
    const logs = (await suite().store.listLogs(100)).filter((l) => l.keyName === KEY);
    const spent = logs.reduce((sum, l) => sum + l.cost, 0);
    assert.ok(spent > 0);
    const today = formatMicroUsd(spent);
    await page.locator('[data-testid=stat-today]').filter({ hasText: today }).waitFor();
    // The account's requests: these two, and the console's own refusals (none yet) and changes that are logged.
    const requests = Number(/(\d+)/.exec(await page.locator('[data-testid=stat-requests]').innerText())?.[1]);
    assert.ok(requests >= logs.length, `${requests} requests counted, ${logs.length} made with the key`);
  });

  it('disabling the key in the browser makes the next SDK request fail with 403', async () => {
    const page = user.page;
    await page.goto(`${base()}/#/keys`);
    const row = page.locator(`[data-testid=keys-list] [data-key-name="${KEY}"]`);
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.locator('.badge', { hasText: 'disabled' }).waitFor();
    await assert.rejects(sdk(secret).chat.completions.create({ model: 'team-model', messages: [{ role: 'user', content: 'after' }] }),
      (e: unknown) => e instanceof OpenAI.APIError && e.status === 403 && e.code === 'key_disabled');
  });

  it("the user cannot reach the admin pages, the admin API, or the admin's logs", async () => {
    const page = user.page;
    await page.goto(`${base()}/#/admin/users`);
    await page.getByText('This page is for admins.').waitFor();
    assert.equal(await page.locator('#side a[href="#/admin/users"]').count(), 0, 'no admin menu');
    const statuses = await page.evaluate(async () => {
      const get = async (path: string) => (await fetch(path, { credentials: 'same-origin' })).status;
      return [await get('/api/console/admin/users'), await get('/api/console/admin/logs'), await get('/api/console/admin/dashboard')];
    });
    assert.deepEqual(statuses, [403, 403, 403]);
    // A request of another account (the bootstrapped one's key): its log row is not found for ada.
    await sdk(suite().t.key).chat.completions.create({ model: 'echo', messages: [{ role: 'user', content: 'not ada' }] });
    const other = await poll('the other account\'s log row', async () => (await suite().store.listLogs(100)).find((l) => l.keyName === 'default' && l.status === 200));
    const status = await page.evaluate(async (id) => (await fetch(`/api/console/account/logs/detail?id=${id}`)).status, other.id);
    assert.equal(status, 404);
    assertNoProblems(user, [REFUSED(403, 404)]);
  });

  it('sign-out ends the session', async () => {
    await signOutOn(user.page);
    const session = await user.page.evaluate(async () => (await (await fetch('/api/console/session')).json()) as { user: unknown });
    assert.equal(session.user, null);
    await user.page.goto(`${base()}/#/keys`);
    await user.page.locator('#signin-name').waitFor();
  });

  it('every page, as the admin and as a user, in English and Chinese: a screenshot each, markup shown as text, nothing run, no overflow', async () => {
    const page = admin();
    // The last user-controlled field: the notice on the sign-in page, set by the admin.
    await page.goto(`${base()}/#/admin/settings`);
    await page.locator('#settings-form textarea').fill(XSS.notice);
    await page.locator('#settings-submit').click();
    await page.getByText('Settings saved.').first().waitFor();

    const visit = async (browser: ConsoleBrowser, who: string, paths: readonly string[]): Promise<void> => {
      for (const lang of ['en', 'zh-CN'] as const) {
        for (const path of paths) {
          await browser.page.goto(`${base()}/#${path}`);
          await browser.page.locator('#main h1, #main .alert').first().waitFor();
          await setLang(browser.page, lang);
          await browser.page.waitForLoadState('networkidle');
          await assertNoOverflow(browser.page, `${who} ${path} ${lang}`);
          await shoot(browser.page, `journey-${who}${path.replace(/\//g, '-') || '-home'}-${lang}`);
          assert.equal(await browser.page.evaluate(() => (window as { __xss?: number }).__xss), undefined, `${path}: nothing planted ran`);
        }
      }
    };
    await visit(suite().browser, 'admin', [...USER_NAV, ...ADMIN_NAV].map((n) => n.path));
    await signInOn(user.page, base(), 'ada', '#/', ADA_PASSWORD);
    await visit(user, 'user', USER_NAV.map((n) => n.path));
    await signOutOn(user.page);
    await visit(user, 'public', ['/signin', '/key']);

    // The planted markup is on the pages as text: the key's name, the model's, the notice.
    await page.goto(`${base()}/#/admin/models`);
    await page.getByText(XSS.model, { exact: true }).first().waitFor();
    await user.page.goto(`${base()}/#/signin`);
    await user.page.getByText(XSS.notice).first().waitFor();
    assert.equal(await user.page.locator('#main b, #main script').count(), 0, 'no element made from the notice');
    assertNoProblems(suite().browser, [REFUSED(401, 403, 404)]);
  });
});
