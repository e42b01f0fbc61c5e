// Agent mode through the gateway with upstreams whose streamed tool calls stray from OpenAI's shape, as Gemini's
// OpenAI-compatible API does: each call sent whole with no `index` and the turn ended with finish_reason "stop", or
// a second call reusing index 0 under a new id. Before, the first failed every tool call with "not a chat completion
// chunk" and the second glued two argument objects into invalid JSON. Real gateway on loopback, scripted upstream.
import assert from 'node:assert/strict';
import type { GatewayClient } from '../../../src/client/index.ts';
import { ROLE_USER } from '../../../src/extension/lm/messages.ts';
import { sendChunksToSink } from '../../../src/extension/lm/chunksToSink.ts';
import { buildChatRequest } from '../../../src/extension/lm/request.ts';
import type { CompletedToolCall } from '../../../src/extension/lm/toolCalls.ts';
import { chunk, useScriptedGateway } from './toolStream.ts';
import type { ToolStreamServer } from './toolStream.ts';

const TOOLS = [
  { name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'glob', description: 'Find files' },
];

describe('lm tool calls in the shapes other upstreams stream them, through the gateway', () => {
  const scripted = useScriptedGateway('gemini-like', { gem: 'gemini-x' });
  let upstream: ToolStreamServer;
  let client: GatewayClient;
  before(() => ({ upstream, client } = scripted));

  async function callsOf(events: object[]): Promise<CompletedToolCall[]> {
    upstream.script = { events };
    const calls: CompletedToolCall[] = [];
    const request = buildChatRequest({ model: 'gem', messages: [{ role: ROLE_USER, content: [{ value: 'read a and b' }] }], tools: TOOLS });
    await sendChunksToSink(client.chatStream(request), { text: () => undefined, toolCall: (call) => calls.push(call) });
    return calls;
  }

  it('calls without an index, each whole, the turn ended by "stop": two tool calls', async () => {
    const whole = (id: string, path: string) => chunk({ role: 'assistant', tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: JSON.stringify({ path }) } }] });
    assert.deepEqual(await callsOf([whole('function-call-1', 'a'), whole('function-call-2', 'b'), chunk({}, 'stop')]), [
      { callId: 'function-call-1', name: 'read', input: { path: 'a' } },
      { callId: 'function-call-2', name: 'read', input: { path: 'b' } },
    ]);
  });

  it('indexless fragments without an id continue the call before them', async () => {
    assert.deepEqual(
      await callsOf([
        chunk({ tool_calls: [{ id: 'g1', type: 'function', function: { name: 'glob', arguments: '{"pat' } }] }),
        chunk({ tool_calls: [{ id: '', type: '', function: { arguments: 'tern":"*"}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
      [{ callId: 'g1', name: 'glob', input: { pattern: '*' } }],
    );
  });

  it('a second call under a new id at index 0 is a call of its own, not more arguments of the first', async () => {
    assert.deepEqual(
      await callsOf([
        chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'glob', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pattern":"**/*"}' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'c2', type: 'function', function: { name: 'glob', arguments: '{"path":"content"}' } }] }),
        chunk({}, 'tool_calls'),
      ]),
      [
        { callId: 'c1', name: 'glob', input: { pattern: '**/*' } },
        { callId: 'c2', name: 'glob', input: { path: 'content' } },
      ],
    );
  });
});
