import assert from 'node:assert/strict';
import { chatCompletionsUrl, upstreamBody } from '../../../src/gateway/providers/openai/requestBody.ts';
import { relayChannel } from '../../support/channels.ts';
import type { Channel, RelayRequest } from '../../../src/gateway/relay/types.ts';

const channel = (baseUrl: string): Channel => relayChannel({ baseUrl, models: { plat: 'up' } });
const request = (body: object, maxCompletionTokens: number | null, stream = false) =>
  ({ model: 'plat', body: { model: 'plat', messages: [{ role: 'user', content: 'x' }], ...body }, stream, maxCompletionTokens }) as unknown as RelayRequest;

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

  it('joins the base URL and the path with or without a trailing slash', () => {
    assert.deepEqual(chatCompletionsUrl('http://h:8/v1'), { origin: 'http://h:8', path: '/v1/chat/completions' });
    assert.deepEqual(chatCompletionsUrl('http://h:8/v1/'), { origin: 'http://h:8', path: '/v1/chat/completions' });
    assert.deepEqual(chatCompletionsUrl('https://h/api/v1?x=1'), { origin: 'https://h', path: '/api/v1/chat/completions?x=1' });
  });
});
