// The console's pure parts behind the keys page and the key console: a key's limits between the form and
// the API (a new key leaves empty fields to the gateway's defaults, an edit sends every one, an emptied
// field meaning "no limit"), exact money text, lists typed with commas or spaces, the expiry day, the VS
// Code settings beside a new key (never the key), and the contract's error words in both languages.
import assert from 'node:assert/strict';
import { STATUS_FAMILIES, TROUBLESHOOTING_STEPS } from '../../../src/contract/errors.ts';
import { familyWords, troubleshootingSteps } from '../../../src/console/i18n/errorWords.ts';
import { EMPTY_LIMITS, limitsBody, limitsFormOf, splitList, usdText } from '../../../src/console/keys/limits.ts';
import { endOfDay, expiryOf } from '../../../src/console/day.ts';
import type { KeyView } from '../../../src/console/keys/types.ts';
import { vscodeSettings } from '../../../src/console/keys/vscodeSettings.ts';

const money = (usd: string, micro: number) => ({ usd, micro_usd: micro });

const KEY: KeyView = {
  id: 3, name: 'laptop', prefix: 'sk-AbCd…', status: 'enabled', created_at: '2026-11-01T00:00:00.000Z', last_used_at: null, expires_at: null,
  models: null, rpm: 1200, concurrency: 64, tpm: 0, rpd: 500, spend_limit: money('2.500000', 2_500_000), spend_period: 'day',
  spent: money('0.000000', 0), resets_at: '2026-11-26T00:00:00.000Z', allow_ips: ['127.0.0.2', '10.0.0.0/8'], disabled_user: null,
};

describe('console key limits', () => {
  it('a new key sends only the fields filled in (the gateway\'s defaults for the others) and always the period', () => {
    assert.deepEqual(limitsBody(EMPTY_LIMITS, false), { spend_period: 'total' });
    assert.deepEqual(limitsBody({ ...EMPTY_LIMITS, rpm: '60', tpm: ' 1000 ', spend: '$2.50', period: 'month', ips: '127.0.0.1,\n 10.0.0.0/8  ::1' }, false), {
      rpm: 60, tpm: 1000, spend_limit_usd: '2.50', spend_period: 'month', allow_ips: ['127.0.0.1', '10.0.0.0/8', '::1'],
    });
    // As people write an amount, thousands separated.
    assert.equal(limitsBody({ ...EMPTY_LIMITS, spend: ' $1,000.50 ' }, false).spend_limit_usd, '1000.50');
  });

  it('an edit sends every limit: an emptied one means none (0 tokens or requests, null spending limit and IP list)', () => {
    assert.deepEqual(limitsBody({ ...limitsFormOf(KEY), rpd: '', spend: ' ', ips: '' }, true), {
      rpm: 1200, concurrency: 64, tpm: 0, rpd: 0, spend_limit_usd: null, spend_period: 'day', allow_ips: null,
    });
  });

  it('the editor starts from the key as it is: no limit as an empty field, money as its exact decimal', () => {
    assert.deepEqual(limitsFormOf(KEY), { rpm: '1200', concurrency: '64', tpm: '', rpd: '500', spend: '2.50', period: 'day', ips: '127.0.0.2, 10.0.0.0/8' });
    assert.deepEqual(limitsFormOf({ ...KEY, spend_limit: null, allow_ips: null, rpd: 0 }), { rpm: '1200', concurrency: '64', tpm: '', rpd: '', spend: '', period: 'day', ips: '' });
  });

  it('0 is no limit for every count: a key without a rate or concurrency limit edits as empty fields and saves as 0 again', () => {
    const unlimited = { ...KEY, rpm: 0, concurrency: 0 };
    assert.deepEqual([limitsFormOf(unlimited).rpm, limitsFormOf(unlimited).concurrency], ['', '']);
    assert.deepEqual(limitsBody({ ...limitsFormOf(unlimited), spend: '3' }, true), {
      rpm: 0, concurrency: 0, tpm: 0, rpd: 500, spend_limit_usd: '3', spend_period: 'day', allow_ips: ['127.0.0.2', '10.0.0.0/8'],
    });
    assert.deepEqual(limitsBody({ ...EMPTY_LIMITS, rpm: '0', concurrency: '0' }, false), { rpm: 0, concurrency: 0, spend_period: 'total' }, 'a new key takes a typed 0');
  });

  it('a number that is not one is sent (JSON null) for the gateway to refuse, rather than silently dropped', () => {
    assert.ok(Number.isNaN(limitsBody({ ...EMPTY_LIMITS, rpm: 'sixty' }, false).rpm));
  });

  it('money text is exact: trailing zeros dropped down to cents, never through a float', () => {
    assert.equal(usdText('2.500000'), '2.50');
    assert.equal(usdText('0.000100'), '0.0001');
    assert.equal(usdText('5.000000'), '5.00');
    assert.equal(usdText('123456789.123456'), '123456789.123456');
    assert.deepEqual(splitList(' a, b\tc\n\n d ,'), ['a', 'b', 'c', 'd']);
  });

  it('an expiry day becomes the end of that day in the browser\'s time zone; anything else is none', () => {
    const end = new Date(endOfDay('2030-12-31')!);
    assert.deepEqual([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()], [2030, 11, 31, 23, 59]);
    assert.equal(endOfDay(''), null);
    assert.equal(endOfDay('31/12/2030'), null);
    assert.deepEqual(expiryOf(''), {}, 'no day chosen: no expiry in the body');
    assert.deepEqual(expiryOf('2030-12-31'), { expires_at: endOfDay('2030-12-31') });
  });

  it('the VS Code settings name the extension\'s real settings and never hold a key', () => {
    const text = vscodeSettings('https://gw.example/v1', 'gpt-4o-mini');
    assert.deepEqual(JSON.parse(text), { 'modelGateway.baseUrl': 'https://gw.example/v1', 'modelGateway.model': 'gpt-4o-mini' });
    assert.deepEqual(JSON.parse(vscodeSettings('https://gw.example/v1', 'a "quoted" name')), { 'modelGateway.baseUrl': 'https://gw.example/v1', 'modelGateway.model': 'a "quoted" name' });
  });
});

describe("console key console's error words", () => {
  it("English is the contract's own table; Chinese has every family and step", () => {
    assert.equal(familyWords(401, 'en'), STATUS_FAMILIES.authentication);
    assert.equal(familyWords(0, 'en'), STATUS_FAMILIES.connection);
    assert.match(familyWords(401, 'zh-CN').title, /401/);
    for (const status of [400, 401, 403, 404, 413, 429, 499, 500, 503, 0]) {
      for (const words of Object.values(familyWords(status, 'zh-CN'))) assert.match(words, /[\u4e00-\u9fff]/, `${status}: ${words}`);
    }
    assert.deepEqual(troubleshootingSteps('en').map((s) => s.text), TROUBLESHOOTING_STEPS.map((s) => s.text));
    assert.deepEqual(troubleshootingSteps('zh-CN').map((s) => s.id), TROUBLESHOOTING_STEPS.map((s) => s.id));
  });
});
