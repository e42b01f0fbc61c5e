// The chat completions <-> Messages conversions (relay/formats/chatMessages), each way and round trip:
// requests, whole answers and streams; and the anthropic provider's body and URL.
import assert from 'node:assert/strict';
import type { ChatRequest, MessagesRequest } from '../../../src/contract/index.ts';
import { messagesBody, messagesUrl } from '../../../src/gateway/providers/anthropic/attempt.ts';
import { chatAnswerToMessages, messagesAnswerToChat } from '../../../src/gateway/relay/formats/chatMessages/answer.ts';
import { chatToMessagesRequest, messagesToChatRequest } from '../../../src/gateway/relay/formats/chatMessages/request.ts';
import { chatToMessagesStream, messagesToChatStream } from '../../../src/gateway/relay/formats/chatMessages/stream.ts';
import { ConversionError } from '../../../src/gateway/relay/formats/types.ts';
import { cutAnswer } from '../../../src/gateway/relay/formats/cutAnswer.ts';
import { responsesToChatRequest } from '../../../src/gateway/relay/formats/chatResponses/request.ts';
import { messagesBlockChars } from '../../../src/gateway/relay/estimate.ts';
import type { RelayRequest, RelayUsage } from '../../../src/gateway/relay/types.ts';
import { relayChannel } from '../../support/channels.ts';

/** A conversation with everything both formats share: system, images, a tool call and its result, tools, tool choice, stops. */
const MESSAGES: MessagesRequest = {
  model: 'm',
  max_tokens: 100,
  system: 'You are terse.',
  stop_sequences: ['END'],
  tools: [{ name: 'get_weather', description: 'Weather now', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
  tool_choice: { type: 'auto' },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '22 C' }, { type: 'text', text: 'Thanks' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Sunny, 22 C.' }] },
    { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] },
  ],
};

const usage: RelayUsage = { promptTokens: 20, completionTokens: 7, estimated: false, cacheReadTokens: 5, cacheWriteTokens: 3 };

function request(operation: 'chat' | 'messages', body: object, extra: Partial<RelayRequest> = {}): RelayRequest {
  return { operation, body, model: 'plat', requestId: 'req1', stream: true, clientWantsUsage: true, maxCompletionTokens: null, anthropicHeaders: {}, ...extra } as unknown as RelayRequest;
}

/** A shaper's SSE text, as [event name or null, parsed data] pairs. */
function events(text: string): [string | null, any][] {
  return text.split('\n\n').filter(Boolean).map((block) => {
    const name = /^event: (.*)$/m.exec(block)?.[1] ?? null;
    const data = /^data: (.*)$/m.exec(block)![1]!;
    return [name, data === '[DONE]' ? '[DONE]' : JSON.parse(data)];
  });
}

const pick = (sent: { max_tokens: number; thinking: unknown }) => [sent.max_tokens, sent.thinking];

describe('chat completions <-> Messages', () => {
  describe('requests', () => {
    it('Messages -> chat: system first, tool results as tool messages right after their call, images as image_url, tools and choice mapped', () => {
      const chat = messagesToChatRequest(MESSAGES);
      assert.deepEqual(chat['messages'], [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
        { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: '22 C' },
        { role: 'user', content: 'Thanks' },
        { role: 'assistant', content: 'Sunny, 22 C.' },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
      ]);
      assert.deepEqual(chat['tools'], [{ type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: MESSAGES.tools![0]!['input_schema'] } }]);
      assert.deepEqual([chat['tool_choice'], chat['stop'], chat['max_tokens']], ['auto', ['END'], 100]);
    });

    it('round trip Messages -> chat -> Messages keeps every turn, block and tool pair in order', () => {
      const back = chatToMessagesRequest(messagesToChatRequest(MESSAGES) as ChatRequest, 100);
      assert.equal(back['system'], MESSAGES.system);
      assert.deepEqual(back['tools'], MESSAGES.tools);
      assert.deepEqual(back['tool_choice'], MESSAGES['tool_choice']);
      assert.deepEqual(back['stop_sequences'], MESSAGES.stop_sequences);
      assert.deepEqual(back['messages'], MESSAGES.messages);
    });

    it('round trip chat -> Messages -> chat keeps parallel tool calls and their results', () => {
      const chat = {
        model: 'm',
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'two lookups' },
          { role: 'assistant', content: null, tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
            { id: 'c2', type: 'function', function: { name: 'b', arguments: '{}' } },
          ] },
          { role: 'tool', tool_call_id: 'c1', content: 'one' },
          { role: 'tool', tool_call_id: 'c2', content: 'two' },
        ],
      } as ChatRequest;
      const messages = chatToMessagesRequest(chat, 50);
      assert.deepEqual((messages['messages'] as { role: string }[]).map((m) => m.role), ['user', 'assistant', 'user'], 'both results in one user turn');
      assert.deepEqual(messagesToChatRequest({ ...(messages as MessagesRequest) })['messages'], chat.messages);
    });

    it('Messages -> chat: a system message within the conversation (what Claude Code sends) stays in its place, text only', () => {
      const mid: MessagesRequest = {
        model: 'm',
        max_tokens: 10,
        system: 'S',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'system', content: [{ type: 'text', text: '# Environment' }, { type: 'text', text: 'cwd: /work' }] },
          { role: 'assistant', content: 'hello' },
          { role: 'user', content: 'and now?' },
          { role: 'system', content: 'Be brief.' },
          { role: 'system', content: [] },
        ],
      };
      assert.deepEqual(messagesToChatRequest(mid)['messages'], [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'hi' },
        { role: 'system', content: '# Environment\n\ncwd: /work' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'and now?' },
        { role: 'system', content: 'Be brief.' },
      ]);
      const image = { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } };
      assert.throws(() => messagesToChatRequest({ ...mid, messages: [{ role: 'user', content: 'x' }, { role: 'system', content: [image] }] }), /messages\.1: a "image" block/);
      // Back to Messages, every system message is gathered in `system`: older Claude models refuse one within the conversation.
      const back = chatToMessagesRequest(messagesToChatRequest(mid) as ChatRequest, 10);
      assert.equal(back['system'], 'S\n\n# Environment\n\ncwd: /work\n\nBe brief.');
      assert.deepEqual((back['messages'] as { role: string }[]).map((m) => m.role), ['user', 'assistant', 'user']);
    });

    it('never sends an empty text block, and refuses what cannot be converted with a clear error', () => {
      const out = chatToMessagesRequest({ model: 'm', messages: [{ role: 'user', content: '' }, { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] }] } as ChatRequest, 10);
      assert.deepEqual(out['messages'], [{ role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'f', input: {} }] }]);
      assert.throws(() => messagesToChatRequest({ ...MESSAGES, tools: [{ type: 'bash_20250124', name: 'bash' }] }), ConversionError);
      assert.throws(() => messagesToChatRequest({ ...MESSAGES, messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] }), /"document" block/);
      assert.throws(() => chatToMessagesRequest({ model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio' }] }] } as ChatRequest, 10), /"input_audio" part/);
    });

    it('refuses the chat fields a Messages upstream would silently ignore: n > 1, logprobs, a response_format it cannot ask for', () => {
      const chat = (extra: object) => ({ model: 'm', messages: [{ role: 'user', content: 'x' }], ...extra }) as ChatRequest;
      assert.throws(() => chatToMessagesRequest(chat({ n: 2 }), 10), /^ConversionError: n: /);
      assert.throws(() => chatToMessagesRequest(chat({ logprobs: true }), 10), /logprobs/);
      assert.throws(() => chatToMessagesRequest(chat({ top_logprobs: 3 }), 10), /logprobs/);
      assert.throws(() => chatToMessagesRequest(chat({ response_format: { type: 'grammar' } }), 10), /"grammar" cannot be enforced/);
      assert.throws(() => chatToMessagesRequest(chat({ response_format: { type: 'json_schema', json_schema: { name: 's', schema: { type: 'array' } } } }), 10), /a schema of a JSON object/);
      for (const fine of [{ n: 1 }, { logprobs: false }, { response_format: { type: 'text' } }, { reasoning_effort: 'high' }]) {
        assert.equal((chatToMessagesRequest(chat(fine), 10)['messages'] as object[]).length, 1);
      }
    });

    it('a JSON response_format becomes a tool the model must call, its schema the input; with tools of the client\'s own, any tool', () => {
      const chat = (extra: object) => ({ model: 'm', messages: [{ role: 'user', content: 'x' }], ...extra }) as ChatRequest;
      const schema = { type: 'object', properties: { answer: { type: 'integer' } }, required: ['answer'] };
      const sent = chatToMessagesRequest(chat({ response_format: { type: 'json_schema', json_schema: { name: 'math_answer', description: 'The result.', schema, strict: true } } }), 10);
      assert.deepEqual(sent['tools'], [{ name: 'math_answer', description: 'Write your whole answer as the input of this tool, in this JSON format. The result.', input_schema: schema }]);
      assert.deepEqual(sent['tool_choice'], { type: 'tool', name: 'math_answer', disable_parallel_tool_use: true });
      const loose = chatToMessagesRequest(chat({ response_format: { type: 'json_object' } }), 10);
      assert.deepEqual([(loose['tools'] as any[])[0].name, (loose['tools'] as any[])[0].input_schema, loose['tool_choice']], ['json_answer', { type: 'object' }, { type: 'tool', name: 'json_answer', disable_parallel_tool_use: true }]);
      const badName = chatToMessagesRequest(chat({ response_format: { type: 'json_schema', json_schema: { name: 'has spaces', schema } } }), 10);
      assert.equal((badName['tools'] as any[])[0].name, 'json_answer', 'a name no tool may have is replaced');
      const own = { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } };
      const format = { type: 'json_schema', json_schema: { name: 'out', schema } };
      const names = (body: object) => ((body as any)['tools'] as any[]).map((t) => t.name);
      const withOwn = chatToMessagesRequest(chat({ tools: [own], response_format: format }), 10);
      assert.deepEqual([names(withOwn), withOwn['tool_choice']], [['lookup', 'out'], { type: 'any' }]);
      assert.deepEqual(chatToMessagesRequest(chat({ tools: [own], tool_choice: 'auto', parallel_tool_calls: false, response_format: format }), 10)['tool_choice'], { type: 'any', disable_parallel_tool_use: true });
      assert.deepEqual(chatToMessagesRequest(chat({ tools: [own], tool_choice: { type: 'function', function: { name: 'lookup' } }, response_format: format }), 10)['tool_choice'], { type: 'tool', name: 'lookup' });
      assert.deepEqual(chatToMessagesRequest(chat({ tools: [own], tool_choice: 'none', response_format: format }), 10)['tool_choice'], { type: 'tool', name: 'out', disable_parallel_tool_use: true });
      // A format named like one of the client's tools gets a name of its own (the answer is read back by that name).
      const clash = { type: 'function', function: { name: 'json_answer', parameters: { type: 'object' } } };
      assert.deepEqual(names(chatToMessagesRequest(chat({ tools: [clash], response_format: { type: 'json_object' } }), 10)), ['json_answer', 'json_answer_2']);
      assert.deepEqual(names(chatToMessagesRequest(chat({ tools: [{ ...own, function: { name: 'out' } }], response_format: format }), 10)), ['out', 'out_2']);
      assert.doesNotThrow(() => chatToMessagesRequest(chat({ tools: 'none' as unknown as [], response_format: format }), 10), 'tools that are not a list are no tools');
    });

    it('the Responses API\'s text.format reaches the format\'s tool with its name and description', () => {
      const chat = responsesToChatRequest({ model: 'm', input: 'x', text: { format: { type: 'json_schema', name: 'plan', description: 'The steps.', schema: { type: 'object' }, strict: true } } } as never);
      assert.deepEqual(chat['response_format'], { type: 'json_schema', json_schema: { name: 'plan', description: 'The steps.', schema: { type: 'object' }, strict: true } });
      const tool = (chatToMessagesRequest(chat as ChatRequest, 10)['tools'] as any[])[0];
      assert.deepEqual([tool.name, tool.description], ['plan', 'Write your whole answer as the input of this tool, in this JSON format. The steps.']);
    });

    it('the call of the format\'s tool comes back as the content, whole and streamed, ending with "stop"; other calls stay calls', () => {
      const body = { model: 'm', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' } } } };
      const whole = messagesAnswerToChat({ id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_9', name: 'out', input: { answer: 42 } }], stop_reason: 'tool_use' }, 'plat', usage, 'out') as any;
      assert.deepEqual([whole.choices[0].message, whole.choices[0].finish_reason], [{ role: 'assistant', content: '{"answer":42}' }, 'stop']);
      const mixed = messagesAnswerToChat({ content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: {} }], stop_reason: 'tool_use' }, 'plat', usage, 'out') as any;
      assert.equal(mixed.choices[0].finish_reason, 'tool_calls');
      const shaper = messagesToChatStream(request('chat', body, { clientWantsUsage: false }));
      const upstream = [
        { type: 'message_start', message: { id: 'msg_2' } },
        { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'out', input: {} } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"ans' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'wer": 42}' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
        { type: 'message_stop' },
      ];
      const text = upstream.map((json) => shaper.event({ event: json.type, data: JSON.stringify(json), json })).join('') + shaper.finish(usage);
      const chunks = events(text).map(([, data]) => data).filter((c) => c !== '[DONE]');
      const deltas = chunks.map((c: any) => c.choices[0].delta);
      assert.equal(deltas.map((d: any) => d.content ?? '').join(''), '{"answer": 42}');
      assert.ok(deltas.every((d: any) => d.tool_calls === undefined), 'no tool call reaches the client');
      assert.equal(chunks.at(-1).choices[0].finish_reason, 'stop');

      // {} streams as no delta at all; a second call of the format's tool would spoil the JSON.
      const again = messagesToChatStream(request('chat', body, { clientWantsUsage: false }));
      const empty = [
        { type: 'message_start', message: { id: 'msg_3' } },
        { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't1', name: 'out', input: {} } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't2', name: 'out', input: {} } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"x":1}' } },
        { type: 'content_block_stop', index: 1 },
        { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
      ];
      const emptyText = empty.map((json) => again.event({ event: json.type, data: JSON.stringify(json), json })).join('') + again.finish(usage);
      const contents = events(emptyText).map(([, data]) => data).filter((c) => c !== '[DONE]').map((c: any) => c.choices[0].delta.content ?? '').join('');
      assert.equal(contents, '{}');
      const twice = messagesAnswerToChat({ content: [{ type: 'text', text: 'Here: ' }, { type: 'tool_use', id: 'a', name: 'out', input: { x: 1 } }, { type: 'tool_use', id: 'b', name: 'out', input: { x: 2 } }], stop_reason: 'tool_use' }, 'plat', usage, 'out') as any;
      assert.equal(twice.choices[0].message.content, '{"x":1}', 'the first call alone: words around it or a second call would spoil the JSON');
    });

    it('an answer that ran past the cap is cut as text, the format\'s JSON too; a usage-less answer is estimated from every block', () => {
      const long = { content: [{ type: 'tool_use', id: 'a', name: 'out', input: { story: 'x'.repeat(400) } }], stop_reason: 'tool_use', usage: { input_tokens: 5, output_tokens: 100 } };
      const cut = cutAnswer('messages', long, 100, 10, 'out')!;
      const chat = messagesAnswerToChat(cut, 'plat', usage, 'out') as any;
      assert.equal(chat.choices[0].finish_reason, 'length');
      assert.equal(chat.choices[0].message.content, JSON.stringify(long.content[0]!.input).slice(0, Math.floor(JSON.stringify(long.content[0]!.input).length / 10)));
      assert.equal(messagesBlockChars({ type: 'tool_use', name: 'out', input: { a: 1 } }), 3 + 7);
      assert.equal(messagesBlockChars({ type: 'thinking', thinking: 'hmm' }), 3);
    });

    it('a thinking budget the account\'s lower max_tokens would not leave room for is lowered below it, never under the least budget', () => {
      const ch = relayChannel({ type: 'anthropic' });
      const thinking = (budget: number, maxTokens: number, cap: number) =>
        JSON.parse(messagesBody(request('messages', { ...MESSAGES, max_tokens: maxTokens, thinking: { type: 'enabled', budget_tokens: budget } }, { maxCompletionTokens: cap }), ch));
      assert.deepEqual(pick(thinking(2000, 4000, 1295)), [1295, { type: 'enabled', budget_tokens: 1294 }]);
      assert.deepEqual(pick(thinking(2000, 4000, 3000)), [3000, { type: 'enabled', budget_tokens: 2000 }]);
      assert.deepEqual(pick(thinking(2000, 4000, 9000)), [4000, { type: 'enabled', budget_tokens: 2000 }]);
    });

    it('drops thinking blocks only toward an OpenAI-style upstream; the anthropic body keeps them as they came', () => {
      const thinking = { type: 'thinking', thinking: 'hmm', signature: 'sig/+==' };
      const body = { ...MESSAGES, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [thinking, { type: 'text', text: 'a' }] }, { role: 'user', content: 'q2' }] } as MessagesRequest;
      assert.deepEqual((messagesToChatRequest(body)['messages'] as object[])[2], { role: 'assistant', content: 'a' });
      const sent = JSON.parse(messagesBody(request('messages', body, { maxCompletionTokens: 40 }), relayChannel({ type: 'anthropic', models: { plat: 'claude-x' } })));
      assert.deepEqual(sent.messages[1].content[0], thinking);
      assert.deepEqual([sent.model, sent.max_tokens], ['claude-x', 40]);
    });

    it('a chat request on an anthropic channel gets max_tokens: the client\'s, capped by the account, else the cap', () => {
      const ch = relayChannel({ type: 'anthropic' });
      const chat = (extra: object) => ({ model: 'plat', messages: [{ role: 'user', content: 'x' }], ...extra });
      assert.equal(JSON.parse(messagesBody(request('chat', chat({ max_tokens: 30 }), { maxCompletionTokens: 100 }), ch)).max_tokens, 30);
      assert.equal(JSON.parse(messagesBody(request('chat', chat({ max_completion_tokens: 300 }), { maxCompletionTokens: 100 }), ch)).max_tokens, 100);
      assert.equal(JSON.parse(messagesBody(request('chat', chat({}), { maxCompletionTokens: 64 }), ch)).max_tokens, 64);
      assert.ok(JSON.parse(messagesBody(request('chat', chat({}), { maxCompletionTokens: null }), ch)).max_tokens > 0);
    });

    it('the Messages URL from a base URL written with or without /v1', () => {
      for (const base of ['https://api.anthropic.com', 'https://api.anthropic.com/', 'https://api.anthropic.com/v1', 'https://api.anthropic.com/v1/']) {
        assert.deepEqual(messagesUrl(base), { origin: 'https://api.anthropic.com', path: '/v1/messages' });
      }
      assert.deepEqual(messagesUrl('http://proxy:8/anthropic'), { origin: 'http://proxy:8', path: '/anthropic/v1/messages' });
    });
  });

  describe('answers', () => {
    it('chat -> Messages -> chat keeps text, reasoning, tool calls, the stop reason and usage (cache reads included)', () => {
      const chat = {
        id: 'x', object: 'chat.completion', created: 1, model: 'up',
        choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: 'Let me look.', reasoning_content: 'why', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] } }],
      };
      const messages = chatAnswerToMessages(chat, 'plat', usage);
      assert.deepEqual(messages['content'], [
        { type: 'thinking', thinking: 'why', signature: '' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'c1', name: 'f', input: { a: 1 } },
      ]);
      assert.equal(messages['stop_reason'], 'tool_use');
      assert.deepEqual(messages['usage'], { input_tokens: 12, output_tokens: 7, cache_read_input_tokens: 5, cache_creation_input_tokens: 3 });
      const back = messagesAnswerToChat(messages, 'plat', usage) as any;
      assert.deepEqual(back.choices[0].message, chat.choices[0]!.message);
      assert.equal(back.choices[0].finish_reason, 'tool_calls');
      assert.deepEqual(back.usage, { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27, prompt_tokens_details: { cached_tokens: 5 } });
    });

    it('an empty answer has no empty text block', () => {
      const messages = chatAnswerToMessages({ choices: [{ message: { role: 'assistant', content: '' }, finish_reason: 'length' }] }, 'plat', usage);
      assert.deepEqual([messages['content'], messages['stop_reason']], [[], 'max_tokens']);
    });

    it("a content of chunks (Mistral's Magistral): thinking chunks as the thinking block, text chunks as the text", () => {
      const content = [{ type: 'thinking', thinking: [{ type: 'text', text: 'Hmm.' }] }, { type: 'text', text: 'Hi.' }];
      const messages = chatAnswerToMessages({ choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }] }, 'plat', usage);
      assert.deepEqual(messages['content'], [{ type: 'thinking', thinking: 'Hmm.', signature: '' }, { type: 'text', text: 'Hi.' }]);
    });
  });

  describe('streams', () => {
    const chunk = (delta: object, finish: string | null = null) => {
      const json = { id: 'c', object: 'chat.completion.chunk', model: 'up', choices: [{ index: 0, delta, finish_reason: finish }] };
      return { event: null, data: JSON.stringify(json), json };
    };
    const CHAT_STREAM = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'think ' }),
      chunk({ reasoning_content: 'more' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'c2', type: 'function', function: { name: 'g', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ];

    it('chat -> Messages: one block at a time (thinking, text, two tool_use), message_delta with stop reason and usage, message_stop', () => {
      const shaper = chatToMessagesStream(request('messages', MESSAGES));
      const out = events(CHAT_STREAM.map((e) => shaper.event(e)).join('') + shaper.finish(usage));
      assert.deepEqual(out.map(([name]) => name), [
        'message_start',
        'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
        'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
        'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
        'content_block_start', 'content_block_delta', 'content_block_stop',
        'message_delta', 'message_stop',
      ]);
      assert.equal(out[0]![1].message.model, 'plat');
      assert.deepEqual(out[9]![1].content_block, { type: 'tool_use', id: 'c1', name: 'f', input: {} });
      assert.deepEqual(out.at(-2)![1], { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 12, output_tokens: 7, cache_read_input_tokens: 5, cache_creation_input_tokens: 3 } });
      // The role chunk's empty content opened no block: every text block carries text.
      for (const [name, data] of out) {
        if (name !== 'content_block_start' || data.content_block.type !== 'text') continue;
        assert.ok(out.some(([n, d]) => n === 'content_block_delta' && d.index === data.index && d.delta.text), `text block ${data.index} has text`);
      }
    });

    it('round trip chat -> Messages -> chat reassembles the same text, reasoning and tool calls', () => {
      const there = chatToMessagesStream(request('messages', MESSAGES));
      const messagesText = CHAT_STREAM.map((e) => there.event(e)).join('') + there.finish(usage);
      const back = messagesToChatStream(request('chat', {}, { clientWantsUsage: true }));
      const chatText = events(messagesText).map(([event, json]) => back.event({ event, data: JSON.stringify(json), json })).join('') + back.finish(usage);
      const chunks = events(chatText).map(([, data]) => data);
      assert.equal(chunks.at(-1), '[DONE]');
      const deltas = chunks.slice(0, -1).flatMap((c: any) => c.choices.map((choice: any) => choice.delta));
      assert.equal(deltas.map((d: any) => d.content ?? '').join(''), 'Hello');
      assert.equal(deltas.map((d: any) => d.reasoning_content ?? '').join(''), 'think more');
      const calls = new Map<number, { id?: string; name?: string; args: string }>();
      for (const d of deltas) {
        for (const call of d.tool_calls ?? []) {
          const entry = calls.get(call.index) ?? { args: '' };
          entry.id ??= call.id;
          entry.name ??= call.function?.name;
          entry.args += call.function?.arguments ?? '';
          calls.set(call.index, entry);
        }
      }
      assert.deepEqual([...calls.values()], [{ id: 'c1', name: 'f', args: '{"a":1}' }, { id: 'c2', name: 'g', args: '{}' }]);
      assert.deepEqual(chunks.at(-2).usage, { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27, prompt_tokens_details: { cached_tokens: 5 } });
      assert.equal(chunks.findLast((c: any) => c.choices?.[0]?.finish_reason).choices[0].finish_reason, 'tool_calls');
    });
  });
});
