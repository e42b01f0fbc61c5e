// The dashboards' numbers (issue 10) are the same in every store (memory, SQLite, PostgreSQL) and equal to
// the log rows counted the obvious way (test/support/logStatsReference.ts): hourly and daily buckets with
// rows on both sides of each boundary, UTC day and month edges for "spent", models and error reasons ranked
// and cut with the rest as "other", the accounts that spent most, latency percentiles; after random batches
// too. Pruning drops the tally's whole hours before the cutoff with the rows.
import assert from 'node:assert/strict';
import { DASHBOARD_RANGES, DASHBOARD_TOP } from '../../../src/contract/index.ts';
import { dashboardWindow } from '../../../src/gateway/routes/consoleDashboard.ts';
import { HOUR_MS, latencyCeiling, latencyBucket } from '../../../src/gateway/store/logRollup.ts';
import type { StatsQuery } from '../../../src/gateway/store/logStats.ts';
import type { AccountRecord, RequestLog, Store } from '../../../src/gateway/store/types.ts';
import { referenceStats, seeded } from '../../support/logStatsReference.ts';
import { describeEachStore } from '../../support/stores.ts';

function log(overrides: Partial<RequestLog>): RequestLog {
  return {
    time: 0, requestId: `r-${Math.random()}`, method: 'POST', path: '/v1/chat/completions', accountId: null, keyId: null, keyName: null,
    model: 'm', channel: 'c', status: 200, errorCode: null, promptTokens: 1, completionTokens: 1, usageEstimated: false, cost: 0,
    latencyMs: 1, firstByteMs: null, stream: false, ...overrides,
  };
}

/** 00:30 UTC on the 1st of April 2026: "today" and "this month" began half an hour ago. */
const NOW = Date.UTC(2026, 3, 1, 0, 30);
const APRIL = Date.UTC(2026, 3, 1);
const query = (range: (typeof DASHBOARD_RANGES)[number], now: number, accountId?: number): StatsQuery =>
  ({ ...dashboardWindow(range, now), top: DASHBOARD_TOP, ...(accountId !== undefined ? { accountId } : {}) });

describeEachStore("the dashboards' numbers in the Store", (current) => {
  let store: Store;
  let team: AccountRecord;
  let other: AccountRecord;
  const names = new Map<number, string>();
  beforeEach(async () => {
    ({ store } = current());
    team = await store.createAccount('team', 1_000_000_000);
    other = await store.createAccount('other', 1_000_000_000);
    names.set(team.id, 'team').set(other.id, 'other');
  });
  const reference = (rows: readonly RequestLog[], q: StatsQuery) => referenceStats(rows, q, (id) => names.get(id) ?? null);

  it('buckets by hour and UTC day with each boundary exact; spent today and this month; errors in words of their code; latency', async () => {
    const rows = [
      log({ requestId: 'march-last-ms', time: APRIL - 1, accountId: team.id, cost: 1_000, latencyMs: 40 }),
      log({ requestId: 'april-first-ms', time: APRIL, accountId: team.id, cost: 20, latencyMs: 400, promptTokens: 7, completionTokens: 9 }),
      log({ requestId: 'hour-before', time: APRIL - HOUR_MS - 1, accountId: team.id, cost: 300, model: 'big' }),
      log({ requestId: 'day-before', time: APRIL - 24 * HOUR_MS - 1, accountId: team.id, cost: 4_000, model: 'big' }),
      log({ requestId: 'refused', time: APRIL + 60_000, accountId: team.id, status: 404, errorCode: 'model_not_found', model: 'nope', latencyMs: 2 }),
      log({ requestId: 'limited', time: APRIL + 61_000, accountId: team.id, status: 429, errorCode: 'rate_limited', model: null }),
      log({ requestId: 'theirs', time: APRIL, accountId: other.id, cost: 50_000, model: 'big' }),
      log({ requestId: 'no account', time: APRIL, status: 401, errorCode: 'invalid_api_key', model: null }),
    ];
    await store.write({ logs: rows, keysUsed: new Map() });

    const day = await store.requestLogs.stats(query('24h', NOW, team.id));
    assert.equal(day.buckets.length, 24);
    // The range ends with the current hour (00:00-01:00 on April 1): the last bucket.
    assert.deepEqual(day.buckets.map((b) => b.requests).slice(-3), [1, 1, 3], '22:00 (hour-before), 23:00 (march-last-ms), 00:00 (april-first-ms and the two refusals)');
    assert.deepEqual([day.totals.requests, day.totals.errors, day.totals.cost, day.totals.promptTokens], [6 - 1, 2, 1_320, 1 + 7 + 1 + 1 + 1], 'day-before is 24 h and a ms ago: outside');
    assert.deepEqual(day.spent, [20, 20], 'today and this month began at 00:00 UTC: the row a ms before is not counted');
    assert.deepEqual(day.errors, [{ code: 'model_not_found', status: 404, count: 1 }, { code: 'rate_limited', status: 429, count: 1 }]);
    assert.deepEqual(day.models.map((m) => [m.model, m.requests, m.cost]), [['m', 2, 1_020], ['big', 1, 300], ['nope', 1, 0], [null, 1, 0]], 'by cost, then requests, then name (none last)');
    assert.deepEqual(day.latency, { requests: 3, p50: latencyCeiling(latencyBucket(40)), p95: latencyCeiling(latencyBucket(400)) });
    assert.ok(day.latency.p50! >= 40 && day.latency.p50! < 40 * 1.2, `p50 ${day.latency.p50} is an upper bound within a bucket of 40 ms`);
    assert.deepEqual(day.accounts, [], 'one account: no ranking of accounts');

    const week = await store.requestLogs.stats(query('7d', NOW, team.id));
    assert.equal(week.buckets.length, 7);
    assert.deepEqual(week.buckets.map((b) => b.cost).slice(-3), [4_000, 1_300, 20], 'March 30 (day-before), March 31, April 1');
    assert.deepEqual(week, reference(rows, query('7d', NOW, team.id)));

    const gateway = await store.requestLogs.stats(query('30d', NOW));
    assert.deepEqual([gateway.totals.requests, gateway.totals.cost], [7, 55_320], 'every account, not the row without one');
    assert.deepEqual(gateway.accounts.map((a) => [a.name, a.cost, a.requests, a.errors]), [['other', 50_000, 1, 0], ['team', 5_320, 6, 2]]);
    assert.deepEqual(gateway, reference(rows, query('30d', NOW)));
  });

  it('names the top models and error reasons and puts the rest in "other"', async () => {
    const rows = Array.from({ length: DASHBOARD_TOP + 3 }, (_, i) => log({ time: NOW, accountId: team.id, model: `model-${i}`, cost: 100 * (i + 1), status: i % 2 ? 500 : 200, errorCode: i % 2 ? `code_${i % 5}` : null }));
    rows.push(log({ time: NOW, accountId: team.id, model: 'Z-same-cost', cost: 100 }), log({ time: NOW, accountId: team.id, model: 'a-same-cost', cost: 100 }));
    await store.write({ logs: rows, keysUsed: new Map() });
    const stats = await store.requestLogs.stats(query('24h', NOW, team.id));
    assert.equal(stats.models.length, DASHBOARD_TOP);
    assert.equal(stats.models[0]!.model, `model-${DASHBOARD_TOP + 2}`);
    assert.deepEqual(stats.otherModels, { models: 5, requests: 5, errors: 1, cost: 100 + 200 + 300 + 100 + 100, promptTokens: 5, completionTokens: 5 });
    assert.deepEqual(stats.models.map((m) => m.cost).reduce((a, b) => a + b, 0) + stats.otherModels!.cost, stats.totals.cost);
    assert.deepEqual(stats, reference(rows, query('24h', NOW, team.id)));
  });

  it('after random batches over 40 days: every range, every account and the gateway, as counted from the rows', async () => {
    const random = seeded(20);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const rows: RequestLog[] = [];
    for (let i = 0; i < 600; i++) {
      const failed = random() < 0.2;
      rows.push(log({
        requestId: `rnd-${i}`,
        // Whole hours and their edges more often than chance would give them.
        time: random() < 0.3 ? APRIL - Math.floor(random() * 40 * 24) * HOUR_MS - pick([0, 1, -1]) : NOW - Math.floor(random() * 40 * 24 * HOUR_MS),
        accountId: random() < 0.05 ? null : pick([team.id, other.id]),
        model: pick(['gpt-a', 'gpt-b', 'ünï', 'Zed', 'b', null, 'x1', 'x2', 'x3', 'x4', 'x5', 'x6']),
        status: failed ? pick([400, 403, 404, 429, 500, 502]) : pick([200, 200, 200, 201]),
        errorCode: failed ? pick(['invalid_request', 'rate_limited', null, 'upstream_error']) : pick([null, null, 'client_aborted']),
        cost: failed ? 0 : Math.floor(random() * 5_000), promptTokens: Math.floor(random() * 900), completionTokens: Math.floor(random() * 900),
        latencyMs: Math.floor(random() ** 3 * 20_000),
      }));
    }
    for (let at = 0; at < rows.length;) {
      const size = 1 + Math.floor(random() * 80);
      await store.write({ logs: rows.slice(at, at + size), keysUsed: new Map() });
      at += size;
    }
    for (const now of [NOW, NOW - 7 * HOUR_MS + 1, APRIL - 1, APRIL + 9 * 24 * HOUR_MS]) {
      for (const range of DASHBOARD_RANGES) {
        for (const accountId of [team.id, other.id, undefined]) {
          const q = query(range, now, accountId);
          assert.deepEqual(await store.requestLogs.stats(q), reference(rows, q), `${range} at ${new Date(now).toISOString()} for ${accountId ?? 'the gateway'}`);
        }
      }
    }
  });

  it('pruning drops the rows before the cutoff and the tally\'s whole hours before it', async () => {
    const rows = [
      log({ time: APRIL - 2 * HOUR_MS, accountId: team.id, cost: 1 }),
      log({ time: APRIL - HOUR_MS + 10, accountId: team.id, cost: 10 }),
      log({ time: APRIL - HOUR_MS + 20, accountId: team.id, cost: 100 }),
      log({ time: APRIL, accountId: team.id, cost: 1_000 }),
    ];
    await store.write({ logs: rows, keysUsed: new Map() });
    assert.equal(await store.pruneLogs(APRIL - HOUR_MS + 15), 2);
    const stats = await store.requestLogs.stats(query('24h', NOW, team.id));
    // The cutoff's own hour keeps its tally (10 + 100): the dashboards count whole hours.
    assert.deepEqual(stats.buckets.slice(-3).map((b) => b.cost), [0, 110, 1_000]);
    assert.deepEqual((await store.requestLogs.stats(query('24h', NOW))).buckets.slice(-3).map((b) => b.cost), [0, 110, 1_000], 'the gateway\'s too');
  });
}, { timeoutMs: 60_000 });
