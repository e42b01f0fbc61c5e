// Each answer says what it cost, as OpenRouter does: usage.cost in USD in whole answers and in a stream's
// usage chunk, and the X-Gateway-Cost header on whole answers; always the charge the log row records.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { costOf } from '../../../src/gateway/accounts/money.ts';
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
    // Counts that cannot be true: the usage charged instead (estimated) is the one the chunk says, with its cost.
    for (const usage of [{ prompt_tokens: -5000, completion_tokens: -5000 }, { prompt_tokens: 5, completion_tokens: 1e12 }]) {
      upstream.behaviour = { usage };
      const answer = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('gpt-c', 'hi', { stream: true, stream_options: { include_usage: true } }) });
      const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
      const said = usageChunk(answer.text);
      assert.deepEqual([said?.prompt_tokens, said?.completion_tokens, said?.cost], [log.promptTokens, log.completionTokens, log.cost / 1e6], JSON.stringify(usage));
      assert.ok(log.usageEstimated && log.cost > 0);
      assert.match(answer.text, /data: \[DONE\]\n\n$/);
    }
    upstream.behaviour = {};
    const quiet = await call(t.gw, 'POST', '/v1/chat/completions', { key: t.key, body: chatBody('gpt-c', 'hi', { stream: true }) });
    assert.equal(usageChunk(quiet.text), undefined, 'no usage chunk unless asked for');
    assert.ok(upstream.requests.length > 0);
  });

  it('streams asked for usage (official openai SDK): a usage chunk with its cost even when the upstream said none; completions on echo too', async () => {
    const openai = new OpenAI({ apiKey: t.key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    const lastUsage = async (chunks: AsyncIterable<{ usage?: unknown }>) => {
      let usage: any;
      for await (const chunk of chunks) if (chunk.usage) usage = chunk.usage;
      return usage;
    };
    // The upstream ends with finish_reason and [DONE], no usage chunk: the usage charged (estimated) is said instead.
    upstream.behaviour = { omitUsage: true, pieces: ['abcd', 'efgh'] };
    const { data, response } = await openai.chat.completions.create({ model: 'gpt-c', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } }).withResponse();
    const said = await lastUsage(data);
    const log = await logOfRequest(t.admin(), response.headers.get('x-request-id'));
    assert.ok(log.usageEstimated && log.cost > 0);
    assert.deepEqual([said?.prompt_tokens, said?.completion_tokens, said?.cost], [log.promptTokens, log.completionTokens, log.cost / 1e6]);
    upstream.behaviour = {};
    // Completions: the echo channel's usage chunk says its cost as an openai channel's does.
    for (const model of ['fim-c', 'echo-completion']) {
      const { data, response } = await openai.completions.create({ model, prompt: 'def f(', suffix: ')', stream: true, stream_options: { include_usage: true } }).withResponse();
      const usage = await lastUsage(data);
      assert.equal(usage?.cost, await charged(response.headers.get('x-request-id')), model);
      assert.ok(usage.cost > 0, model);
    }
  });

  it("a small request with tools on an anthropic channel: the provider's hidden tool prompt was held, so its whole cost is charged", async () => {
    // Anthropic counts its tool-use system prompt (264-530 tokens) as input: far more than a small body's bytes.
    const TOOL_PROMPT = 346;
    const CAP = 16;
    const tool = { type: 'function' as const, function: { name: 'f', parameters: { type: 'object', properties: {} } } };
    const requests = [
      ['/v1/chat/completions', chatBody('claude-c', 'hi', { max_tokens: CAP, tools: [tool] })],
      ['/v1/chat/completions', chatBody('claude-c', 'hi', { max_tokens: CAP, response_format: { type: 'json_object' } })],
      ['/v1/responses', { model: 'claude-c', input: 'hi', max_output_tokens: CAP, text: { format: { type: 'json_schema', name: 'a', schema: { type: 'object' } } } }],
      ['/v1/messages', { model: 'claude-c', max_tokens: CAP, tools: [{ name: 'f', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/messages', { model: 'claude-c', max_tokens: CAP, output_config: { format: { type: 'json_schema', schema: { type: 'object' } } }, messages: [{ role: 'user', content: 'hi' }] }],
    ] as const;
    for (const [path, body] of requests) {
      const name = 'tools' in body ? 'f' : 'json_answer';
      upstream.behaviour = { usage: { prompt_tokens: 11 + TOOL_PROMPT, completion_tokens: CAP }, toolCall: { name: path === '/v1/responses' ? 'a' : name, arguments: '{}' } };
      const headers = path === '/v1/messages' ? { 'anthropic-version': '2023-06-01' } : undefined;
      const answer = await call(t.gw, 'POST', path, { key: t.key, body, headers });
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      assert.ok(JSON.stringify(body).length < 11 + TOOL_PROMPT, 'a body smaller than the tokens it is charged for');
      const log = await logOfRequest(t.admin(), answer.headers.get('x-request-id'));
      assert.deepEqual([log.promptTokens, log.completionTokens, log.cost], [11 + TOOL_PROMPT, CAP, costOf(11 + TOOL_PROMPT, CAP, 3_000_000, 15_000_000)], `${path} ${JSON.stringify(body)}`);
    }
  });
});
