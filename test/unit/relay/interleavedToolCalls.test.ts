// Parallel tool calls whose argument fragments an upstream chat stream interleaves (call 1 starts, then more of call
// 0 comes) converted to Messages and Responses: each call whole and in order, and each format's event order kept
// (no Messages delta after its block's stop, no Responses delta after its item's done). Calls that come one after
// another are streamed fragment by fragment as they arrive, never held.
import assert from 'node:assert/strict';
import { chatToMessagesStream } from '../../../src/gateway/relay/formats/chatMessages/stream.ts';
import { chatToResponsesStream } from '../../../src/gateway/relay/formats/chatResponses/stream.ts';
import { ToolCallOrder } from '../../../src/gateway/relay/formats/toolCallOrder.ts';
import type { UpstreamEvent } from '../../../src/gateway/relay/formats/types.ts';
import type { RelayRequest, RelayUsage } from '../../../src/gateway/relay/types.ts';

const usage: RelayUsage = { promptTokens: 5, completionTokens: 7, estimated: false };

function request(operation: 'messages' | 'responses'): RelayRequest {
  const body = operation === 'messages' ? { model: 'm', max_tokens: 10, messages: [] } : { model: 'm', input: 'hi' };
  return { operation, body, model: 'plat', requestId: 'req1', stream: true, clientWantsUsage: true, maxCompletionTokens: null, anthropicHeaders: {}, res: {} } as unknown as RelayRequest;
}

const call = (index: number, args: string, id?: string) =>
  id ? { index, id, type: 'function', function: { name: `f${index}`, arguments: args } } : { index, function: { arguments: args } };
const chunk = (calls: object[], finish: string | null = null): UpstreamEvent => {
  const json = { id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: calls.length ? { tool_calls: calls } : {}, finish_reason: finish }] };
  return { event: null, data: JSON.stringify(json), json };
};

/** What the audit saw: call 1 starts while call 0's arguments are half sent. */
const INTERLEAVED = [
  chunk([call(0, '{"p":', 'call_a')]),
  chunk([call(1, '{"f":1}', 'call_b')]),
  chunk([call(0, '"/"}')]),
  chunk([], 'tool_calls'),
];
/** Three calls, the held ones interleaved too: 0 starts, 1 starts, 2 starts, then the rest of each, 2 first. */
const THREE = [
  chunk([call(0, '{"a":', 'call_a')]),
  chunk([call(1, '{"b":', 'call_b')]),
  chunk([call(2, '{"c":', 'call_c')]),
  chunk([call(2, '3}')]),
  chunk([call(0, '1}')]),
  chunk([call(1, '2}')]),
  chunk([], 'tool_calls'),
];

function sse(text: string): any[] {
  return text.split('\n\n').filter(Boolean).map((block) => JSON.parse(/^data: (.*)$/m.exec(block)![1]!));
}

function messagesOf(stream: UpstreamEvent[]): any[] {
  const shaper = chatToMessagesStream(request('messages'));
  return sse(stream.map((e) => shaper.event(e)).join('') + shaper.finish(usage));
}

function responsesOf(stream: UpstreamEvent[]): any[] {
  const shaper = chatToResponsesStream(request('responses'));
  return sse(stream.map((e) => shaper.event(e)).join('') + shaper.finish(usage));
}

/** Each tool_use block's input as its deltas build it, checking that none comes outside its start and stop. */
function toolInputs(events: any[]): [string, string][] {
  const open = new Set<number>();
  const blocks = new Map<number, [string, string]>();
  for (const e of events) {
    if (e.type === 'content_block_start') {
      assert.equal(open.size, 0, 'one block open at a time');
      open.add(e.index);
      blocks.set(e.index, [e.content_block.id, '']);
    }
    if (e.type === 'content_block_delta') {
      assert.ok(open.has(e.index), `delta for block ${e.index} while it is open`);
      blocks.get(e.index)![1] += e.delta.partial_json;
    }
    if (e.type === 'content_block_stop') open.delete(e.index);
  }
  return [...blocks.values()];
}

/** Each function call's arguments as done and completed say them, checking no delta follows its item's done. */
function responsesCalls(events: any[]): [string, string][] {
  const closed = new Set<string>();
  const deltas = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'response.function_call_arguments.delta') {
      assert.ok(!closed.has(e.item_id), `delta for ${e.item_id} before its done`);
      deltas.set(e.item_id, (deltas.get(e.item_id) ?? '') + e.delta);
    }
    if (e.type === 'response.function_call_arguments.done') assert.equal(e.arguments, deltas.get(e.item_id));
    if (e.type === 'response.output_item.done') closed.add(e.item.id);
  }
  const completed = events.find((e) => e.type === 'response.completed').response;
  return completed.output.map((item: any) => [item.call_id, item.arguments]);
}

describe('interleaved parallel tool calls, converted from a chat stream', () => {
  it('Messages: each tool_use block whole, opened and stopped in turn', () => {
    assert.deepEqual(toolInputs(messagesOf(INTERLEAVED)), [['call_a', '{"p":"/"}'], ['call_b', '{"f":1}']]);
    assert.deepEqual(toolInputs(messagesOf(THREE)), [['call_a', '{"a":1}'], ['call_b', '{"b":2}'], ['call_c', '{"c":3}']]);
  });

  it('Responses: each function call whole in its deltas, its done and response.completed', () => {
    assert.deepEqual(responsesCalls(responsesOf(INTERLEAVED)), [['call_a', '{"p":"/"}'], ['call_b', '{"f":1}']]);
    assert.deepEqual(responsesCalls(responsesOf(THREE)), [['call_a', '{"a":1}'], ['call_b', '{"b":2}'], ['call_c', '{"c":3}']]);
  });

  it('calls one after another are streamed as they come: each fragment goes out with its own chunk', () => {
    const order = new ToolCallOrder();
    const steps = [call(0, '', 'a'), call(0, '{"x":'), call(0, '1}'), call(1, '{"y":', 'b'), call(1, '2}')].map((c) => order.add(c));
    assert.deepEqual(steps, [
      [{ kind: 'start', slot: 0, id: 'a', name: 'f0' }],
      [{ kind: 'arguments', slot: 0, text: '{"x":' }],
      [{ kind: 'arguments', slot: 0, text: '1}' }],
      [{ kind: 'start', slot: 1, id: 'b', name: 'f1' }, { kind: 'arguments', slot: 1, text: '{"y":' }],
      [{ kind: 'arguments', slot: 1, text: '2}' }],
    ]);
    assert.deepEqual(order.flush(), []);
  });

  it('a held call goes out whole as soon as the call before it is whole, not at the end', () => {
    const order = new ToolCallOrder();
    assert.equal(order.add(call(0, '{"p":', 'a')).length, 2);
    assert.deepEqual(order.add(call(1, '{"f":1}', 'b')), []);
    assert.deepEqual(order.add(call(0, '"/"}')), [
      { kind: 'arguments', slot: 0, text: '"/"}' },
      { kind: 'start', slot: 1, id: 'b', name: 'f1' },
      { kind: 'arguments', slot: 1, text: '{"f":1}' },
    ]);
    assert.deepEqual(order.flush(), []);
  });
});
