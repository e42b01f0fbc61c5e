// A key with no rate or concurrency limit (rpm 0, concurrency 0, as `model-gateway key create --rpm 0
// --concurrency 0` makes it) on the API keys page in a real browser (Debian's chromium): its card says
// "unlimited" in both languages, never "0/min, 0 at once"; its limits editor opens with those fields empty
// ("no limit") and saves a change of the spending limit alone, the key staying unlimited; a 0 typed in the
// create form makes an unlimited key too.
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { key as keyCommand } from '../../../src/gateway/cliKeys.ts';
import { assertNoProblems, setLang, signIn, useUserSuite } from './consoleUserSupport.ts';

describe('console: a key without rate or concurrency limits in a browser', function () {
  this.timeout(120_000);
  const suite = useUserSuite();
  const page = () => suite().page;
  const row = (name: string): Locator => page().locator(`[data-testid=keys-list] [data-key-name="${name}"]`);

  before(async () => {
    const code = await keyCommand(suite().store, 'create', [], { account: 'ada', name: 'open', rpm: '0', concurrency: '0' }, { out: () => undefined });
    assert.equal(code, 0);
  });

  it('the card says unlimited, in English and in Chinese', async () => {
    await signIn(suite(), 'ada', '#/keys');
    await setLang(page(), 'en');
    assert.equal(await row('open').locator('[data-limits]').innerText(), 'unlimited requests/min, unlimited at once');
    await setLang(page(), 'zh-CN');
    assert.equal(await row('open').locator('[data-limits]').innerText(), '每分钟请求数不限，并发不限');
    await setLang(page(), 'en');
  });

  it('the editor shows no limit as empty fields and saves a new spending limit alone', async () => {
    await row('open').getByRole('button', { name: 'Limits' }).click();
    const editor = page().locator('#key-limits-form[data-limits-of="open"]');
    await editor.waitFor();
    assert.equal(await editor.locator('#edit-key-rpm').inputValue(), '');
    assert.equal(await editor.locator('#edit-key-concurrency').inputValue(), '');
    await editor.locator('#edit-key-spend').fill('2');
    await editor.locator('#key-limits-save').click();
    await editor.waitFor({ state: 'detached' });
    // The list is drawn again from the saved key after the editor closes: wait for it (a CI run read it before).
    await row('open').locator('[data-spending]', { hasText: /of \$2\.00/ }).waitFor({ timeout: 10_000 });
    assert.equal(await row('open').locator('[data-limits]').innerText(), 'unlimited requests/min, unlimited at once');
    const stored = (await suite().store.listKeys()).find((k) => k.name === 'open')!;
    assert.deepEqual([stored.rpm, stored.concurrency, stored.spendLimit], [0, 0, 2_000_000]);
  });

  it('a 0 typed in the create form makes an unlimited key', async () => {
    await page().locator('#new-key-name').fill('typed-zero');
    await page().locator('#new-key-limits > summary').click();
    await page().locator('#new-key-rpm').fill('0');
    await page().locator('#new-key-concurrency').fill('0');
    await page().locator('#new-key-form button[type=submit]').click();
    await row('typed-zero').waitFor();
    assert.equal(await row('typed-zero').locator('[data-limits]').innerText(), 'unlimited requests/min, unlimited at once');
    assertNoProblems(suite());
  });
});
