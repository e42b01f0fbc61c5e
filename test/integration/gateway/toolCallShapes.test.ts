// Claude Code (Messages) and Codex (Responses) through the gateway to an upstream that streams tool calls as Gemini's
// OpenAI-compatible API does: each call whole, without `index`, the turn ended by finish_reason "stop"; or a second
// call reusing index 0 under a new id. Before, the gateway's conversions folded such calls into one (two argument
// objects glued into invalid JSON) and told Messages clients the turn ended without a tool use; and a Responses
// stream gave any second call the first one's item id. Official SDKs.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import type { FakeUpstream } from '../../support/fakeUpstream.ts';
import { chunk, startToolStreamServer } from '../extension/toolStream.ts';
import type { ToolStreamServer } from '../extension/toolStream.ts';
import { anthropicOn, chatModel, startTestGateway, useGatewayWithUpstream, type Started } from './helpers.ts';

const whole = (id: string, path: string) => chunk({ role: 'assistant', tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: JSON.stringify({ path }) } }] });
const SHAPES: Record<string, object[]> = {
  'without an index, ended by "stop"': [whole('function-call-1', 'a'), whole('function-call-2', 'b'), chunk({}, 'stop')],
  'a new id at index 0': [
    chunk({ tool_calls: [{ index: 0, id: 'function-call-1', type: 'function', function: { name: 'read', arguments: '{"path":' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"a"}' } }] }),
    chunk({ tool_calls: [{ index: 0, id: 'function-call-2', type: 'function', function: { name: 'read', arguments: '{"path":"b"}' } }] }),
    chunk({}, 'tool_calls'),
  ],
  // OpenAI's own shape: the second call's Responses item took the first one's id (both fc_<request>_0).
  'two indexed calls (OpenAI)': [
    chunk({ tool_calls: [{ index: 0, id: 'function-call-1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] }),
    chunk({ tool_calls: [{ index: 1, id: 'function-call-2', type: 'function', function: { name: 'read', arguments: '{"path":"b"}' } }] }),
    chunk({}, 'tool_calls'),
  ],
};

describe('tool calls streamed in the shapes Gemini sends, converted for Messages and Responses clients', () => {
  let upstream: ToolStreamServer;
  let t: Started;
  before(async () => {
    upstream = await startToolStreamServer({ events: [] });
    t = await startTestGateway();
    await addChannelPricedFree(t.admin(), newChannel({ name: 'gemini-like', baseUrl: upstream.url, models: { gem: 'gemini-x' } }));
  });
  after(async () => {
    await t?.close();
    await upstream?.close();
  });

  for (const [shape, events] of Object.entries(SHAPES)) {
    it(`Messages, ${shape}: two tool_use blocks and stop_reason tool_use`, async () => {
      upstream.script = { events };
      const claude = anthropicOn(t);
      const tools = [{ name: 'read', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } }];
      const message = await claude.messages.stream({ model: 'gem', max_tokens: 64, tools, messages: [{ role: 'user', content: 'read a and b' }] }).finalMessage();
      assert.deepEqual(message.content, [
        { type: 'tool_use', id: 'function-call-1', name: 'read', input: { path: 'a' } },
        { type: 'tool_use', id: 'function-call-2', name: 'read', input: { path: 'b' } },
      ]);
      assert.equal(message.stop_reason, 'tool_use');
    });

    it(`Responses, ${shape}: two function calls`, async () => {
      upstream.script = { events };
      const openai = new OpenAI({ apiKey: t.key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
      const tools = [{ type: 'function' as const, name: 'read', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
      const response = await openai.responses.stream({ model: 'gem', tools, input: 'read a and b' }).finalResponse();
      const calls = response.output.filter((item) => item.type === 'function_call').map((item) => item.type === 'function_call' && [item.call_id, item.name, JSON.parse(item.arguments)]);
      assert.deepEqual(calls, [['function-call-1', 'read', { path: 'a' }], ['function-call-2', 'read', { path: 'b' }]]);
    });
  }
});

/** The first function call of a Responses output. */
function firstCall(output: readonly { type: string }[]): OpenAI.Responses.ResponseFunctionToolCall | undefined {
  return output.find((item) => item.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall | undefined;
}

describe('tool calls in the other shapes chat upstreams answer with, converted for Messages and Responses clients', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'quirky', baseUrl: upstream.url, models: { quirky: 'local-model' } }));
    await admin.setModel(chatModel('quirky', 1_000_000, 2_000_000, { toolCalling: true }));
  });
  let upstream: FakeUpstream;
  let claude: Anthropic;
  let openai: OpenAI;
  before(() => {
    ({ upstream, openai } = suite);
    claude = suite.claude;
  });
  const tools = [{ name: 'read', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } }];
  const fnTools = [{ type: 'function' as const, name: 'read', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
  const ask = { model: 'quirky', max_tokens: 64, tools, messages: [{ role: 'user' as const, content: 'read a' }] };

  it('arguments sent as an object, not a JSON text (some Ollama and llama.cpp builds): the call keeps them, streamed and not', async () => {
    // Before: the arguments were lost (input {}, arguments ""), and the tool ran without them.
    upstream.behaviour = { toolCall: { id: 'call_1', name: 'read', arguments: '{"path":"a"}', asObject: true } };
    for (const message of [await claude.messages.create(ask), await claude.messages.stream(ask).finalMessage()]) {
      assert.deepEqual([message.content, message.stop_reason], [[{ type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a' } }], 'tool_use']);
    }
    for (const response of [await openai.responses.create({ model: 'quirky', tools: fnTools, input: 'read a' }), await openai.responses.stream({ model: 'quirky', tools: fnTools, input: 'read a' }).finalResponse()]) {
      const call = firstCall(response.output);
      assert.deepEqual(call && [call.call_id, call.name, JSON.parse(call.arguments)], ['call_1', 'read', { path: 'a' }]);
    }
  });

  it('a whole answer that called a tool with finish_reason "stop" (Gemini) or "eos" ends with stop_reason tool_use', async () => {
    // Before: end_turn, and Claude Code took the turn as over without running the tool.
    for (const finishReason of ['stop', 'eos']) {
      upstream.behaviour = { toolCall: { id: 'call_1', name: 'read', arguments: '{"path":"a"}', finishReason } };
      assert.equal((await claude.messages.create(ask)).stop_reason, 'tool_use', finishReason);
      assert.equal((await claude.messages.stream(ask).finalMessage()).stop_reason, 'tool_use', `${finishReason}, streamed`);
    }
  });
});

describe('a legacy function_call streamed (older servers and proxies), converted', () => {
  let upstream: ToolStreamServer;
  let t: Started;
  before(async () => {
    upstream = await startToolStreamServer({
      events: [
        chunk({ role: 'assistant', content: null, function_call: { name: 'read', arguments: '' } }),
        chunk({ function_call: { arguments: '{"path":' } }),
        chunk({ function_call: { arguments: '"a"}' } }),
        chunk({}, 'function_call'),
      ],
    });
    t = await startTestGateway();
    await addChannelPricedFree(t.admin(), newChannel({ name: 'legacy', baseUrl: upstream.url, models: { legacy: 'old-model' } }));
  });
  after(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('is a tool call for Claude Code and Codex, with its arguments', async () => {
    // Before: the call was dropped; Claude Code got stop_reason tool_use with no tool_use block, Codex an empty answer.
    const claude = anthropicOn(t);
    const tools = [{ name: 'read', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } } } }];
    const message = await claude.messages.stream({ model: 'legacy', max_tokens: 64, tools, messages: [{ role: 'user', content: 'read a' }] }).finalMessage();
    const use = message.content[0];
    assert.deepEqual([message.content.length, use?.type === 'tool_use' && [use.name, use.input], message.stop_reason], [1, ['read', { path: 'a' }], 'tool_use']);
    const openai = new OpenAI({ apiKey: t.key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    const fnTools = [{ type: 'function' as const, name: 'read', strict: false, parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const response = await openai.responses.stream({ model: 'legacy', tools: fnTools, input: 'read a' }).finalResponse();
    const call = firstCall(response.output);
    assert.deepEqual(call && [call.name, JSON.parse(call.arguments), call.call_id.length > 0], ['read', { path: 'a' }, true]);
  });
});
