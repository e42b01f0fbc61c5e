import assert from 'node:assert/strict';
import { upstreamBody, upstreamUrl } from '../../../src/gateway/providers/openai/requestBody.ts';
import { relayChannel } from '../../support/channels.ts';
import type { Channel, RelayRequest } from '../../../src/gateway/relay/types.ts';

const channel = (baseUrl: string): Channel => relayChannel({ baseUrl, models: { plat: 'up' } });
const request = (body: object, maxCompletionTokens: number | null, stream = false) =>
  ({ operation: 'chat', model: 'plat', body: { model: 'plat', messages: [{ role: 'user', content: 'x' }], ...body }, stream, maxCompletionTokens }) as unknown as RelayRequest;

describe('upstreamBody', () => {
  it('maps the model and leaves every other field alone', () => {
    const sent = JSON.parse(upstreamBody(request({ temperature: 0, n: 2, logit_bias: { 1: 2 } }, null), channel('http://h/v1')));
    assert.deepEqual(sent, { model: 'up', messages: [{ role: 'user', content: 'x' }], temperature: 0, n: 2, logit_bias: { 1: 2 } });
  });

  it('adds the cap as max_completion_tokens for OpenAI itself, max_tokens elsewhere', () => {
    assert.equal(JSON.parse(upstreamBody(request({}, 64), channel('https://api.openai.com/v1'))).max_completion_tokens, 64);
    assert.equal(JSON.parse(upstreamBody(request({}, 64), channel('http://localhost:11434/v1'))).max_tokens, 64);
  });

  it('injects include_usage for streams, keeping other stream options', () => {
    const sent = JSON.parse(upstreamBody(request({ stream: true, stream_options: { include_usage: false, x: 1 } }, null, true), channel('http://h/v1')));
    assert.deepEqual(sent.stream_options, { include_usage: true, x: 1 });
    assert.equal(JSON.parse(upstreamBody(request({}, null), channel('http://h/v1'))).stream_options, undefined);
  });

  it('Responses: byte for byte to an upstream that has the API (the cap lowered only), converted to chat for one that does not', () => {
    const text = '{"model":"plat","input":[{"type":"reasoning","encrypted_content":"gAAA+/=="},{"role":"user","content":"\u00e9t\u00e9"}],"stream":true,"include":["reasoning.encrypted_content"]}';
    const body = JSON.parse(text) as Record<string, unknown>;
    const responses = (cap: number | null) => ({ operation: 'responses', model: 'plat', body, stream: true, maxCompletionTokens: cap }) as unknown as RelayRequest;
    const native = relayChannel({ baseUrl: 'http://h/v1', models: { plat: 'plat' }, responsesApi: true });
    assert.equal(upstreamBody(responses(null), native), JSON.stringify(body), 'nothing but the model name may change');
    assert.deepEqual(JSON.parse(upstreamBody(responses(100), native)), { ...body, max_output_tokens: 100 });
    assert.equal(upstreamUrl('http://h/v1', 'responses').path, '/v1/responses');
    const converted = JSON.parse(upstreamBody(responses(null), relayChannel({ baseUrl: 'http://h/v1', models: { plat: 'plat' } })));
    assert.deepEqual(converted.messages, [{ role: 'user', content: '\u00e9t\u00e9' }]);
    assert.deepEqual(converted.stream_options, { include_usage: true });
  });

  it('Responses converted to chat keep the sampling, caching and reasoning fields', () => {
    const body = {
      model: 'plat', input: 'hi', max_output_tokens: 300, temperature: 0.2, top_p: 0.9, parallel_tool_calls: false, user: 'u-1',
      prompt_cache_key: 'conversation-7', safety_identifier: 'hashed-user', reasoning: { effort: 'high', summary: 'auto' }, store: false, include: [],
    };
    const responses = { operation: 'responses', model: 'plat', body, stream: false, maxCompletionTokens: null } as unknown as RelayRequest;
    assert.deepEqual(JSON.parse(upstreamBody(responses, channel('http://h/v1'))), {
      model: 'up', messages: [{ role: 'user', content: 'hi' }], max_tokens: 300, temperature: 0.2, top_p: 0.9, parallel_tool_calls: false, user: 'u-1',
      prompt_cache_key: 'conversation-7', safety_identifier: 'hashed-user', reasoning_effort: 'high',
    });
  });

  it('joins the base URL and the path with or without a trailing slash', () => {
    assert.deepEqual(upstreamUrl('http://h:8/v1', 'chat'), { origin: 'http://h:8', path: '/v1/chat/completions' });
    assert.deepEqual(upstreamUrl('http://h:8/v1/', 'chat'), { origin: 'http://h:8', path: '/v1/chat/completions' });
    assert.deepEqual(upstreamUrl('https://h/api/v1?x=1', 'chat'), { origin: 'https://h', path: '/api/v1/chat/completions?x=1' });
  });

  it('puts each operation at its own path', () => {
    assert.equal(upstreamUrl('http://h/v1', 'completion').path, '/v1/completions');
    assert.equal(upstreamUrl('http://h/v1', 'embedding').path, '/v1/embeddings');
    assert.equal(upstreamUrl('http://h/v1/', 'image').path, '/v1/images/generations');
  });

  it('completions: caps max_tokens only (the completions API has no max_completion_tokens), streams ask for usage', () => {
    const completion = (body: object, cap: number | null, stream = false) =>
      ({ operation: 'completion', model: 'plat', body: { model: 'plat', prompt: 'x', ...body }, stream, maxCompletionTokens: cap }) as unknown as RelayRequest;
    const openai = relayChannel({ baseUrl: 'https://api.openai.com/v1', models: { plat: 'up' } });
    assert.deepEqual(JSON.parse(upstreamBody(completion({}, 100), openai)), { model: 'up', prompt: 'x', max_tokens: 100 });
    assert.equal(JSON.parse(upstreamBody(completion({ max_tokens: 500 }, 100), openai)).max_tokens, 100);
    assert.equal(JSON.parse(upstreamBody(completion({ max_tokens: 50 }, 100), openai)).max_tokens, 50);
    assert.deepEqual(JSON.parse(upstreamBody(completion({ stream: true }, null, true), openai)).stream_options, { include_usage: true });
  });

  it('embeddings and images: only the model name changes', () => {
    const embedding = { operation: 'embedding', model: 'plat', body: { model: 'plat', input: ['a', 'b'], dimensions: 8 }, stream: false, maxCompletionTokens: 5 } as unknown as RelayRequest;
    assert.deepEqual(JSON.parse(upstreamBody(embedding, channel('http://h/v1'))), { model: 'up', input: ['a', 'b'], dimensions: 8 });
    const image = { operation: 'image', model: 'plat', body: { model: 'plat', prompt: 'p', n: 2 }, stream: false, maxCompletionTokens: null } as unknown as RelayRequest;
    assert.deepEqual(JSON.parse(upstreamBody(image, channel('http://h/v1'))), { model: 'up', prompt: 'p', n: 2 });
  });
});
