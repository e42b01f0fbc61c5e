// The OpenAI Responses API through the gateway (what the Codex CLI speaks), with the official openai SDK
// as an unchanged client: plain, streaming (the SDK's strict ResponseStream), a function-call round trip,
// on the echo model, an openai channel and an anthropic channel (both through chat), and an openai channel
// whose upstream has the Responses API (passed through as it came), charged exactly.
import assert from 'node:assert/strict';
import OpenAI, { BadRequestError } from 'openai';
import { costOf } from '../../../src/gateway/accounts/money.ts';
import { FAKE_PROMPT_TOKENS, type FakeUpstream } from '../../support/fakeUpstream.ts';
import { FAKE_ENCRYPTED_REASONING } from '../../support/fakeResponses.ts';
import { newChannel } from '../../support/channels.ts';
import { call, chatModel, logOfRequest, useGatewayWithUpstream, type Started } from './helpers.ts';

const INPUT = 1_250_000;
const OUTPUT = 10_000_000;

describe('the OpenAI Responses API (/v1/responses)', () => {
  const suite = useGatewayWithUpstream(async (admin, upstream) => {
    await admin.addChannel(newChannel({ name: 'oai', baseUrl: upstream.url, models: { 'gpt-up': 'gpt-5' } }));
    await admin.addChannel(newChannel({ name: 'ant', type: 'anthropic', baseUrl: upstream.url, models: { 'claude-up': 'claude-opus' } }));
    await admin.addChannel(newChannel({ name: 'native', baseUrl: upstream.url, responsesApi: true, models: { 'gpt-native': 'gpt-5' } }));
    for (const name of ['gpt-up', 'claude-up', 'gpt-native']) await admin.setModel(chatModel(name, INPUT, OUTPUT, { toolCalling: true }));
  });
  let t: Started;
  let upstream: FakeUpstream;
  let sdk: OpenAI;
  before(() => ({ t, upstream, openai: sdk } = suite));

  const logOf = (requestId: string | null) => logOfRequest(t.admin(), requestId);
  /** A raw Responses stream's events, in order. */
  const eventsOf = (text: string) => text.split('\n\n').filter(Boolean).map((block) => JSON.parse(block.split('\ndata: ')[1]!) as { type: string; sequence_number: number; response?: { model: string } });

  it('echo: a plain answer with output_text and usage, charged', async () => {
    const { data: response, response: raw } = await sdk.responses.create({ model: 'echo', instructions: 'Be kind.', input: 'hello there' }).withResponse();
    assert.equal(response.object, 'response');
    assert.equal(response.status, 'completed');
    assert.equal(response.model, 'echo');
    assert.equal(response.output_text, 'You said: hello there');
    assert.ok(response.usage && response.usage.output_tokens > 0);
    const log = await logOf(raw.headers.get('x-request-id'));
    assert.deepEqual([log.path, log.promptTokens, log.completionTokens], ['/v1/responses', response.usage.input_tokens, response.usage.output_tokens]);
  });

  it('echo: reasoning streams as a reasoning item with its summary, before the message', async () => {
    const stream = sdk.responses.stream({ model: 'echo', input: 'think about it' });
    const final = await stream.finalResponse();
    assert.deepEqual(final.output.map((item) => item.type), ['reasoning', 'message']);
    const reasoning = final.output[0]!;
    assert.ok(reasoning.type === 'reasoning' && reasoning.summary[0]!.text.length > 0);
    assert.equal(final.output_text, 'You said: think about it');
  });

  it('echo: an answer the cap cuts off is incomplete, and so is its last item, streamed and not', async () => {
    const whole = await sdk.responses.create({ model: 'echo', input: 'a long enough question to be cut', max_output_tokens: 2 });
    assert.deepEqual([whole.status, whole.incomplete_details?.reason], ['incomplete', 'max_output_tokens']);
    assert.deepEqual(whole.output.map((item) => [item.type, (item as { status?: string }).status]), [['message', 'incomplete']]);
    const stream = sdk.responses.stream({ model: 'echo', input: 'a long enough question to be cut', max_output_tokens: 2 });
    const done: string[] = [];
    for await (const event of stream) if (event.type === 'response.output_item.done') done.push(`${event.item.type} ${(event.item as { status?: string }).status}`);
    const final = await stream.finalResponse();
    assert.equal(final.status, 'incomplete');
    assert.deepEqual(done, ['message incomplete']);
    assert.deepEqual(final.output.map((item) => (item as { status?: string }).status), ['incomplete']);
  });

  it('an openai channel: converted to chat (instructions as system, max_output_tokens as the cap) and back', async () => {
    const { data: response, response: raw } = await sdk.responses
      .create({ model: 'gpt-up', instructions: 'Sys.', input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], max_output_tokens: 50 })
      .withResponse();
    assert.equal(response.output_text, 'w1 w2 w3');
    assert.deepEqual(response.usage?.input_tokens, FAKE_PROMPT_TOKENS);
    const sent = upstream.requests.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.deepEqual(sent.body.messages, [{ role: 'system', content: 'Sys.' }, { role: 'user', content: 'hi' }]);
    assert.deepEqual([sent.body.model, sent.body.max_tokens], ['gpt-5', 50]);
    assert.equal((await logOf(raw.headers.get('x-request-id'))).cost, costOf(FAKE_PROMPT_TOKENS, 3, INPUT, OUTPUT));
  });

  it("an openai channel: instructions and the developer items before the user's turn go as one system message, as open models' chat templates need", async () => {
    // What the Codex CLI sends: instructions, a developer message (its permissions), then the user's turn.
    await sdk.responses.create({
      model: 'gpt-up',
      instructions: 'You are a coding agent.',
      input: [
        { role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: workspace-write.' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
        { role: 'developer', content: 'Later note.' },
      ],
    });
    assert.deepEqual(upstream.requests.at(-1)!.body.messages, [
      { role: 'system', content: 'You are a coding agent.\n\nSandbox: workspace-write.' },
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'Later note.' },
    ]);
  });

  it('streams the Responses event sequence, accepted by the SDK\'s strict ResponseStream', async () => {
    const stream = sdk.responses.stream({ model: 'gpt-up', input: 'stream please' });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();
    assert.equal(final.output_text, 'w1 w2 w3');
    assert.equal(final.status, 'completed');
    assert.equal(final.usage?.output_tokens, 3);
    assert.deepEqual(types, [
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added',
      'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
    ]);
    // No stream_options for a Responses client: the gateway asks its chat upstream for usage itself.
    assert.equal(upstream.requests.at(-1)!.body.stream_options.include_usage, true);
  });

  it('a chat stream that breaks mid-way ends with error and response.failed, numbered on from the converted events', async () => {
    upstream.behaviour = { breakAfter: 2, breakWith: 'end' };
    const raw = await call(t.gw, 'POST', '/v1/responses', { key: t.key, body: { model: 'gpt-up', input: 'stream please', stream: true } });
    const events = eventsOf(raw.text);
    assert.deepEqual(events.slice(-2).map((e) => e.type), ['error', 'response.failed'], raw.text.slice(-400));
    assert.ok(events.some((e) => e.type === 'response.output_text.delta'), 'it broke after text was sent');
    assert.deepEqual(events.map((e) => e.sequence_number), events.map((_, i) => i));
  });

  it('a function-call round trip, streamed: arguments deltas, then function_call_output goes up as a tool message after its call', async () => {
    upstream.behaviour = { toolCall: { id: 'call_42', name: 'shell', arguments: '{"command":["ls"]}' } };
    const tools: OpenAI.Responses.FunctionTool[] = [{ type: 'function', name: 'shell', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'array' } } }, strict: false }];
    const stream = sdk.responses.stream({ model: 'gpt-up', input: 'list files', tools });
    let args = '';
    for await (const event of stream) if (event.type === 'response.function_call_arguments.delta') args += event.delta;
    const first = await stream.finalResponse();
    const call = first.output.find((item) => item.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    assert.deepEqual([call.name, call.call_id, call.arguments, args], ['shell', 'call_42', '{"command":["ls"]}', '{"command":["ls"]}']);
    assert.deepEqual(upstream.requests.at(-1)!.body.tools, [{ type: 'function', function: { name: 'shell', description: 'Run a command', parameters: tools[0]!.parameters, strict: false } }]);

    upstream.behaviour = { pieces: ['Two files.'] };
    const second = await sdk.responses.create({
      model: 'gpt-up', tools,
      input: [
        { role: 'user', content: 'list files' },
        { type: 'function_call', call_id: 'call_42', name: 'shell', arguments: '{"command":["ls"]}' },
        { type: 'function_call_output', call_id: 'call_42', output: 'a.ts\nb.ts' },
      ],
    });
    assert.equal(second.output_text, 'Two files.');
    assert.deepEqual(upstream.requests.at(-1)!.body.messages, [
      { role: 'user', content: 'list files' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_42', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } }] },
      { role: 'tool', tool_call_id: 'call_42', content: 'a.ts\nb.ts' },
    ]);
  });

  it('a freeform (custom) tool, as the Codex CLI offers apply_patch: a function of one string upstream, a custom_tool_call back, streamed and not, and its output in the next turn', async () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch';
    upstream.behaviour = { toolCall: { id: 'call_7', name: 'apply_patch', arguments: JSON.stringify({ input: patch }) } };
    const tools: OpenAI.Responses.CustomTool[] = [{ type: 'custom', name: 'apply_patch', description: 'Edit files', format: { type: 'grammar', syntax: 'lark', definition: 'start: /(.|\\n)+/' } }];
    const whole = await sdk.responses.create({ model: 'gpt-up', input: 'add a.txt', tools });
    const call = whole.output.find((item) => item.type === 'custom_tool_call');
    assert.ok(call && call.type === 'custom_tool_call', JSON.stringify(whole.output));
    assert.deepEqual([call.name, call.call_id, call.input], ['apply_patch', 'call_7', patch]);
    const sent = upstream.requests.at(-1)!.body.tools as { function: { name: string; description: string; parameters: { properties: { input: { description: string } }; required: string[] } } }[];
    assert.deepEqual([sent[0]!.function.name, sent[0]!.function.description, sent[0]!.function.parameters.required], ['apply_patch', 'Edit files', ['input']]);
    assert.match(sent[0]!.function.parameters.properties.input.description, /lark grammar:\nstart:/, 'the grammar is given to the model in words');

    const stream = sdk.responses.stream({ model: 'gpt-up', input: 'add a.txt', tools });
    let streamed = '';
    const kinds: string[] = [];
    for await (const event of stream) {
      kinds.push(event.type);
      if (event.type === 'response.custom_tool_call_input.delta') streamed += event.delta;
    }
    assert.equal(streamed, patch);
    assert.ok(kinds.includes('response.custom_tool_call_input.done') && !kinds.includes('response.function_call_arguments.delta'), kinds.join(' '));
    assert.equal((await stream.finalResponse()).output.find((item) => item.type === 'custom_tool_call')?.type, 'custom_tool_call');

    upstream.behaviour = { pieces: ['Added.'] };
    const next = await sdk.responses.create({
      model: 'gpt-up', tools,
      input: [
        { role: 'user', content: 'add a.txt' },
        { type: 'custom_tool_call', call_id: 'call_7', name: 'apply_patch', input: patch },
        { type: 'custom_tool_call_output', call_id: 'call_7', output: 'Done!' },
      ],
    });
    assert.equal(next.output_text, 'Added.');
    assert.deepEqual(upstream.requests.at(-1)!.body.messages, [
      { role: 'user', content: 'add a.txt' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'apply_patch', arguments: JSON.stringify({ input: patch }) } }] },
      { role: 'tool', tool_call_id: 'call_7', content: 'Done!' },
    ]);
  });

  it('an anthropic channel: Responses through chat to Messages and back, streamed and not', async () => {
    const plain = await sdk.responses.create({ model: 'claude-up', instructions: 'Sys.', input: 'hi' });
    assert.equal(plain.output_text, 'w1 w2 w3');
    const sent = upstream.requests.at(-1)!;
    assert.equal(sent.path, '/v1/messages');
    assert.deepEqual([sent.body.system, sent.body.messages], ['Sys.', [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]]);
    upstream.behaviour = { toolCall: { id: 'toolu_5', name: 'shell', arguments: '{"command":["pwd"]}' } };
    const stream = sdk.responses.stream({ model: 'claude-up', input: 'where am I', tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' }, strict: false }] });
    const final = await stream.finalResponse();
    const call = final.output.find((item) => item.type === 'function_call');
    assert.ok(call && call.type === 'function_call');
    assert.deepEqual([call.call_id, call.name, call.arguments], ['toolu_5', 'shell', '{"command":["pwd"]}']);
    assert.equal(final.usage?.input_tokens, 11);
  });

  describe('an upstream with the Responses API: passed through as it came', () => {
    const codexLike = {
      model: 'gpt-native', instructions: 'You are a coding agent.', store: false, include: ['reasoning.encrypted_content'],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the bug' }] },
        { type: 'reasoning', id: 'rs_prev', summary: [], encrypted_content: FAKE_ENCRYPTED_REASONING },
      ],
      tools: [{ type: 'web_search' }, { type: 'function', name: 'shell', parameters: { type: 'object' }, strict: false }],
      reasoning: { effort: 'medium', summary: 'auto' }, max_output_tokens: 4000,
    };

    it('the body goes up unchanged but for the model name; the answer comes back unchanged but for it, reasoning included', async () => {
      const { data: response, response: raw } = await sdk.responses.create(codexLike as OpenAI.Responses.ResponseCreateParamsNonStreaming).withResponse();
      const sent = upstream.requests.at(-1)!;
      assert.equal(sent.path, '/v1/responses');
      assert.deepEqual(sent.body, { ...codexLike, model: 'gpt-5' }, 'built-in tools, reasoning items and include reach an upstream that has them');
      assert.equal(response.model, 'gpt-native');
      assert.deepEqual(response.output.map((item) => item.type), ['reasoning', 'message']);
      assert.equal((response.output[0] as { encrypted_content?: string }).encrypted_content, FAKE_ENCRYPTED_REASONING);
      assert.equal(response.output_text, 'w1 w2 w3');
      const log = await logOf(raw.headers.get('x-request-id'));
      assert.deepEqual([log.promptTokens, log.completionTokens, log.usageEstimated, log.cost], [11, 5, false, costOf(11, 5, INPUT, OUTPUT)]);
    });

    it('no cap asked: the account\'s cap goes up as max_output_tokens, and no stream_options', async () => {
      await sdk.responses.create({ model: 'gpt-native', input: 'hi', stream: true }).then(async (stream) => {
        for await (const _ of stream) void _;
      });
      const sent = upstream.requests.at(-1)!.body;
      assert.equal(typeof sent.max_output_tokens, 'number');
      assert.equal(sent.stream_options, undefined);
    });

    it('streams every upstream event as it came, with the platform model name; charged from response.completed', async () => {
      const raw = await call(t.gw, 'POST', '/v1/responses', { key: t.key, body: { model: 'gpt-native', input: 'stream please', stream: true } });
      const events = eventsOf(raw.text);
      assert.deepEqual(events.map((e) => e.type), [
        'response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.output_item.added',
        'response.content_part.added', 'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta',
        'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
      ]);
      assert.deepEqual(events.map((e) => e.sequence_number), events.map((_, i) => i), 'the upstream\'s own sequence numbers');
      assert.ok(events.filter((e) => e.response).every((e) => e.response!.model === 'gpt-native'));
      assert.ok(raw.text.includes(FAKE_ENCRYPTED_REASONING));
      const log = await logOf(raw.headers.get('x-request-id'));
      assert.deepEqual([log.completionTokens, log.usageEstimated, log.cost], [5, false, costOf(11, 5, INPUT, OUTPUT)]);
    });

    it('a stream cut before response.completed is charged an estimate of what it streamed (marked so), never zero', async () => {
      upstream.behaviour = { breakAfter: 2, breakWith: 'end' };
      const raw = await call(t.gw, 'POST', '/v1/responses', { key: t.key, body: { model: 'gpt-native', input: 'stream please', stream: true } });
      assert.match(raw.text, /event: error/);
      assert.doesNotMatch(raw.text, /event: response\.completed/);
      assert.match(raw.text, /stream ended before its end \(response\.completed\)/, 'the error names the event that never came');
      // Then response.failed, the end a Responses client waits for (else it takes the stream for a dropped connection).
      const failed = /event: response\.failed\ndata: (.*)\n\n$/.exec(raw.text);
      assert.ok(failed, raw.text.slice(-400));
      const event = JSON.parse(failed[1]!) as { response: { status: string; error: { code: string; message: string } } };
      assert.deepEqual([event.response.status, event.response.error.code], ['failed', 'upstream_error']);
      const events = eventsOf(raw.text);
      assert.deepEqual(events.slice(-2).map((e) => e.type), ['error', 'response.failed']);
      assert.deepEqual(events.map((e) => e.sequence_number), events.map((_, i) => i), 'the gateway\'s error events continue the upstream\'s numbering');
      const log = await logOf(raw.headers.get('x-request-id'));
      assert.equal(log.usageEstimated, true);
      assert.ok(log.completionTokens > 0 && log.cost > 0);
    });

    it('an upstream that fails first: the next channel serves it (converted to chat there)', async () => {
      const admin = t.admin();
      await admin.addChannel(newChannel({ name: 'native-backup', baseUrl: upstream.url, priority: -1, models: { 'gpt-native': 'gpt-4o' } }));
      upstream.behaviour = (request) => (request.path === '/v1/responses' ? { status: 503 } : {});
      try {
        const response = await sdk.responses.create({ model: 'gpt-native', input: 'hi' });
        assert.equal(response.output_text, 'w1 w2 w3');
        assert.deepEqual(upstream.requests.slice(-2).map((r) => r.path), ['/v1/responses', '/v1/chat/completions']);
      } finally {
        await admin.removeChannel('native-backup');
      }
    });
  });

  it('refuses what it cannot serve with a clear 400: previous_response_id, conversation, forcing a built-in tool on a chat upstream', async () => {
    await assert.rejects(sdk.responses.create({ model: 'echo', input: 'x', previous_response_id: 'resp_123' }), (e: unknown) => e instanceof BadRequestError && /previous_response_id/.test(e.message));
    // A conversation the upstream holds is history too: refused on every channel (passed through, its prompt would be more than was reserved).
    for (const model of ['echo', 'gpt-up']) {
      await assert.rejects(sdk.responses.create({ model, input: 'x', conversation: 'conv_689667905b048191' }), (e: unknown) => e instanceof BadRequestError && /conversation: this gateway keeps no conversations/.test(e.message), model);
    }
    await assert.rejects(
      sdk.responses.create({ model: 'gpt-up', input: 'x', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }], tool_choice: { type: 'file_search' } }),
      (e: unknown) => e instanceof BadRequestError && /file_search/.test(e.message),
    );
  });

  it('a built-in tool merely offered is left out for a chat upstream (the Codex CLI always offers web_search)', async () => {
    const response = await sdk.responses.create({ model: 'gpt-up', input: 'x', tools: [{ type: 'web_search' }, { type: 'function', name: 'f', parameters: { type: 'object' }, strict: false }] });
    assert.equal(response.output_text, 'w1 w2 w3');
    assert.deepEqual(upstream.requests.at(-1)!.body.tools.map((tool: { function: { name: string } }) => tool.function.name), ['f']);
    await sdk.responses.create({ model: 'gpt-up', input: 'x', tools: [{ type: 'web_search' }] });
    assert.equal(upstream.requests.at(-1)!.body.tools, undefined, 'no empty tool list goes up');
  });
});
