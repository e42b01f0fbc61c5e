// Parallel tool calls whose argument fragments the upstream's chat stream interleaves (call 1 starts, then the rest
// of call 0's arguments), streamed to a Messages client and a Responses client by the official SDKs. Before, call 0
// was closed when call 1 started: Responses clients got its arguments cut ("{\"p\":") and Messages clients a delta
// after its block's stop, so the SDK's contentBlock event said input {} (Claude Code takes a tool's input there).
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { addChannelPricedFree, newChannel } from '../../support/channels.ts';
import { chunk, startToolStreamServer } from '../extension/toolStream.ts';
import type { ToolStreamServer } from '../extension/toolStream.ts';
import { anthropicOn, startTestGateway, type Started } from './helpers.ts';

const INTERLEAVED = [
  chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"p":' } }] }),
  chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'find', arguments: '{"f":1}' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"/"}' } }] }),
  chunk({}, 'tool_calls'),
];

describe('interleaved parallel tool calls through the gateway to Messages and Responses clients', () => {
  let upstream: ToolStreamServer;
  let t: Started;
  before(async () => {
    upstream = await startToolStreamServer({ events: INTERLEAVED });
    t = await startTestGateway();
    await addChannelPricedFree(t.admin(), newChannel({ name: 'interleaving', baseUrl: upstream.url, models: { par: 'parallel-x' } }));
  });
  after(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('Messages: each contentBlock event and the final message carry every call whole', async () => {
    const tools = ['read', 'find'].map((name) => ({ name, input_schema: { type: 'object' as const } }));
    const stream = anthropicOn(t).messages.stream({ model: 'par', max_tokens: 64, tools, messages: [{ role: 'user', content: 'go' }] });
    const blocks: Anthropic.ContentBlock[] = [];
    stream.on('contentBlock', (block) => blocks.push(block));
    const message = await stream.finalMessage();
    const expected = [
      { type: 'tool_use', id: 'call_a', name: 'read', input: { p: '/' } },
      { type: 'tool_use', id: 'call_b', name: 'find', input: { f: 1 } },
    ];
    assert.deepEqual(blocks, expected);
    assert.deepEqual(message.content, expected);
    assert.equal(message.stop_reason, 'tool_use');
  });

  it('Responses: finalResponse() has both function calls with their whole arguments', async () => {
    const openai = new OpenAI({ apiKey: t.key, baseURL: `${t.gw.url}/v1`, maxRetries: 0 });
    const tools = ['read', 'find'].map((name) => ({ type: 'function' as const, name, strict: false, parameters: { type: 'object' } }));
    const stream = openai.responses.stream({ model: 'par', tools, input: 'go' });
    const done: string[] = [];
    stream.on('response.function_call_arguments.done', (event) => done.push(event.arguments));
    const response = await stream.finalResponse();
    const calls = response.output.flatMap((item) => (item.type === 'function_call' ? [[item.call_id, item.name, item.arguments]] : []));
    assert.deepEqual(calls, [['call_a', 'read', '{"p":"/"}'], ['call_b', 'find', '{"f":1}']]);
    assert.deepEqual(done, ['{"p":"/"}', '{"f":1}']);
  });
});
