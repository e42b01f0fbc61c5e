/**
 * Streams between chat completions and Messages, both ways, event by event (nothing is held back
 * longer than the event that completes it). Text, reasoning (thinking), tool calls with their
 * argument fragments, the stop reason and usage are mapped; Messages' block structure
 * (content_block_start / delta / stop, one block at a time) is built from chat deltas, and no empty
 * text block is opened.
 */
import { usdOf } from '../cost.ts';
import { FINISH_OF_STOP_REASON } from '../../../../contract/index.ts';
import { chatTextOf } from '../chatText.ts';
import { estimatePromptTokensOfRequest } from '../../estimate.ts';
import type { RelayRequest, RelayUsage } from '../../types.ts';
import { messagesEvent } from '../messagesStream.ts';
import { SSE_DONE } from '../openaiStream.ts';
import type { StreamShaper, UpstreamEvent } from '../types.ts';
import { toMessagesUsage, toOpenaiUsage } from '../usage.ts';
import { ToolCallOrder, type CallStep } from '../toolCallOrder.ts';
import { toolCallsOf } from '../chatToolCalls.ts';
import { stopReasonOf } from './answer.ts';
import { formatToolName } from './jsonFormat.ts';
import { signedThinkingOf } from '../thinkingBlocks.ts';

type Json = Record<string, unknown>;

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

/** An OpenAI chat stream, written as a Messages stream. */
export function chatToMessagesStream(request: RelayRequest): StreamShaper {
  let started = false;
  let open: { kind: 'text' | 'thinking' | 'tool'; index: number } | null = null;
  let blocks = 0;
  const calls = new ToolCallOrder();
  let stopReason: string | null = null;

  const start = (id: unknown): string => {
    if (started) return '';
    started = true;
    const message = {
      id: `msg_${asText(id) || request.requestId}`, type: 'message', role: 'assistant', model: request.model, content: [],
      stop_reason: null, stop_sequence: null,
      usage: toMessagesUsage({ promptTokens: estimatePromptTokensOfRequest(request), completionTokens: 0, estimated: true }),
    };
    return messagesEvent('message_start', { type: 'message_start', message });
  };
  const close = (): string => {
    if (!open) return '';
    const text = messagesEvent('content_block_stop', { type: 'content_block_stop', index: open.index });
    open = null;
    return text;
  };
  const openBlock = (kind: 'text' | 'thinking' | 'tool', block: Json): string => {
    const text = close() + messagesEvent('content_block_start', { type: 'content_block_start', index: blocks, content_block: block });
    open = { kind, index: blocks++ };
    return text;
  };
  const delta = (index: number, body: Json): string => messagesEvent('content_block_delta', { type: 'content_block_delta', index, delta: body });
  /** One block per call, in turn (toolCallOrder.ts): a started call's fragments go to the block open now. */
  const writeCalls = (steps: readonly CallStep[]): string => {
    let out = '';
    for (const step of steps) {
      if (step.kind === 'start') out += openBlock('tool', { type: 'tool_use', id: step.id || `toolu_${request.requestId}_${step.slot}`, name: step.name, input: {} });
      else out += delta(open!.index, { type: 'input_json_delta', partial_json: step.text });
    }
    return out;
  };

  return {
    event({ json }: UpstreamEvent): string {
      let out = start(json['id']);
      const choice = ((json['choices'] as Json[] | undefined) ?? []).find((c) => (c['index'] ?? 0) === 0);
      if (!choice) return out;
      const d = (choice['delta'] ?? {}) as Json;
      const { text, reasoning } = chatTextOf(d);
      if (reasoning || text) out += writeCalls(calls.flush());
      if (reasoning) {
        if (open?.kind !== 'thinking') out += openBlock('thinking', { type: 'thinking', thinking: '', signature: '' });
        out += delta(open!.index, { type: 'thinking_delta', thinking: reasoning });
      }
      if (text) {
        if (open?.kind !== 'text') out += openBlock('text', { type: 'text', text: '' });
        out += delta(open!.index, { type: 'text_delta', text });
      }
      for (const call of toolCallsOf(d)) out += writeCalls(calls.add(call));
      const finish = asText(choice['finish_reason']);
      if (finish) stopReason = stopReasonOf(finish, calls.count > 0);
      return out;
    },
    finish(usage: RelayUsage): string {
      return (
        start(null) +
        writeCalls(calls.flush()) +
        close() +
        messagesEvent('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason ?? 'end_turn', stop_sequence: null }, usage: toMessagesUsage(usage) }) +
        messagesEvent('message_stop', { type: 'message_stop' })
      );
    },
  };
}

/**
 * A Messages stream, written as an OpenAI chat stream. The call of the tool a JSON format was asked through
 * (jsonFormat.ts) is written as content, its JSON as it arrives. `keepThinking`: each signed thinking block goes
 * along whole, at its stop, in a chunk's `thinking_blocks`, for a Responses client on the way (thinkingBlocks.ts).
 */
export function messagesToChatStream(request: RelayRequest, keepThinking = false): StreamShaper {
  let id = `chatcmpl-${request.requestId}`;
  const created = Math.floor(Date.now() / 1000);
  const toolOfBlock = new Map<number, number>();
  const formatTool = formatToolName(request);
  /** The block of the format's first call: its JSON is the answer's content (a second call would spoil it). */
  let format: { index: number; sent: boolean; input: unknown } | null = null;
  /** The thinking block being streamed, when kept: its text and signature so far. */
  let thinking: { index: number; thinking: string; signature: string } | null = null;
  const chunk = (delta: Json, finishReason: string | null = null): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;

  return {
    event({ json }: UpstreamEvent): string {
      const index = typeof json['index'] === 'number' ? json['index'] : -1;
      switch (json['type']) {
        case 'message_start': {
          const upstreamId = asText((json['message'] as Json | undefined)?.['id']);
          if (upstreamId) id = `chatcmpl-${upstreamId}`;
          return chunk({ role: 'assistant', content: '' });
        }
        case 'content_block_start': {
          const block = (json['content_block'] ?? {}) as Json;
          if (block['type'] === 'tool_use' && formatTool !== null && block['name'] === formatTool) {
            format ??= { index, sent: false, input: block['input'] };
            return '';
          }
          if (block['type'] === 'tool_use') {
            const tool = toolOfBlock.size;
            toolOfBlock.set(index, tool);
            return chunk({ tool_calls: [{ index: tool, id: block['id'], type: 'function', function: { name: block['name'], arguments: '' } }] });
          }
          if (keepThinking && block['type'] === 'redacted_thinking') return chunk({ thinking_blocks: signedThinkingOf([block]) });
          if (keepThinking && block['type'] === 'thinking') thinking = { index, thinking: asText(block['thinking']), signature: asText(block['signature']) };
          const text = block['type'] === 'text' ? asText(block['text']) : '';
          return text ? chunk({ content: text }) : '';
        }
        case 'content_block_delta': {
          const d = (json['delta'] ?? {}) as Json;
          if (thinking?.index === index && d['type'] === 'thinking_delta') thinking.thinking += asText(d['thinking']);
          if (thinking?.index === index && d['type'] === 'signature_delta') thinking.signature += asText(d['signature']);
          if (d['type'] === 'text_delta' && asText(d['text'])) return chunk({ content: d['text'] });
          if (d['type'] === 'thinking_delta' && asText(d['thinking'])) return chunk({ reasoning_content: d['thinking'] });
          if (d['type'] === 'input_json_delta' && format?.index === index) {
            if (!asText(d['partial_json'])) return '';
            format.sent = true;
            return chunk({ content: d['partial_json'] });
          }
          // A second call of the format's tool is left out: its JSON after the first would be no JSON.
          if (d['type'] === 'input_json_delta' && formatTool !== null && !toolOfBlock.has(index)) return '';
          if (d['type'] === 'input_json_delta' && asText(d['partial_json'])) {
            return chunk({ tool_calls: [{ index: toolOfBlock.get(index) ?? 0, function: { arguments: d['partial_json'] } }] });
          }
          return '';
        }
        case 'content_block_stop': {
          if (thinking?.index === index) {
            const blocks = signedThinkingOf([{ type: 'thinking', thinking: thinking.thinking, signature: thinking.signature }]);
            thinking = null;
            return blocks.length > 0 ? chunk({ thinking_blocks: blocks }) : '';
          }
          // A call whose input came whole at its start, or empty ({} streams as no delta at all): the JSON, once.
          if (format?.index !== index || format.sent) return '';
          format.sent = true;
          const input = format.input !== null && typeof format.input === 'object' ? format.input : {};
          return chunk({ content: JSON.stringify(input) });
        }
        case 'message_delta': {
          const stop = asText((json['delta'] as Json | undefined)?.['stop_reason']);
          // The format's call alone is an answer that ended, not a call for the client to run.
          if (stop === 'tool_use' && toolOfBlock.size === 0) return chunk({}, 'stop');
          return stop ? chunk({}, FINISH_OF_STOP_REASON[stop] ?? 'stop') : '';
        }
        default:
          return '';
      }
    },
    finish(usage: RelayUsage): string {
      if (!request.clientWantsUsage) return SSE_DONE;
      const usd = usdOf(request, usage);
      const body = usd === undefined ? toOpenaiUsage(usage) : { ...toOpenaiUsage(usage), cost: usd };
      return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [], usage: body })}\n\n${SSE_DONE}`;
    },
  };
}
