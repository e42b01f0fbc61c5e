// An Anthropic model's signed thinking as a Responses reasoning item's encrypted_content and back (thinkingBlocks.ts):
// whole and streamed answers, the next turn's request, and what stays out (another's encrypted_content, unsigned
// thinking, chat clients and chat upstreams).
import assert from 'node:assert/strict';
import type { ChatRequest, ResponsesRequest } from '../../../src/contract/index.ts';
import { messagesToChatStream } from '../../../src/gateway/relay/formats/chatMessages/stream.ts';
import { chatToMessagesRequest } from '../../../src/gateway/relay/formats/chatMessages/request.ts';
import { chatToResponsesStream } from '../../../src/gateway/relay/formats/chatResponses/stream.ts';
import { responsesToChatRequest } from '../../../src/gateway/relay/formats/chatResponses/request.ts';
import { encryptedContentOf, thinkingOfEncryptedContent, type ThinkingBlock } from '../../../src/gateway/relay/formats/thinkingBlocks.ts';
import type { UpstreamEvent } from '../../../src/gateway/relay/formats/types.ts';
import type { RelayRequest } from '../../../src/gateway/relay/types.ts';
import { upstreamBody } from '../../../src/gateway/providers/openai/requestBody.ts';
import { relayChannel } from '../../support/channels.ts';

const BLOCKS: ThinkingBlock[] = [
  { type: 'thinking', thinking: 'Weigh it.\n', signature: 'EqQBCgIYAhIM+/sig==' },
  { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
];

const request = (operation: string, body: object = {}): RelayRequest =>
  ({ operation, body, model: 'plat', requestId: 'req1', stream: true, clientWantsUsage: false, maxCompletionTokens: null, anthropicHeaders: {}, res: {} }) as unknown as RelayRequest;

const messagesEvent = (json: object): UpstreamEvent => ({ event: (json as { type: string }).type, data: JSON.stringify(json), json: json as Record<string, unknown> });
const MESSAGES_STREAM = [
  { type: 'message_start', message: { id: 'msg_1', content: [] } },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Weigh ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'it.\n' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM+/sig==' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Done.' } },
  { type: 'content_block_stop', index: 2 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
].map(messagesEvent);

const sse = (text: string): any[] => text.split('\n\n').filter(Boolean).map((b) => /^data: (.*)$/m.exec(b)![1]!).filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));

describe('signed thinking as a reasoning item\'s encrypted_content', () => {
  it('comes back as the same blocks; another\'s encrypted_content and unsigned thinking carry none', () => {
    assert.deepEqual(thinkingOfEncryptedContent(encryptedContentOf(BLOCKS)), BLOCKS);
    assert.deepEqual(thinkingOfEncryptedContent('gAAAAABoOpenAIsOwnEncryptedReasoning'), []);
    assert.deepEqual(thinkingOfEncryptedContent(encryptedContentOf([{ type: 'thinking', thinking: 'x', signature: '' }])), []);
  });

  it('a Messages stream on its way to Responses: the reasoning item is done with every block, signature included', () => {
    const toChat = messagesToChatStream(request('responses', { model: 'm', input: 'hi' }), true);
    const toResponses = chatToResponsesStream(request('responses', { model: 'm', input: 'hi' }));
    let out = '';
    for (const event of MESSAGES_STREAM) for (const json of sse(toChat.event(event))) out += toResponses.event({ event: null, data: JSON.stringify(json), json });
    const usage = { promptTokens: 1, completionTokens: 1, estimated: false };
    const events = sse(out + toResponses.finish(usage));
    const done = events.find((e) => e.type === 'response.output_item.done' && e.item.type === 'reasoning').item;
    assert.deepEqual([done.summary[0].text, thinkingOfEncryptedContent(done.encrypted_content)], ['Weigh it.\n', BLOCKS]);
    assert.deepEqual(events.at(-1).response.output[0], done);
    // A chat client is sent no thinking_blocks.
    const plain = messagesToChatStream(request('chat', { model: 'm', messages: [] }));
    assert.ok(!MESSAGES_STREAM.map((e) => plain.event(e)).join('').includes('thinking_blocks'));
  });

  it('the next turn: the blocks open the assistant turn toward Messages; toward a chat upstream they stay out', () => {
    const body = {
      model: 'm',
      input: [
        { role: 'user', content: 'go' },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Weigh it.\n' }], encrypted_content: encryptedContentOf(BLOCKS) },
        { type: 'function_call', call_id: 'toolu_1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'toolu_1', output: 'ok' },
      ],
    } as unknown as ResponsesRequest;
    const toMessages = chatToMessagesRequest(responsesToChatRequest(body, true) as ChatRequest, 100) as { messages: { content: unknown[] }[] };
    assert.deepEqual(toMessages.messages[1]!.content, [...BLOCKS, { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }]);
    const toChat = responsesToChatRequest(body) as { messages: object[] };
    assert.ok(toChat.messages.every((m) => !('thinking_blocks' in m)));
    // To an upstream with the Responses API (the conversation moved there): ours left out, OpenAI's own kept.
    const theirs = { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAAAABoOpenAIsOwnEncryptedReasoning' };
    const passed = JSON.parse(upstreamBody(request('responses', { ...body, input: [...body.input as object[], theirs] }), relayChannel({ responsesApi: true }))) as { input: { type?: string; id?: string }[] };
    assert.deepEqual(passed.input.filter((i) => i.type === 'reasoning').map((i) => i.id), ['rs_2']);
    assert.equal(passed.input.length, 4);
  });
});
