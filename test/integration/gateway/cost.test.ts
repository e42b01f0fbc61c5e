// Each answer says what it cost, as OpenRouter does: usage.cost in USD in whole answers and in a stream's
// usage chunk, and the X-Gateway-Cost header on whole answers; always the charge the log row records.
import assert from 'node:assert/strict';
import { newChannel } from '../../support/channels.ts';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { call, chatBody, chatModel, logOfRequest, useGatewayWithUpstream, type Started } from './helpers.ts';

describe('what each answer costs', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'oai', baseUrl: upstream.url, models: { 'gpt-c': 'gpt-c', 'fim-c': 'fim-c' } }));
    await admin.addChannel(newChannel({ name: 'ant', type: 'anthropic', baseUrl: upstream.url, models: { 'claude-c': 'claude-c' } }));
    await admin.setModel(chatModel('gpt-c', 2_000_000, 8_000_000));
    await admin.setModel(chatModel('claude-c', 3_000_000, 15_000_000));
    await admin.setModel(chatModel('fim-c', 1_000_000, 1_000_000, { kind: 'completion' }));
  });
  let t: Started;
  let upstream: FakeUpstream;
  before(() => ({ t, upstream } = suite));

  const charged = async (requestId: string | null) => (await logOfRequest(t.admin(), requestId)).cost / 1e6;
  const usageChunk = (text: string) =>
    text.split('\n\n').filter((b) => b.startsWith('data: {')).map((b) => JSON.parse(b.slice(6))).find((c) => c.usage)?.usage;

  it('whole answers: usage.cost and X-Gateway-Cost, equal to the logged charge (echo, an openai channel, completions)', async () => {
    for (const [path, body] of [
      ['/v1/chat/completions', chatBody('echo')],
      ['/v1/chat/completions', chatBody('gpt-c')],
      ['/v1/completions', { model: 'fim-c', prompt: 'def f(', suffix: ')' }],
    ] as const) {
      const answer = await call(t.gw, 'POST', path, { key: t.key, body });
      assert.equal(answer.status, 200, answer.text);
      const cost = await charged(answer.headers.get('x-request-id'));
      assert.ok(cost > 0);
      assert.equal(answer.json.usage.cost, cost, `${path} ${body.model}`);
      assert.equal(Number(answer.headers.get('x-gateway-cost')), cost);
    }
  });

  it('streams: the usage chunk carries the cost (passed through, and converted from Messages)', async () => {
    for (const model of ['gpt-c', 'claude-c', 'echo']) {
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody(model, 'hi', { stream: true, stream_options: { include_usage: true } }) });
      assert.equal(usageChunk(answer.text)?.cost, await charged(answer.headers.get('x-request-id')), model);
    }
    const quiet = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('gpt-c', 'hi', { stream: true }) });
    assert.equal(usageChunk(quiet.text), undefined, 'no usage chunk unless asked for');
    assert.ok(upstream.requests.length > 0);
  });
});
