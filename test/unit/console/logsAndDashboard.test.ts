// The console's pure parts behind the logs and the dashboard: the filters read from and written to the
// address, the time bounds they ask for, the dashboard read from its route's answer (money exact), and
// the error words in both languages.
import assert from 'node:assert/strict';
import { ERROR_CODES, LOGGED_ONLY_CODES } from '../../../src/contract/errors.ts';
import { modelOf, moneyOf } from '../../../src/console/dashboard/model.ts';
import { familyWords, firstStepFor, reasonOf, troubleshootingSteps } from '../../../src/console/i18n/errorWords.ts';
import { addressOf, boundsOf, filtersOf, hasFilters, NO_FILTERS } from '../../../src/console/logs/filters.ts';

describe('console logs filters', () => {
  it('reads the filters from the address, dropping what is not a filter value', () => {
    const f = filtersOf(new URLSearchParams('key=12&model=%20gpt-4o%20&status=error&range=7d&request_id=abc&since=2026-01-01T00:00:00Z&live=1'));
    assert.deepEqual(f, { ...NO_FILTERS, key: '12', model: 'gpt-4o', status: 'error', range: '7d', since: '2026-01-01T00:00:00Z', request_id: 'abc' });
    assert.deepEqual(filtersOf(new URLSearchParams('key=x&status=maybe&range=1y&since=yesterday')), NO_FILTERS);
    assert.equal(hasFilters(NO_FILTERS), false);
    assert.equal(hasFilters(f), true);
  });

  it('writes them back with the page and live mode, the custom times only with a custom range', () => {
    const f = { ...NO_FILTERS, status: 'ok' as const, range: '24h' as const, since: '2026-01-01T00:00:00.000Z' };
    assert.deepEqual(Object.entries(addressOf(f, { before: 40, live: true })).filter(([, v]) => v !== undefined), [['status', 'ok'], ['range', '24h'], ['before', '40'], ['live', '1']]);
    const custom = { ...f, range: 'custom' as const, until: '2026-01-02T00:00:00.000Z' };
    assert.equal(addressOf(custom).since, custom.since);
    assert.equal(addressOf(custom).until, custom.until);
  });

  it('asks for a preset range counted back from now, a custom one as given', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    assert.deepEqual(boundsOf({ ...NO_FILTERS, range: '1h' }, now), { since: '2026-03-10T11:00:00.000Z' });
    assert.deepEqual(boundsOf({ ...NO_FILTERS, range: '7d' }, now), { since: '2026-03-03T12:00:00.000Z' });
    assert.deepEqual(boundsOf({ ...NO_FILTERS, range: 'custom', since: '2026-03-01T00:00:00Z' }, now), { since: '2026-03-01T00:00:00.000Z' });
    assert.deepEqual(boundsOf(NO_FILTERS, now), {});
  });
});

describe('console dashboard model', () => {
  const money = (micro: number) => moneyOf(micro);
  const usage = (requests: number, errors: number, cost: number) => ({ requests, errors, cost: money(cost), prompt_tokens: requests * 10, completion_tokens: requests * 5 });
  const answer = {
    object: 'console.dashboard' as const, account: 'ada', range: '24h' as const, bucket_seconds: 3600, from: '2026-03-09T13:00:00.000Z', to: '2026-03-10T13:00:00.000Z',
    balance: { remaining: money(4_000_000), used: money(1_000_000) }, spent: { today: money(300), month: money(900) },
    totals: usage(5, 1, 300), series: [{ start: '2026-03-10T12:00:00.000Z', ...usage(5, 1, 300) }],
    by_model: [{ model: 'gpt', ...usage(3, 0, 250) }, { model: null, ...usage(1, 1, 0) }], other_models: { models: 2, ...usage(1, 0, 50) },
    errors: [{ code: 'model_not_found', status: 404, count: 1, message: 'model not found' }],
    latency: { requests: 4, p50_ms: 120, p95_ms: 900 },
  };

  it('writes money exactly, from whole micro-USD', () => {
    assert.deepEqual(moneyOf(0), { micro_usd: 0, usd: '0.00' });
    assert.deepEqual(moneyOf(12_345_678), { micro_usd: 12_345_678, usd: '12.345678' });
    assert.deepEqual(moneyOf(Number.MAX_SAFE_INTEGER), { micro_usd: Number.MAX_SAFE_INTEGER, usd: '9007199254.740991' });
  });

  it("reads a user's dashboard: money, totals, buckets, models with the others last, error reasons", () => {
    const d = modelOf(answer);
    assert.deepEqual([d.balance, d.spentToday, d.spentMonth, d.cost], [money(4_000_000), money(300), money(900), money(300)]);
    assert.deepEqual([d.requests, d.errors, d.bucketSeconds], [5, 1, 3600]);
    assert.deepEqual(d.latency, { requests: 4, p50: 120, p95: 900 });
    assert.deepEqual(d.buckets, [{ start: '2026-03-10T12:00:00.000Z', requests: 5, errors: 1, cost: money(300) }]);
    assert.deepEqual(d.byModel.map((m) => [m.model, m.others, m.cost.micro_usd]), [['gpt', undefined, 250], [null, undefined, 0], [null, 2, 50]]);
    assert.deepEqual(d.topErrors, [{ code: 'model_not_found', status: 404, count: 1 }]);
    assert.equal(d.topAccounts, undefined);
    assert.equal(modelOf({ ...answer, other_models: null }).byModel.length, 2);
  });

  it("reads the gateway's: the top accounts and the counts besides", () => {
    const d = modelOf({ ...answer, object: 'console.gateway_dashboard', account: null, top_accounts: [{ account: 'ada', ...usage(5, 1, 300) }], counts: { users: 3, accounts: 2, keys: 4, channels: 1 } });
    assert.deepEqual(d.topAccounts, [{ account: 'ada', requests: 5, errors: 1, cost: money(300) }]);
    assert.deepEqual(d.counts, { users: 3, accounts: 2, keys: 4, channels: 1 });
  });
});

describe('console error words', () => {
  it("gives every code of the contract's table words in both languages, the English the contract's own", () => {
    for (const [code, spec] of Object.entries(ERROR_CODES)) {
      assert.equal(reasonOf(code, spec.status, 'en'), spec.message);
      const zh = reasonOf(code, spec.status, 'zh-CN');
      assert.ok(zh && zh !== spec.message && /[\u4e00-\u9fff]/.test(zh), `${code} in Chinese`);
    }
  });

  it("explains the codes only logs carry (the contract's words), and falls back to the status family for any other", () => {
    for (const [code, words] of Object.entries(LOGGED_ONLY_CODES)) {
      assert.equal(reasonOf(code, 200, 'en'), words);
      assert.match(reasonOf(code, 200, 'zh-CN'), /[\u4e00-\u9fff]/);
    }
    assert.match(reasonOf('upstream_ignored_max_tokens', 200, 'zh-CN'), /max_tokens/);
    assert.equal(reasonOf('something_new', 503, 'en'), familyWords(503, 'en').meaning);
    assert.equal(reasonOf(null, 429, 'zh-CN'), familyWords(429, 'zh-CN').meaning);
    assert.equal(familyWords(499, 'en').title, 'Request cancelled');
  });

  it('has the 7.3 order in both languages, and where to start for an error', () => {
    assert.deepEqual(troubleshootingSteps('en').map((s) => s.id), ['address', 'key', 'balance', 'model', 'permission', 'logs', 'restart']);
    assert.deepEqual(troubleshootingSteps('zh-CN').map((s) => s.id), troubleshootingSteps('en').map((s) => s.id));
    assert.equal(firstStepFor(404, 'model_not_found'), 'model');
    assert.equal(firstStepFor(403, 'insufficient_balance'), 'balance');
    assert.equal(firstStepFor(401, null), 'key');
  });
});
