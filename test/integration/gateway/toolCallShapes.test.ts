// Claude Code (Messages) and Codex (Responses) through the gateway to an upstream that streams tool calls as Gemini's
// OpenAI-compatible API does: each call whole, without `index`, the turn ended by finish_reason "stop"; or a second
// call reusing index 0 under a new id. Before, the gateway's conversions folded such calls into one (two argument
// objects glued into invalid JSON) and told Messages clients the turn ended without a tool use; and a Responses
// stream gave any second call the first one's item id. Official SDKs.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { chunk, startToolStreamServer } from '../extension/toolStream.ts';
import type { ToolStreamServer } from '../extension/toolStream.ts';
import { startTestGateway, type Started } from './helpers.ts';

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
      const claude = new Anthropic({ apiKey: t.key, baseURL: t.gw.url, maxRetries: 0 });
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
