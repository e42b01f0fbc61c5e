// The built-in echo channel: OpenAI shapes, exact usage, the cap, reasoning, abort.
import assert from 'node:assert/strict';
import { post, SseReader, startHarness, type Harness } from './harness.ts';

const echo = { type: 'echo', apiKey: null, models: { 'echo-1': 'echo-1' } } as const;
const say = (content: string, extra: object = {}) => ({ model: 'echo-1', messages: [{ role: 'system', content: 'be nice' }, { role: 'user', content }], ...extra });

describe('relay: echo channel', () => {
  let harness: Harness | undefined;
  const start = async (echoDelayMs = 0) => (harness = await startHarness({ channels: [echo], echoDelayMs }));
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('answers non-streamed in the chat.completion shape with exact usage', async () => {
    const h = await start();
    const response = await post(h, say('hello there world'));
    assert.equal(response.status, 200);
    const body = (await response.json()) as any;
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.model, 'echo-1');
    assert.deepEqual(body.choices, [{ index: 0, message: { role: 'assistant', content: 'You said: hello there world' }, finish_reason: 'stop' }]);
    // prompt: 2 + 3 words, plus one per message; completion: "You", " said:", " hello", " there", " world"
    assert.deepEqual(body.usage, { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12, cost: 0 }, 'the cost is said, free here');
    const log = await h.log(1);
    assert.deepEqual([log.promptTokens, log.completionTokens, log.usageEstimated], [7, 5, false]);
  });

  it('streams token by token, with the usage chunk only when asked', async () => {
    const h = await start();
    const plain = await new SseReader(await post(h, say('a b', { stream: true }))).all();
    assert.equal(plain.at(-1), '[DONE]');
    const chunks = plain.slice(0, -1).map((d) => JSON.parse(d));
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'echo-1' && !c.usage));
    assert.deepEqual(chunks.map((c) => c.choices[0].delta.content ?? null), ['', 'You', ' said:', ' a', ' b', null]);
    assert.equal(chunks.at(-1).choices[0].finish_reason, 'stop');

    const withUsage = await new SseReader(await post(h, say('a b', { stream: true, stream_options: { include_usage: true } }))).all();
    const usage = JSON.parse(withUsage.at(-2)!);
    assert.deepEqual(usage.choices, []);
    assert.deepEqual(usage.usage, { prompt_tokens: 6, completion_tokens: 4, total_tokens: 10, cost: 0 });
  });

  it('honours the completion cap with finish_reason "length"', async () => {
    const h = await start();
    await h.admin.setModel({ name: 'echo-1', kind: 'chat', inputPrice: 0, outputPrice: 1_000_000, imagePrice: null, contextLength: 3, toolCalling: null });
    const body = (await (await post(h, say('one two three four'))).json()) as any;
    assert.equal(body.choices[0].message.content, 'You said: one');
    assert.equal(body.choices[0].finish_reason, 'length');
    assert.equal(body.usage.completion_tokens, 3);
    const streamed = await new SseReader(await post(h, say('one two three four', { stream: true, max_tokens: 2 }))).all();
    const last = JSON.parse(streamed.at(-2)!);
    assert.equal(last.choices[0].finish_reason, 'length');
  });

  it('reasons first when asked to think', async () => {
    const h = await start();
    const body = (await (await post(h, say('Think about it'))).json()) as any;
    assert.equal(typeof body.choices[0].message.reasoning_content, 'string');
    assert.equal(body.choices[0].message.content, 'You said: Think about it');
    const reader = new SseReader(await post(h, say('think', { stream: true })));
    const chunks = (await reader.all()).slice(0, -1).map((d) => JSON.parse(d));
    const firstReasoning = chunks.findIndex((c) => c.choices[0].delta.reasoning_content);
    const firstContent = chunks.findIndex((c) => c.choices[0].delta.content);
    assert.ok(firstReasoning > 0 && firstReasoning < firstContent);
  });

  it('streams a requested tool call in OpenAI\'s delta shapes, with exact usage', async () => {
    const h = await start();
    const tools = [{ type: 'function', function: { name: 'now', description: 'the time', parameters: { type: 'object', properties: {} } } }];
    const data = await new SseReader(await post(h, say('call now {"zone":"Europe/Paris"}', { stream: true, tools, stream_options: { include_usage: true } }))).all();
    assert.equal(data.at(-1), '[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    assert.deepEqual(chunks[0].choices[0].delta, { role: 'assistant', content: null });
    assert.deepEqual(chunks[1].choices[0].delta, { tool_calls: [{ index: 0, id: 'call_echo_2', type: 'function', function: { name: 'now', arguments: '' } }] });
    const pieces = chunks.slice(2, -2).map((c) => c.choices[0].delta.tool_calls[0]);
    assert.ok(pieces.length > 1 && pieces.every((p) => p.index === 0 && Object.keys(p).join() === 'index,function'));
    assert.equal(pieces.map((p) => p.function.arguments).join(''), '{"zone":"Europe/Paris"}');
    assert.deepEqual(chunks.at(-2).choices[0], { index: 0, delta: {}, finish_reason: 'tool_calls' });
    assert.deepEqual(chunks.at(-1).usage, { prompt_tokens: 7, completion_tokens: 1 + pieces.length, total_tokens: 8 + pieces.length, cost: 0 });
    const log = await h.log(1);
    assert.deepEqual([log.promptTokens, log.completionTokens, log.usageEstimated], [7, 1 + pieces.length, false]);
  });

  it('stops when the client goes away, and reports the tokens it produced', async () => {
    const h = await start(20);
    const controller = new AbortController();
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const reader = new SseReader(await post(h, say(words, { stream: true }), controller.signal));
    await reader.until(() => reader.content().includes('said:'));
    controller.abort();
    const log = await h.log(1);
    assert.equal(log.errorCode, 'client_aborted');
    assert.equal(log.usageEstimated, false);
    assert.ok(log.completionTokens >= 2 && log.completionTokens < 202);
  });
});
