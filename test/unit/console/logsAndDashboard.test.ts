// The console's pure parts behind the logs and the dashboard: the filters read from and written to the
// address, the time bounds they ask for, the dashboard counted from log rows (buckets, money exact, UTC
// days and months), and the error words in both languages.
import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../../src/contract/errors.ts';
import { countRows, rangeStart } from '../../../src/console/dashboard/fromLogs.ts';
import { moneyOf } from '../../../src/console/dashboard/model.ts';
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

describe('console dashboard counted from log rows', () => {
  const now = Date.parse('2026-03-10T12:30:00Z');
  const row = (time: string, cost: number, status = 200, model: string | null = 'm', error_code: string | null = null) => ({ time, cost: { micro_usd: cost }, status, model, error_code });

  it('writes money exactly, from whole micro-USD', () => {
    assert.deepEqual(moneyOf(0), { micro_usd: 0, usd: '0.000000' });
    assert.deepEqual(moneyOf(12_345_678), { micro_usd: 12_345_678, usd: '12.345678' });
    assert.deepEqual(moneyOf(Number.MAX_SAFE_INTEGER), { micro_usd: Number.MAX_SAFE_INTEGER, usd: '9007199254.740991' });
  });

  it('counts hours for 24 hours, the last bucket holding now; today and this month in UTC', () => {
    assert.equal(new Date(rangeStart('24h', now)).toISOString(), '2026-03-09T13:00:00.000Z');
    const d = countRows([
      row('2026-03-10T12:10:00Z', 100), row('2026-03-10T12:20:00Z', 0, 404, 'nope', 'model_not_found'), row('2026-03-10T00:05:00Z', 7, 200, 'other'),
      row('2026-03-09T13:00:00Z', 3), row('2026-03-09T12:59:59Z', 1000), row('2026-03-01T00:00:00Z', 50), row('2026-02-28T23:59:59Z', 9999),
    ], '24h', now, null);
    assert.equal(d.buckets.length, 24);
    assert.equal(d.bucketSeconds, 3600);
    assert.deepEqual(d.buckets.at(-1), { start: '2026-03-10T12:00:00.000Z', requests: 2, errors: 1, cost: moneyOf(100) });
    assert.deepEqual(d.buckets[0], { start: '2026-03-09T13:00:00.000Z', requests: 1, errors: 0, cost: moneyOf(3) });
    assert.equal(d.requests, 4);
    assert.equal(d.errors, 1);
    assert.equal(d.cost.usd, '0.000110');
    assert.equal(d.spentToday.micro_usd, 107);
    assert.equal(d.spentMonth.micro_usd, 100 + 7 + 3 + 1000 + 50);
    assert.deepEqual(d.topErrors, [{ code: 'model_not_found', status: 404, count: 1 }]);
    assert.deepEqual(new Map(d.byModel.map((m) => [m.model, m.cost.micro_usd])), new Map([['m', 103], ['nope', 0], ['other', 7]]));
  });

  it('counts UTC days for 7 and 30 days', () => {
    const week = countRows([row('2026-03-04T00:00:00Z', 5), row('2026-03-03T23:59:59Z', 5)], '7d', now, moneyOf(1));
    assert.equal(week.buckets.length, 7);
    assert.equal(week.buckets[0]!.start, '2026-03-04T00:00:00.000Z');
    assert.equal(week.requests, 1);
    assert.deepEqual(week.balance, moneyOf(1));
    assert.equal(countRows([], '30d', now, null).buckets.length, 30);
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

  it('explains the codes only logs carry, and falls back to the status family for any other', () => {
    assert.match(reasonOf('client_aborted', 499, 'en'), /client closed the connection/);
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
