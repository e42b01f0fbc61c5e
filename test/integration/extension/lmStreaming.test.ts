// The LM provider's pure streaming logic, driven through the real GatewayClient over real HTTP:
// tool calls streamed in fragments come back whole, requests carry tools / tool_choice / tool messages,
// the bundled gateway's echo model answers through the same path (a tool call round trip included), and a stop closes the connection.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { GatewayClient } from '../../../src/client/index.ts';
import { useEchoGateway } from '../../support/echoGateway.ts';
import { signalFromToken } from '../../../src/extension/chat/abort.ts';
import { ROLE_ASSISTANT, ROLE_USER } from '../../../src/extension/lm/messages.ts';
import { sendChunksToSink } from '../../../src/extension/lm/chunksToSink.ts';
import { buildChatRequest } from '../../../src/extension/lm/request.ts';
import { ToolCallError } from '../../../src/extension/lm/toolCalls.ts';
import type { CompletedToolCall } from '../../../src/extension/lm/toolCalls.ts';
import { TOOL_MODE_REQUIRED } from '../../../src/extension/lm/tools.ts';
import { chunk, startToolStreamServer } from './toolStream.ts';
import type { ToolStreamServer } from './toolStream.ts';


function collector() {
  const out = { text: '', thinking: '', calls: [] as CompletedToolCall[] };
  return {
    out,
    sink: {
      text: (v: string) => void (out.text += v),
      thinking: (v: string) => void (out.thinking += v),
      toolCall: (c: CompletedToolCall) => void out.calls.push(c),
    },
  };
}

/** Two parallel calls, their arguments cut every 3 characters, interleaved. */
function parallelToolEvents(): object[] {
  const a = JSON.stringify({ path: 'src/main.ts', startLine: 1, endLine: 40 });
  const b = JSON.stringify({ query: 'TODO “fix”', maxResults: 5 });
  const events: object[] = [
    chunk({ role: 'assistant', content: null, reasoning_content: 'I need two files.' }),
    chunk({ tool_calls: [{ index: 0, id: 'call_read', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 1, id: 'call_search', type: 'function', function: { name: 'search', arguments: '' } }] }),
  ];
  for (let i = 0; i < Math.max(a.length, b.length); i += 3) {
    const frags = [];
    if (i < a.length) frags.push({ index: 0, function: { arguments: a.slice(i, i + 3) } });
    if (i < b.length) frags.push({ index: 1, function: { arguments: b.slice(i, i + 3) } });
    events.push(chunk({ tool_calls: frags }));
  }
  events.push(chunk({}, 'tool_calls'));
  return events;
}

describe('lm streaming over HTTP (fake tool-calling upstream)', () => {
  let server: ToolStreamServer;
  let client: GatewayClient;
  before(async () => {
    server = await startToolStreamServer({ events: [] });
    client = new GatewayClient({ baseUrl: server.url, apiKey: 'sk-test-tools', maxRetries: 0 });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('sends tools, tool_choice and tool messages, and returns parallel tool calls whole', async () => {
    server.script = { events: parallelToolEvents(), fragmentBytes: 7 };
    const request = buildChatRequest({
      model: 'tool-model',
      messages: [
        { role: ROLE_USER, content: [{ value: 'What time is it?' }] },
        { role: ROLE_ASSISTANT, content: [{ callId: 'call_0', name: 'now', input: {} }] },
        { role: ROLE_USER, content: [{ callId: 'call_0', content: [{ value: '12:00' }] }, { value: 'Now find my TODOs.' }] },
      ],
      tools: [
        { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
        { name: 'search', description: 'Search the workspace' },
      ],
      toolMode: TOOL_MODE_REQUIRED,
    });
    const { out, sink } = collector();
    const outcome = await sendChunksToSink(client.chatStream(request), sink);

    assert.deepEqual(out.calls, [
      { callId: 'call_read', name: 'read_file', input: { path: 'src/main.ts', startLine: 1, endLine: 40 } },
      { callId: 'call_search', name: 'search', input: { query: 'TODO “fix”', maxResults: 5 } },
    ]);
    assert.equal(out.thinking, 'I need two files.');
    assert.equal(out.text, '');
    assert.equal(outcome.finishReason, 'tool_calls');

    const sent = server.bodies.at(-1);
    assert.equal(sent.stream, true);
    assert.equal(sent.tool_choice, 'required');
    assert.deepEqual(sent.tools.map((t: any) => t.function.name), ['read_file', 'search']);
    assert.deepEqual(sent.tools[1].function.parameters, { type: 'object', properties: {} });
    assert.deepEqual(sent.messages, [
      { role: 'user', content: 'What time is it?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'now', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: '12:00' },
      { role: 'user', content: 'Now find my TODOs.' },
    ]);
  });

  it('text and a tool call in one answer: text streams, the call comes at the end of the stream', async () => {
    server.script = {
      events: [
        chunk({ content: 'Let me ' }),
        chunk({ content: 'check.' }),
        chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'list_dir', arguments: '{"pa' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"."}' } }] }),
      ],
    };
    const { out, sink } = collector();
    const outcome = await sendChunksToSink(client.chatStream(buildChatRequest({ model: 'tool-model', messages: [{ role: ROLE_USER, content: [{ value: 'ls' }] }] })), sink);
    assert.equal(out.text, 'Let me check.');
    assert.deepEqual(out.calls, [{ callId: 'c1', name: 'list_dir', input: { path: '.' } }]);
    assert.equal(outcome.finishReason, null);
  });

  it('malformed tool arguments fail with a coded error, not a silent drop', async () => {
    server.script = { events: [chunk({ tool_calls: [{ index: 0, id: 'bad', function: { name: 'edit', arguments: '{"path": ' } }] }), chunk({}, 'tool_calls')] };
    const { sink } = collector();
    await assert.rejects(
      sendChunksToSink(client.chatStream(buildChatRequest({ model: 'tool-model', messages: [{ role: ROLE_USER, content: [{ value: 'edit' }] }] })), sink),
      (error: unknown) => error instanceof ToolCallError && error.code === 'tool_call_arguments_invalid' && error.toolName === 'edit',
    );
  });

  it('a cancellation token aborts the HTTP request at once', async () => {
    server.script = { events: [chunk({ content: 'partial' })], hold: true };
    const emitter = new EventEmitter();
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (listener: (e: unknown) => unknown) => {
        emitter.on('cancel', listener);
        return { dispose: () => emitter.off('cancel', listener) };
      },
    };
    const abort = signalFromToken(token);
    const { out, sink } = collector();
    const done = sendChunksToSink(client.chatStream(buildChatRequest({ model: 'tool-model', messages: [{ role: ROLE_USER, content: [{ value: 'go' }] }] }), { signal: abort.signal }), {
      ...sink,
      text: (v) => {
        sink.text(v);
        token.isCancellationRequested = true;
        emitter.emit('cancel', undefined);
      },
    });
    await assert.rejects(done, (error: unknown) => (error as { family?: string }).family === 'aborted');
    await server.clientLeft; // the upstream saw the connection close
    assert.equal(out.text, 'partial');
    abort.dispose();
  });
});

describe('lm streaming through the bundled gateway (echo model)', () => {
  const echo = useEchoGateway();

  it('streams the answer and reasoning of a converted conversation', async () => {
    const request = buildChatRequest({
      model: 'echo',
      messages: [
        { role: ROLE_USER, content: [{ value: 'first question' }] },
        { role: ROLE_ASSISTANT, content: [{ value: 'You said: first question' }] },
        { role: ROLE_USER, content: [{ value: 'please think it over' }] },
      ],
    });
    const { out, sink } = collector();
    const outcome = await sendChunksToSink(echo.client.chatStream(request), sink);
    assert.equal(out.text, 'You said: please think it over');
    assert.match(out.thinking, /^You asked me to think\./);
    assert.deepEqual(out.calls, []);
    assert.equal(outcome.finishReason, 'stop');
  });

  it('round-trips a tool call: VS Code tools -> tool call part -> tool result -> final text', async () => {
    // VS Code-style tool definitions (LanguageModelChatTool) and an Agent-mode user message, its text wrapped in context tags.
    const tools = [
      { name: 'copilot_readFile', description: 'Read a file', inputSchema: { type: 'object', properties: { filePath: { type: 'string' }, startLine: { type: 'number' } }, required: ['filePath'] } },
      { name: 'copilot_listDirectory', description: 'List a folder', inputSchema: {} },
    ];
    const ask = { role: ROLE_USER, content: [{ value: '<context>\nThe current date is today.\n</context>\n' }, { value: '<userRequest>\ncall copilot_readFile {"filePath": "/work/a b.ts", "startLine": 3}\n</userRequest>' }] };
    const first = collector();
    const firstOutcome = await sendChunksToSink(echo.client.chatStream(buildChatRequest({ model: 'echo', messages: [ask], tools })), first.sink);
    assert.equal(firstOutcome.finishReason, 'tool_calls');
    assert.equal(first.out.text, '');
    assert.equal(first.out.calls.length, 1);
    const call = first.out.calls[0]!;
    assert.equal(call.name, 'copilot_readFile');
    assert.deepEqual(call.input, { filePath: '/work/a b.ts', startLine: 3 });
    assert.ok(call.callId.length > 0);

    // What VS Code sends next: the assistant's LanguageModelToolCallPart, then a LanguageModelToolResultPart.
    const followUp = buildChatRequest({
      model: 'echo',
      tools,
      messages: [
        ask,
        { role: ROLE_ASSISTANT, content: [{ callId: call.callId, name: call.name, input: call.input }] },
        { role: ROLE_USER, content: [{ callId: call.callId, content: [{ value: 'line 3: export const answer = 42;' }] }] },
      ],
    });
    const second = collector();
    const secondOutcome = await sendChunksToSink(echo.client.chatStream(followUp), second.sink);
    assert.equal(secondOutcome.finishReason, 'stop');
    assert.deepEqual(second.out.calls, []);
    assert.equal(second.out.text, 'Tool copilot_readFile returned: line 3: export const answer = 42;');
  });
});
