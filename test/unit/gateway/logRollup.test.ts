import assert from 'node:assert/strict';
import { GATEWAY, hourOf, LATENCY_BOUNDS, latencyBucket, latencyCeiling, rollupOf } from '../../../src/gateway/store/logRollup.ts';
import type { RequestLog } from '../../../src/gateway/store/types.ts';

const log = (overrides: Partial<RequestLog>): RequestLog => ({
  time: Date.UTC(2026, 3, 1, 10, 30), requestId: 'r', method: 'POST', path: '/v1/chat/completions', accountId: 7, keyId: 1, keyName: 'k', model: 'm', channel: 'c',
  status: 200, errorCode: null, promptTokens: 3, completionTokens: 4, usageEstimated: false, cost: 10, latencyMs: 100, firstByteMs: null, stream: false, ...overrides,
});

describe("the request logs' hourly tally", () => {
  it('latency buckets: every whole ms in exactly one, each at most about 19% wide above 8 ms; the ceiling is the most a bucket holds', () => {
    assert.deepEqual(LATENCY_BOUNDS.slice(0, 12), [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 16]);
    assert.equal(latencyBucket(0), 0);
    assert.equal(latencyCeiling(0), 0);
    for (let ms = 1; ms < 200_000; ms += ms < 2_000 ? 1 : 97) {
      const bucket = latencyBucket(ms);
      assert.ok(latencyBucket(ms - 1) <= bucket, `monotone at ${ms}`);
      assert.ok(latencyCeiling(bucket) >= ms && latencyCeiling(bucket - 1) < ms, `${ms} ms: its bucket's ceiling ${latencyCeiling(bucket)} holds it, the one below's does not`);
      if (ms > 8) assert.ok(latencyCeiling(bucket) <= ms * 1.2, `${ms} ms: ceiling ${latencyCeiling(bucket)} within 20%`);
    }
    assert.equal(latencyBucket(0.4), 0, 'rounded as the logs keep it');
    assert.equal(latencyBucket(10 * 3_600_000), LATENCY_BOUNDS.length, 'past the last bound: the last bucket');
    assert.equal(latencyCeiling(LATENCY_BOUNDS.length), LATENCY_BOUNDS.at(-1));
  });

  it("groups a batch per account, hour, model, status and error, and again for the whole gateway, in one order; rows without an account are not tallied", () => {
    const t = Date.UTC(2026, 3, 1, 10, 0);
    const { usage, latency } = rollupOf([
      log({ time: t }), log({ time: t + 3_599_999, cost: 5 }), log({ time: t + 3_600_000 }),
      log({ accountId: 3, model: null, status: 404, errorCode: 'model_not_found', cost: 0 }),
      log({ accountId: null, status: 401, errorCode: 'invalid_api_key' }),
    ]);
    const h = hourOf(t);
    assert.deepEqual(usage.map((u) => [u.accountId, u.hour - h, u.model, u.status, u.errorCode, u.requests, u.cost]), [
      [GATEWAY, 0, '', 404, 'model_not_found', 1, 0], [GATEWAY, 0, 'm', 200, '', 2, 15], [GATEWAY, 1, 'm', 200, '', 1, 10],
      [3, 0, '', 404, 'model_not_found', 1, 0], [7, 0, 'm', 200, '', 2, 15], [7, 1, 'm', 200, '', 1, 10],
    ]);
    // Only successful requests to a model are timed.
    assert.deepEqual(latency.map((l) => [l.accountId, l.hour - h, l.bucket, l.requests]), [
      [GATEWAY, 0, latencyBucket(100), 2], [GATEWAY, 1, latencyBucket(100), 1], [7, 0, latencyBucket(100), 2], [7, 1, latencyBucket(100), 1],
    ]);
  });
});
