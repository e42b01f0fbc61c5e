// The model catalogue (#/models) in a real browser (Debian's chromium, issue 10; contract 1.3, 1.4): every
// model open to the account with its exact name and a copy button, kind, context length, maximum output, prices per million
// tokens or per image, tools support and image input; the search narrows the list as one types and says how many match;
// a name with markup in it is shown as text; a 200-character name wraps instead of widening the page, at
// 1320 px and on a phone, in English and Chinese. No page error and nothing blocked by the CSP.
import assert from 'node:assert/strict';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { chatModel } from './helpers.ts';
import { assertNoProblems, setLang, shootBothLanguages, signIn, useUserSuite } from './consoleUserSupport.ts';

const LONG_MODEL = `model-${'n'.repeat(190)}-end`;
const MARKUP_MODEL = '<img src=x onerror="window.__xss=1">';

describe('console model catalogue in a browser', function () {
  this.timeout(120_000);
  const suite = useUserSuite();

  before(async () => {
    const admin = suite().store;
    await addChannelPricedFree(admin, newChannel({ name: 'other', baseUrl: 'http://127.0.0.1:9', apiKey: 'upstream-secret',
      models: { 'gpt-browser': 'gpt-browser', [LONG_MODEL]: LONG_MODEL, [MARKUP_MODEL]: 'markup' } }));
    await admin.setModel(chatModel('gpt-browser', 150_000, 600_000, { contextLength: 128_000, maxOutputTokens: 16_384, toolCalling: true, imageInput: true, cachedInputPrice: 75_000 }));
  });

  const page = () => suite().page;
  const rows = () => page().locator('[data-testid=models-table] tbody tr');
  const row = (name: string) => page().locator(`[data-testid=models-table] tr[data-model="${name.replace(/"/g, '\\"')}"]`);

  it('lists every model open to the account: exact name with a copy button, kind, context, maximum output, prices, tools, image input', async () => {
    await signIn(suite(), 'ada', '#/models');
    await setLang(page(), 'en');
    await row('gpt-browser').waitFor();
    const names = await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-model')));
    const catalogue = (await suite().store.listModels()).map((m) => m.name);
    assert.deepEqual([...names].sort(), [...catalogue].sort(), 'every priced model, nothing else');
    assert.match(await row('gpt-browser').innerText(), /gpt-browser[\s\S]*chat[\s\S]*128,000[\s\S]*16,384[\s\S]*\$0\.15[\s\S]*cached \$0\.075[\s\S]*\$0\.60[\s\S]*yes/);
    assert.match(await row('echo-image').innerText(), /image[\s\S]*\$[\d.]+ \/ image/);
    assert.match(await page().locator('#models-count').innerText(), new RegExp(`^${catalogue.length} models open to your account\\.$`));

    await page().getByRole('button', { name: 'Copy model name gpt-browser' }).click();
    await page().getByRole('button', { name: 'Copy model name gpt-browser' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page().evaluate(() => navigator.clipboard.readText()), 'gpt-browser', 'the exact name is copied');
  });

  it('a free model says "free", never $0.00; a model without output tokens shows no output price', async () => {
    const cells = async (name: string) => (await row(name).locator('td').allInnerTexts()).map((c) => c.trim());
    // Name, kind, context, maximum output, input, output, tools, image input.
    assert.deepEqual((await cells(LONG_MODEL)).slice(3, 6), ['\u2014', 'free', 'free'], 'no maximum output set');
    assert.deepEqual((await cells('gpt-browser')).slice(6, 8), ['yes', 'yes'], 'tools and image input said');
    assert.deepEqual((await cells(LONG_MODEL)).slice(6, 8), ['\u2014', '\u2014'], 'neither said');
    assert.deepEqual((await cells('echo-embedding')).slice(4, 6), ['$0.02', '\u2014']);
    assert.equal((await cells('echo-image'))[5], '\u2014');
    await setLang(page(), 'zh-CN');
    await page().locator('#models-count', { hasText: '你的账户可用' }).waitFor();
    assert.deepEqual((await cells(LONG_MODEL)).slice(4, 6), ['免费', '免费']);
    await setLang(page(), 'en');
  });

  it('a model name with markup in it is text, never HTML', async () => {
    assert.equal(await row(MARKUP_MODEL).locator('[data-model-name]').innerText(), MARKUP_MODEL);
    assert.equal(await page().locator('[data-testid=models-table] img').count(), 0);
    assert.equal(await page().evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined);
  });

  it('the search narrows the list as one types and says how many match; clearing it shows them all again', async () => {
    const all = await rows().count();
    await page().locator('#models-q').pressSequentially('GPT-b');
    await row('echo').waitFor({ state: 'detached' });
    assert.deepEqual(await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-model'))), ['gpt-browser'], 'in any case');
    await page().locator('#models-count', { hasText: '1 model matches "GPT-b".' }).waitFor();
    await page().locator('#models-q').fill('no-such-thing');
    await page().getByText('No model name contains "no-such-thing".').waitFor();
    await page().locator('#models-q').fill('');
    await row('echo').waitFor();
    assert.equal(await rows().count(), all, 'clearing the search shows them all again');
  });

  it('long names wrap: no overflow at 1320 px or on a phone, in English and in Chinese', async () => {
    await shootBothLanguages(page(), 'models', () => row(LONG_MODEL).waitFor());
    await setLang(page(), 'zh-CN');
    await page().locator('#models-count', { hasText: '你的账户可用' }).waitFor();
    assert.match(await row('gpt-browser').innerText(), /对话[\s\S]*支持/);
    await setLang(page(), 'en');
    assertNoProblems(suite());
  });
});
