// The Prometheus text the gateway writes, read back by the strict reader the integration tests use.
import assert from 'node:assert/strict';
import { Counter, Histogram, renderSampled } from '../../../src/gateway/metrics/exposition.ts';
import { RequestMetrics, UNKNOWN_MODEL } from '../../../src/gateway/metrics/requestMetrics.ts';
import type { RequestLog } from '../../../src/gateway/store/types.ts';
import { parseExposition } from '../../support/prometheus.ts';

const row = (fields: Partial<RequestLog>): RequestLog => ({
  time: 0, requestId: 'r', method: 'POST', path: '/v1/chat/completions', accountId: 1, keyId: 1, keyName: 'k', model: 'm', channel: 'c', status: 200,
  errorCode: null, promptTokens: 0, completionTokens: 0, usageEstimated: false, cost: 0, latencyMs: 1, firstByteMs: null, stream: false,
  completionCap: null, attempts: null, upstreamModel: null, userAgent: null, clientIp: null, ...fields,
});

describe('Prometheus exposition', () => {
  it('escapes label values (backslash, quote, newline) so they read back as they were', () => {
    const counter = new Counter('x_total', 'Help with a \\ and\na newline.', ['name']);
    const odd = 'a\\b "quoted"\nnext line';
    counter.inc([odd], 2);
    counter.inc(['plain']);
    counter.inc([odd]);
    const out: string[] = [];
    counter.render(out);
    assert.equal(out[0], '# HELP x_total Help with a \\\\ and\\na newline.');
    assert.deepEqual(parseExposition(`${out.join('\n')}\n`), [{ name: 'x_total', labels: { name: odd }, value: 3 }, { name: 'x_total', labels: { name: 'plain' }, value: 1 }]);
  });

  it('histograms: a value on a bound counts in that bucket; buckets cumulative, +Inf and _count all of them', () => {
    const h = new Histogram('d_seconds', 'd', ['e'], [0.1, 1]);
    for (const v of [0.1, 0.5, 1, 7]) h.observe(['x'], v);
    const out: string[] = [];
    h.render(out);
    const samples = parseExposition(`${out.join('\n')}\n`).map((s) => [s.name, s.labels['le'] ?? '', s.value]);
    assert.deepEqual(samples, [['d_seconds_bucket', '0.1', 1], ['d_seconds_bucket', '1', 3], ['d_seconds_bucket', '+Inf', 4], ['d_seconds_sum', '', 8.6], ['d_seconds_count', '', 4]]);
  });

  it('a request with a model no catalogue knows is counted under one label, whatever name it sent', () => {
    const metrics = new RequestMetrics({ endpoints: new Set(['/v1/chat/completions']), knownModel: (name) => name === 'known' });
    for (const model of ['known', 'made-up-1', 'made-up-2']) metrics.observe(row({ model, status: model === 'known' ? 200 : 404, errorCode: model === 'known' ? null : 'model_not_found' }));
    metrics.observe(row({ path: '/v1/somewhere/else', model: null, channel: null, status: 404, errorCode: 'endpoint_not_supported' }));
    metrics.observe(row({ path: '/v1/models/a/b', model: null, channel: null }));
    metrics.observe(row({ path: '/api/console/keys', model: null, channel: null }));
    const out: string[] = [];
    metrics.render(out);
    const samples = parseExposition(`${out.join('\n')}\n`);
    const models = samples.filter((s) => s.name === 'model_gateway_model_requests_total').map((s) => [s.labels['model'], s.value]);
    assert.deepEqual(models, [['known', 1], [UNKNOWN_MODEL, 2]]);
    const endpoints = samples.filter((s) => s.name === 'model_gateway_requests_total').map((s) => s.labels['endpoint']);
    assert.deepEqual([...new Set(endpoints)], ['/v1/chat/completions', 'other', '/v1/models/{model}', '/api']);
  });

  it('spending is summed in micro-dollars and shown in dollars, exactly', () => {
    const metrics = new RequestMetrics({ endpoints: new Set(), knownModel: () => true });
    for (let i = 0; i < 10; i++) metrics.observe(row({ cost: 100_001 }));
    const out: string[] = [];
    metrics.render(out);
    assert.ok(out.includes('model_gateway_cost_usd_total{model="m"} 1.000010'), out.join('\n'));
  });

  it('gauges read now, with their labels', () => {
    const out: string[] = [];
    renderSampled(out, 'gauge', 'g', 'a gauge', [[{ channel: 'a' }, 1], [{ channel: 'b' }, 0]]);
    assert.deepEqual(parseExposition(`${out.join('\n')}\n`).map((s) => [s.labels['channel'], s.value]), [['a', 1], ['b', 0]]);
  });
});
