// Prometheus metrics (`serve --metrics-port`), scraped over HTTP from a gateway serving real requests through
// a fake upstream: every request counted (a flood without keys too, though only a sample of it is logged), the
// spending equal to the balance's decrease to the micro-dollar, failover attempts and the circuit breaker seen,
// no client-chosen model name in a label, and the metrics nowhere on the API's port.
import assert from 'node:assert/strict';
import { newChannel } from '../../support/channels.ts';
import { assertError } from '../../support/answer.ts';
import { parseExposition, type Sample } from '../../support/prometheus.ts';
import { call, chatBody, chatModel, logOfRequest, startTestGateway, useGatewayWithUpstream } from './helpers.ts';

const MAIN_KEY = 'sk-main-upstream';

describe('Prometheus metrics', function () {
  this.timeout(60_000);
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'main', baseUrl: upstream.url, apiKey: MAIN_KEY, priority: 1, models: { 'm-chat': 'up-chat' } }));
    await admin.addChannel(newChannel({ name: 'backup "b"', baseUrl: upstream.url, models: { 'm-chat': 'up-chat' } }));
    await admin.setModel(chatModel('m-chat', 1_500_000, 6_000_000));
  }, { metricsPort: 0, unkeyedLogSample: 2 });

  const scrape = async (): Promise<Sample[]> => {
    const res = await fetch(suite.t.gw.metricsUrl!);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    return parseExposition(await res.text());
  };
  const value = (samples: Sample[], name: string, labels: Record<string, string> = {}): number => {
    const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    assert.equal(found.length, 1, `one ${name}${JSON.stringify(labels)} in ${JSON.stringify(found)}`);
    return found[0]!.value;
  };
  const balance = async () => (await suite.t.admin().getAccount('local'))!.balance;

  it('listens on its own port of 127.0.0.1, serves GET and HEAD /metrics only; the API port has no /metrics', async () => {
    const metrics = new URL(suite.t.gw.metricsUrl!);
    assert.equal(metrics.hostname, '127.0.0.1');
    assert.notEqual(metrics.port, String(suite.t.gw.port));
    assert.equal(metrics.pathname, '/metrics');
    assertError(await call(suite.t.gw, 'GET', '/metrics'), 404, 'not_found');
    const other = await fetch(new URL('/v1/models', metrics));
    assert.equal(other.status, 404);
    assert.equal((await other.json()).error.code, 'not_found');
    const post = await fetch(metrics, { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    const head = await fetch(metrics, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  it('counts requests by endpoint and status, models by name, tokens, and spending equal to the balance decrease', async () => {
    const before = await scrape();
    const count = (samples: Sample[], name: string, labels: Record<string, string>): number => samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ?? 0;
    const spentBefore = await balance();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call(suite.t.gw, 'POST', '/v1/chat/completions', { key: suite.t.key, body: chatBody('m-chat') }));
    answers.push(await call(suite.t.gw, 'POST', '/v1/chat/completions', { key: suite.t.key, body: chatBody('echo', 'hi', { stream: true }) }));
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    const secretName = `client-chosen-${Math.random().toString(36).slice(2)}`;
    assertError(await call(suite.t.gw, 'POST', '/v1/chat/completions', { key: suite.t.key, body: chatBody(secretName) }), 404, 'model_not_found');
    const after = await scrape();
    // The store's balance once the charges are written (log rows and their debits go in batches).
    for (const answer of answers) await logOfRequest(suite.t.admin(), answer.headers.get('x-request-id'));
    const spent = spentBefore - (await balance());
    assert.ok(spent > 0);

    const delta = (name: string, labels: Record<string, string>) => count(after, name, labels) - count(before, name, labels);
    assert.equal(delta('model_gateway_requests_total', { endpoint: '/v1/chat/completions', status: '200' }), 4);
    assert.equal(delta('model_gateway_requests_total', { endpoint: '/v1/chat/completions', status: '404' }), 1);
    assert.equal(delta('model_gateway_request_errors_total', { code: 'model_not_found' }), 1);
    assert.equal(delta('model_gateway_model_requests_total', { model: 'm-chat', status: '200' }), 3);
    assert.equal(delta('model_gateway_model_requests_total', { model: 'echo', status: '200' }), 1);
    assert.equal(delta('model_gateway_model_requests_total', { model: '(unknown)', status: '404' }), 1);
    assert.ok(!after.some((s) => Object.values(s.labels).includes(secretName)), 'a name no catalogue has never becomes a label');
    assert.ok(delta('model_gateway_tokens_total', { model: 'm-chat', type: 'prompt' }) > 0);
    assert.ok(delta('model_gateway_tokens_total', { model: 'echo', type: 'completion' }) > 0);
    const charged = delta('model_gateway_cost_usd_total', { model: 'm-chat' }) + delta('model_gateway_cost_usd_total', { model: 'echo' });
    assert.equal(Math.round(charged * 1e6), spent, 'the spending counted is what the balance lost, to the micro-dollar');
    assert.equal(delta('model_gateway_upstream_attempts_total', { channel: 'main', result: 'ok' }), 3);
    assert.equal(delta('model_gateway_upstream_first_byte_seconds_count', { channel: 'main' }), 3);

    // The latency histogram: cumulative buckets, +Inf equal to the count, the count equal to the requests.
    const buckets = after.filter((s) => s.name === 'model_gateway_request_duration_seconds_bucket' && s.labels['endpoint'] === '/v1/chat/completions');
    assert.ok(buckets.length > 5);
    buckets.reduce((previous, b) => (assert.ok(b.value >= previous, 'cumulative'), b.value), 0);
    const total = value(after, 'model_gateway_request_duration_seconds_count', { endpoint: '/v1/chat/completions' });
    assert.equal(buckets.at(-1)!.labels['le'], '+Inf');
    assert.equal(buckets.at(-1)!.value, total);
    const answered = after.filter((s) => s.name === 'model_gateway_requests_total' && s.labels['endpoint'] === '/v1/chat/completions').reduce((sum, s) => sum + s.value, 0);
    assert.equal(total, answered);
  });

  it('counts every request of a flood without keys, though only a sample of it is logged', async () => {
    const before = await scrape();
    const refused = () => before.find((s) => s.name === 'model_gateway_request_errors_total' && s.labels['code'] === 'invalid_api_key')?.value ?? 0;
    const was = refused();
    const flood = await Promise.all(Array.from({ length: 30 }, () => call(suite.t.gw, 'POST', '/v1/chat/completions', { key: 'sk-not-a-key', body: chatBody('m-chat') })));
    assert.ok(flood.every((a) => a.status === 401));
    assert.equal(value(await scrape(), 'model_gateway_request_errors_total', { code: 'invalid_api_key' }) - was, 30);
    const logged = (await suite.t.admin().listLogs(500)).filter((l) => l.errorCode === 'invalid_api_key').length;
    assert.ok(logged < 30, `${logged} logged in full: the rest only counted`);
  });

  it('shows failover: the failing channel\'s attempts by reason, the backup serving, and the circuit breaker skipping it', async () => {
    suite.upstream.behaviour = (request) => (request.headers.authorization === `Bearer ${MAIN_KEY}` ? { status: 500 } : {});
    const before = await scrape();
    const skipped = (samples: Sample[]) => value(samples, 'model_gateway_channel_skipped', { channel: 'main' });
    assert.equal(skipped(before), 0);
    for (let i = 0; i < 3; i++) assert.equal((await call(suite.t.gw, 'POST', '/v1/chat/completions', { key: suite.t.key, body: chatBody('m-chat') })).status, 200);
    const after = await scrape();
    const failed = after.filter((s) => s.name === 'model_gateway_upstream_attempts_total' && s.labels['channel'] === 'main' && s.labels['result'] !== 'ok');
    assert.equal(failed.reduce((sum, s) => sum + s.value, 0), 3, JSON.stringify(failed));
    assert.equal(value(after, 'model_gateway_upstream_attempts_total', { channel: 'backup "b"', result: 'ok' }), 3, 'a label value with a quote, escaped and read back');
    assert.equal(skipped(after), 1, 'skipped after three failures in a row');
    assert.equal(value(after, 'model_gateway_channel_enabled', { channel: 'main' }), 1);
  });

  it('with a metrics token, a scrape must send it as its Bearer token (401 metrics_token_required otherwise)', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const guarded = await startTestGateway({ metricsPort: 0, metricsToken: token });
    try {
      const url = guarded.gw.metricsUrl!;
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Bearer ${token}x`, token]) {
        const res = await fetch(url, { headers: authorization ? { authorization } : {} });
        assert.equal(res.status, 401, String(authorization));
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
        const body = await res.text();
        assert.equal(JSON.parse(body).error.code, 'metrics_token_required');
        assert.ok(!body.includes(token), 'the token is never echoed');
      }
      const scraped = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(scraped.status, 200);
      assert.ok(parseExposition(await scraped.text()).some((sample) => sample.name === 'model_gateway_store_writable'));
    } finally {
      await guarded.close();
    }
  });

  it('says what is true now: the store writes, nothing in flight, the process and its event loop', async () => {
    const samples = await scrape();
    assert.equal(value(samples, 'model_gateway_store_writable'), 1);
    assert.equal(value(samples, 'model_gateway_requests_in_flight'), 0);
    assert.equal(value(samples, 'model_gateway_info', { store: 'sqlite' }), 1);
    assert.ok(value(samples, 'process_resident_memory_bytes') > 10e6);
    assert.ok(value(samples, 'process_cpu_seconds_total') > 0);
    assert.ok(value(samples, 'model_gateway_event_loop_delay_seconds', { quantile: '0.99' }) >= 0);
    assert.ok(value(samples, 'model_gateway_start_time_seconds') <= Date.now() / 1000);
  });
});
