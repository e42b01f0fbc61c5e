// The admin pages' forms without a browser: amounts checked exactly as the gateway checks them (text and
// BigInt, never a float), a channel's settings checked and turned into an add or an update that names only
// what changed (the key only when typed), a price's body holding only the fields its kind takes.
import assert from 'node:assert/strict';
import { usdProblem, cleanUsd, microOf } from '../../../src/console/admin/usd.ts';
import { addBody, draftOf, EMPTY_DRAFT, problemsOf, updateBody, type ChannelView } from '../../../src/console/admin/channelDraft.ts';
import { emptyPrice, priceBody, priceProblems, priceText, type AdminModel } from '../../../src/console/admin/priceDraft.ts';
import { PRICES_WORDS } from '../../../src/console/admin/pricesWords.ts';
import { translate } from '../../../src/console/i18n/lang.ts';
import { detailsText } from '../../../src/console/admin/auditWords.ts';

describe('console admin forms', () => {
  it('checks an amount as the gateway does: decimal USD, at most 6 decimals, more than $0, within the ceiling', () => {
    for (const ok of ['12.5', '$12.50', ' 0.000001 ', '.5', '1000000000', '3.', '0.1000000']) assert.equal(usdProblem(ok), null, ok);
    assert.equal(usdProblem('12.1234567'), 'usdDecimals');
    for (const bad of ['', 'abc', '1,000', '-1', '1e3', '1.2.3', '0x10', '١٢']) assert.equal(usdProblem(bad), 'usdFormat', bad);
    assert.equal(usdProblem('0'), 'usdZero');
    assert.equal(usdProblem('0.0000001'), 'usdDecimals');
    assert.equal(usdProblem('0', { zero: true }), null);
    assert.equal(usdProblem('1000000000.000001'), 'usdTooBig');
    assert.equal(usdProblem('1000001', { maxUsd: 1_000_000 }), 'usdTooBig');
    assert.equal(usdProblem('99999999999999999999.999999'), 'usdTooBig', 'no float rounding hides it');
    assert.equal(cleanUsd(' $ 12.50 '), '12.50');
    assert.equal(microOf('0.50'), 500_000n);
    assert.equal(microOf('$.5'), microOf('0.500000'), 'the same amount however written');
    assert.equal(microOf('0.1234567'), null);
    assert.equal(microOf('12345678901234567890.000001'), 12345678901234567890000001n, 'exact beyond a float');
  });

  const channel: ChannelView = {
    name: 'up', type: 'openai', base_url: 'https://api.example.com/v1', models: { a: 'a', big: 'upstream-big' }, priority: 0, weight: 1, timeout_ms: 120_000,
    proxy: null, responses_api: null, status: 'enabled', created_at: '2026-01-01T00:00:00Z', api_key: { set: true, last4: '6789' },
    health: { served: 0, failed: 0, last_failure: null, failures_in_a_row: 0, cooling_down_until: null },
  };

  it("checks a channel's settings field by field before sending", () => {
    assert.deepEqual(problemsOf({ ...EMPTY_DRAFT, name: 'x' }), { baseUrl: ['baseUrlNeeded'], models: ['modelsNeeded'] });
    assert.deepEqual(problemsOf({ ...EMPTY_DRAFT, type: 'echo', models: [['echo', '']] }), {}, 'an echo channel needs no base URL');
    const draft = { ...draftOf(channel), proxy: 'ftp://x', priority: '-1', weight: '0', timeout: '1.5', models: [['a', ''], [' a', ''], ['', '']] as const };
    assert.deepEqual(problemsOf(draft), {
      proxy: ['urlBad'], priority: ['numberBad', { min: 0, max: 1_000_000_000 }], weight: ['numberBad', { min: 1, max: 1_000_000_000 }],
      timeout: ['numberBad', { min: 1, max: 1_000_000_000 }], models: ['modelTwice', { name: 'a' }],
    }, 'names are trimmed as they are sent: " a" is "a" again');
    assert.deepEqual(problemsOf({ ...draftOf(channel), models: [['a\u0007', '']] }), { models: ['modelBad'] });
    assert.deepEqual(problemsOf({ ...draftOf(channel), models: [['a', 'b'.repeat(257)]] }), { models: ['modelBad'] });
    assert.deepEqual(problemsOf({ ...draftOf(channel), models: [['a', ''], ['a', 'b']] }), { models: ['modelTwice', { name: 'a' }] });
    assert.deepEqual(problemsOf({ ...draftOf(channel), models: [['<b>x</b>', ''], ['y'.repeat(256), '']] }), {}, 'any printable name of up to 256 characters');
  });

  it('makes the add body from the form: models with their upstream names, defaults for what was left empty, the key only when typed', () => {
    assert.deepEqual(addBody({ ...EMPTY_DRAFT, name: ' up ', baseUrl: 'https://x/v1', models: [['a', ''], ['big', 'upstream-big'], ['', '']], apiKey: ' sk-1 ' }), {
      name: 'up', type: 'openai', base_url: 'https://x/v1', models: { a: 'a', big: 'upstream-big' }, priority: 0, weight: 1, timeout_ms: 120_000,
      proxy: null, responses_api: null, api_key: 'sk-1',
    });
    assert.equal(addBody({ ...EMPTY_DRAFT, type: 'echo', baseUrl: 'https://x', models: [['e', '']] }).base_url, null, 'an echo channel has none');
    assert.equal('api_key' in addBody({ ...EMPTY_DRAFT, models: [['e', '']] }), false);
  });

  it('makes an update naming only what changed; the key kept unless one is typed or it is removed', () => {
    assert.equal(updateBody(channel, draftOf(channel)), null, 'nothing changed');
    assert.deepEqual(updateBody(channel, { ...draftOf(channel), baseUrl: 'https://b/v1' }), { name: 'up', base_url: 'https://b/v1' });
    assert.deepEqual(updateBody(channel, { ...draftOf(channel), apiKey: 'sk-new' }), { name: 'up', api_key: 'sk-new' });
    assert.deepEqual(updateBody(channel, { ...draftOf(channel), removeKey: true }), { name: 'up', api_key: null });
    assert.deepEqual(updateBody(channel, { ...draftOf(channel), models: [['a', ''], ['big', '']], responses: 'yes' }), { name: 'up', models: { a: 'a', big: 'big' }, responses_api: true });
    assert.deepEqual(updateBody({ ...channel, responses_api: true }, { ...draftOf({ ...channel, responses_api: true }), type: 'anthropic' }), { name: 'up', type: 'anthropic', responses_api: null },
      'the Responses API is for openai channels only');
  });

  it("makes a price's body of the fields its kind takes, none when free", () => {
    const chat = { ...emptyPrice('m'), input: '0.5', output: '$1.50', cached: '', perImage: '9', context: '32000', tools: 'yes' as const };
    assert.deepEqual(priceProblems(chat), {});
    assert.deepEqual(priceBody(chat), { model: 'm', kind: 'chat', input_usd: '0.5', output_usd: '1.50', context_length: 32000, tool_calling: true, image_input: null });
    assert.deepEqual(priceBody({ ...chat, kind: 'embedding' }), { model: 'm', kind: 'embedding', input_usd: '0.5', context_length: 32000 }, 'tools and images are not shown for embeddings: kept');
    assert.deepEqual(priceBody({ ...chat, free: true }), { model: 'm', kind: 'chat', free: true, context_length: 32000, tool_calling: true, image_input: null });
    // The maximum output: sent when typed, removed (null) when a model that had one is emptied, never for kinds that write no tokens.
    assert.equal(priceBody({ ...chat, maxOutput: '16384' }).max_output_tokens, 16384);
    assert.equal(priceBody({ ...chat, maxOutput: ' ', hadMaxOutput: true }).max_output_tokens, null);
    assert.equal('max_output_tokens' in priceBody(chat), false);
    assert.equal('max_output_tokens' in priceBody({ ...chat, kind: 'embedding', maxOutput: '16384', hadMaxOutput: true }), false);
    assert.deepEqual(priceProblems({ ...chat, maxOutput: '0' }), { maxOutput: 'numberBad' });
    // Image input as tool calling: sent when chosen (yes or no), absent (kept) when not.
    assert.equal(priceBody({ ...chat, images: 'yes' }).image_input, true);
    assert.equal(priceBody({ ...chat, images: 'no' }).image_input, false);
    assert.equal(priceBody(chat).image_input, null, 'not said: sent as null, which makes it not said on the gateway too');
    assert.equal(priceBody({ ...chat, tools: '' }).tool_calling, null);
    const image = { ...emptyPrice('p'), kind: 'image' as const, perImage: '0.04', variants: [['1024x1792', '0.08'], ['HD', '0.12'], ['', '']] as const };
    assert.deepEqual(priceBody(image), { model: 'p', kind: 'image', per_image_usd: '0.04', per_image_variants_usd: { '1024x1792': '0.08', HD: '0.12' } });
    assert.deepEqual(priceProblems({ ...emptyPrice('m'), input: '0.1234567', context: '0' }), { input: 'usdDecimals', output: 'needed', context: 'numberBad' });
    assert.deepEqual(priceProblems({ ...image, variants: [['hd', '']] }), { variants: 'needed' });
    assert.deepEqual(priceProblems({ ...emptyPrice('a\u0001b'), free: true }), { model: 'modelBad' });
    assert.deepEqual(priceProblems({ ...emptyPrice(''), free: true }), { model: 'modelBad' });
  });

  it('says a price in words, from the exact amounts', () => {
    const t = translate(PRICES_WORDS, 'en');
    const money = (usd: string, micro_usd: number) => ({ usd, micro_usd });
    const base: AdminModel = {
      name: 'm', kind: 'chat', priced: true, free: false, input_per_million: money('0.50', 500_000), output_per_million: money('1.50', 1_500_000),
      cached_input_per_million: null, cache_write_per_million: null, per_image: null, per_image_variants: null, context_length: null, tool_calling: null, image_input: null,
      default_max_tokens: null, max_output_tokens: null, channels: [], served: false,
    };
    assert.equal(priceText(base, t), '$0.50 in / $1.50 out per 1M tokens');
    assert.equal(priceText({ ...base, cached_input_per_million: money('0.000001', 1) }, t), '$0.50 in / $1.50 out / $0.000001 cached per 1M tokens');
    assert.equal(priceText({ ...base, kind: 'image', per_image: money('0.04', 40_000), per_image_variants: { hd: money('0.12', 120_000) } }, t), '$0.04 / image, $0.12 for hd');
    assert.equal(priceText({ ...base, free: true }, t), 'free');
    assert.equal(priceText({ ...base, priced: false }, t), 'no price');
    assert.equal(priceText(base, translate(PRICES_WORDS, 'zh-CN')), '每百万 token 输入 $0.50 / 输出 $1.50');
  });

  it("writes an audit row's details as text", () => {
    assert.equal(detailsText(null), '—');
    // An amount said twice (micro-USD and dollars) once, in dollars.
    assert.equal(detailsText({ amount_micro_usd: 12_500_000, amount: '$12.50', models: { a: 'b' }, admin: false }), 'amount: $12.50, models: {"a":"b"}, admin: false');
    // A price row: micro-USD prices as dollars, what is not set left out.
    assert.equal(
      detailsText({ kind: 'chat', inputPrice: 1_234_500_000, outputPrice: 600_000, imagePrice: null, cachedInputPrice: null, imagePrices: { hd: 120_000 }, free: false }),
      'kind: chat, inputPrice: $1,234.50, outputPrice: $0.60, imagePrices: hd $0.12, free: false',
    );
    assert.equal(detailsText({ balance_micro_usd: 5 }), 'balance_micro_usd: $0.000005', 'alone, a micro-USD amount is written in dollars');
  });
});
