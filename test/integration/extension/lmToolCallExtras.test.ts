// Agent mode with Gemini 3 through the gateway: Gemini's OpenAI-compatible API puts a thought signature on each tool
// call (`extra_content.google.thought_signature`) and refuses the next turn when the assistant's tool call comes back
// without it. VS Code's tool call part has no room for it, so the provider keeps it by call id and puts it back on the
// call when VS Code sends the conversation again. Before, the second turn of every tool call lost it.
import assert from 'node:assert/strict';
import type { GatewayClient } from '../../../src/client/index.ts';
import { ROLE_ASSISTANT, ROLE_USER } from '../../../src/extension/lm/messages.ts';
import { sendChunksToSink } from '../../../src/extension/lm/chunksToSink.ts';
import { buildChatRequest } from '../../../src/extension/lm/request.ts';
import { ToolCallExtras } from '../../../src/extension/lm/toolCallExtras.ts';
import type { CompletedToolCall } from '../../../src/extension/lm/toolCalls.ts';
import { chunk, useScriptedGateway } from './toolStream.ts';
import type { ToolStreamServer } from './toolStream.ts';

const SIGNATURE = { google: { thought_signature: 'CiQBVKhc7n0-signature-bytes' } };
const TOOLS = [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];

describe('lm tool calls keep what the upstream attached to them for the next turn (thought signatures)', () => {
  const scripted = useScriptedGateway('gemini-3', { gem3: 'gemini-3-pro' });
  let upstream: ToolStreamServer;
  let client: GatewayClient;
  before(() => ({ upstream, client } = scripted));

  it("the tool call's extra_content goes back on the assistant turn of the next request", async () => {
    const extras = new ToolCallExtras();
    const ask = { role: ROLE_USER, content: [{ value: 'read a' }] };
    upstream.script = {
      events: [
        chunk({ role: 'assistant', tool_calls: [{ extra_content: SIGNATURE, id: 'function-call-1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] }),
        chunk({}, 'stop'),
      ],
    };
    const calls: CompletedToolCall[] = [];
    await sendChunksToSink(client.chatStream(buildChatRequest({ model: 'gem3', messages: [ask], tools: TOOLS })), {
      text: () => undefined,
      toolCall: (call) => {
        extras.remember(call);
        calls.push(call);
      },
    });
    assert.deepEqual(calls.map((c) => [c.callId, c.name, c.input]), [['function-call-1', 'read', { path: 'a' }]]);

    // What VS Code sends next: the call as a LanguageModelToolCallPart (id, name, input only), then its result.
    upstream.script = { events: [chunk({ content: 'a says hello' }), chunk({}, 'stop')] };
    const followUp = buildChatRequest({
      model: 'gem3',
      tools: TOOLS,
      toolCallExtras: extras,
      messages: [
        ask,
        { role: ROLE_ASSISTANT, content: [{ callId: 'function-call-1', name: 'read', input: { path: 'a' } }] },
        { role: ROLE_USER, content: [{ callId: 'function-call-1', content: [{ value: 'hello' }] }] },
      ],
    });
    let text = '';
    await sendChunksToSink(client.chatStream(followUp), { text: (v) => (text += v), toolCall: () => undefined });
    assert.equal(text, 'a says hello');
    const sent = upstream.bodies.at(-1);
    assert.deepEqual(sent.messages[1].tool_calls, [{ id: 'function-call-1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' }, extra_content: SIGNATURE }]);
  });

  it('after a window reload (a new provider on the same workspace storage) the signature still goes back', async () => {
    // A Memento as VS Code's workspaceState behaves: values kept as JSON.
    const saved = new Map<string, string>();
    const storage = { get: (key: string) => (saved.has(key) ? JSON.parse(saved.get(key)!) : undefined), update: async (key: string, value: unknown) => void saved.set(key, JSON.stringify(value)) };
    const before = new ToolCallExtras(storage);
    upstream.script = {
      events: [
        chunk({ role: 'assistant', tool_calls: [{ extra_content: SIGNATURE, id: 'function-call-2', type: 'function', function: { name: 'read', arguments: '{"path":"b"}' } }] }),
        chunk({}, 'stop'),
      ],
    };
    await sendChunksToSink(client.chatStream(buildChatRequest({ model: 'gem3', messages: [{ role: ROLE_USER, content: [{ value: 'read b' }] }], tools: TOOLS })), {
      text: () => undefined,
      toolCall: (call) => before.remember(call),
    });
    const afterReload = new ToolCallExtras(storage);
    const followUp = buildChatRequest({
      model: 'gem3',
      tools: TOOLS,
      toolCallExtras: afterReload,
      messages: [
        { role: ROLE_USER, content: [{ value: 'read b' }] },
        { role: ROLE_ASSISTANT, content: [{ callId: 'function-call-2', name: 'read', input: { path: 'b' } }] },
        { role: ROLE_USER, content: [{ callId: 'function-call-2', content: [{ value: 'bee' }] }] },
      ],
    });
    assert.deepEqual((followUp.messages[1] as { tool_calls?: unknown }).tool_calls, [
      { id: 'function-call-2', type: 'function', function: { name: 'read', arguments: '{"path":"b"}' }, extra_content: SIGNATURE },
    ]);
    // Anything else found under the key (another version's shape) is ignored, not trusted.
    saved.set('modelGateway.toolCallExtras', JSON.stringify({ not: 'entries' }));
    assert.equal(new ToolCallExtras(storage).of('function-call-2'), undefined);
  });
});
