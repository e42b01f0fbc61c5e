// Chat answers in the shapes real upstreams send, converted for Claude Code (Messages) and Codex (Responses), with
// the official SDKs as unchanged clients.
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { chunk, startToolStreamServer, type ToolStreamServer } from '../extension/toolStream.ts';
import { anthropicOn, logOfRequest, startTestGateway, type Started } from './helpers.ts';

describe('chat answers in the shapes upstreams send, converted for Messages and Responses clients', () => {
  let upstream: ToolStreamServer;
  let t: Started;
  before(async () => {
    upstream = await startToolStreamServer({ events: [] });
    t = await startTestGateway();
    await addChannelPricedFree(t.admin(), newChannel({ name: 'mistral-like', baseUrl: upstream.url, models: { magistral: 'magistral-medium-2509' } }));
  });
  after(async () => {
    await t?.close();
    await upstream?.close();
  });

  it("content as a list of chunks (Mistral's Magistral): the thinking chunks are the reasoning, the text chunks the answer", async () => {
    // Before: a content that is not a string was taken for none, and Claude Code and Codex got an empty answer.
    const think = (text: string) => chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text }] }] });
    upstream.script = {
      events: [chunk({ role: 'assistant', content: '' }), think('A greeting,'), think(' so greet.'), chunk({ content: [{ type: 'text', text: 'Hello' }] }), chunk({ content: ' there.' }), chunk({}, 'stop')],
    };
    const claude = anthropicOn(t);
    const message = await claude.messages.stream({ model: 'magistral', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    assert.deepEqual(message.content, [{ type: 'thinking', thinking: 'A greeting, so greet.', signature: '' }, { type: 'text', text: 'Hello there.' }]);
    const openai = new OpenAI({ apiKey: t.key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    const response = await openai.responses.stream({ model: 'magistral', input: 'hi' }).finalResponse();
    assert.equal(response.output_text, 'Hello there.');
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    assert.deepEqual(reasoning?.type === 'reasoning' && reasoning.summary, [{ type: 'summary_text', text: 'A greeting, so greet.' }]);
  });

  it('an upstream that reports no usage is charged for what it generated in every shape: arguments as an object, a legacy function_call, content as chunks', async () => {
    // Before: only string content and string arguments were counted, and such answers were estimated at a token or two.
    const long = 'x'.repeat(400);
    const claude = anthropicOn(t);
    const tools = [{ name: 'write', input_schema: { type: 'object' as const, properties: { text: { type: 'string' } } } }];
    for (const events of [
      [chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'write', arguments: { text: long } } }] }), chunk({}, 'tool_calls')],
      [chunk({ function_call: { name: 'write', arguments: '' } }), chunk({ function_call: { arguments: JSON.stringify({ text: long }) } }), chunk({}, 'function_call')],
      [chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: long }] }] }), chunk({ content: [{ type: 'text', text: 'ok' }] }), chunk({}, 'stop')],
    ]) {
      upstream.script = { events };
      const stream = claude.messages.stream({ model: 'magistral', max_tokens: 1000, tools, messages: [{ role: 'user', content: 'write' }] });
      await stream.finalMessage();
      const log = await logOfRequest(t.admin(), (await stream.withResponse()).response.headers.get('x-request-id'));
      assert.equal(log.usageEstimated, true);
      assert.ok(log.completionTokens >= 100, `${log.completionTokens} tokens for 400 characters generated`);
    }
  });
});
