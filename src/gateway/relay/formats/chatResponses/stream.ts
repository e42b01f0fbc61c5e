/**
 * A chat stream written as a Responses stream: response.created and in_progress, then per output
 * item (reasoning, the assistant message, each function call) its output_item.added, its deltas
 * (output_text.delta, function_call_arguments.delta, reasoning_summary_text.delta) and its done
 * events, and last response.completed (or response.incomplete) with the whole output and usage.
 * Every event carries its sequence_number.
 */
import { chatTextOf } from '../chatText.ts';
import type { RelayRequest, RelayUsage } from '../../types.ts';
import { toolNamesOf, type ToolName } from './toolNames.ts';
import type { StreamShaper, UpstreamEvent } from '../types.ts';
import { takeSequence } from '../responsesSequence.ts';
import { customInputOf, functionCallItem, messageItem, reasoningItem, responseEnvelope, statusOfFinish } from './answer.ts';
import { ToolCallOrder, type CallStep } from '../toolCallOrder.ts';
import { signedThinkingOf, type ThinkingBlock } from '../thinkingBlocks.ts';
import { toolCallsOf } from '../chatToolCalls.ts';

type Json = Record<string, unknown>;

const asText = (v: unknown): string => (typeof v === 'string' ? v : '');

interface OpenItem {
  readonly kind: 'reasoning' | 'message' | 'call';
  readonly index: number;
  readonly id: string;
  text: string;
  /** A reasoning item's signed thinking (thinkingBlocks.ts). */
  readonly thinking: ThinkingBlock[];
  readonly callId?: string;
  readonly tool?: ToolName;
}

export function chatToResponsesStream(request: RelayRequest): StreamShaper {
  const id = `resp_${request.requestId}`;
  const createdAt = Math.floor(Date.now() / 1000);
  let started = false;
  let open: OpenItem | null = null;
  const done: Json[] = [];
  const calls = new ToolCallOrder();
  let finish: string | null = null;
  const names = toolNamesOf(request.operation === 'responses' ? request.body.tools : undefined);

  const event = (type: string, body: Json): string => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: takeSequence(request.res), ...body })}\n\n`;
  const start = (): string => {
    if (started) return '';
    started = true;
    const response = responseEnvelope(request, id, createdAt, 'in_progress', [], null, null);
    return event('response.created', { response }) + event('response.in_progress', { response });
  };
  const finished = (item: OpenItem, status: string): Json => {
    if (item.kind === 'reasoning') return reasoningItem(item.id, item.text, item.thinking);
    if (item.kind === 'message') return messageItem(item.id, item.text, status);
    return functionCallItem(item.id, item.callId ?? '', item.tool ?? { name: '' }, item.text, status);
  };
  /** Closes the open item: complete when another follows it; the last one is as complete as the response. */
  const close = (status = 'completed'): string => {
    const item = open;
    if (!item) return '';
    open = null;
    const whole = finished(item, status);
    done.push(whole);
    const at = { item_id: item.id, output_index: item.index };
    let out = '';
    if (item.kind === 'message') {
      out += event('response.output_text.done', { ...at, content_index: 0, text: item.text });
      out += event('response.content_part.done', { ...at, content_index: 0, part: { type: 'output_text', text: item.text, annotations: [] } });
    } else if (item.kind === 'call' && item.tool?.custom) {
      // A freeform call's text is known whole only once its JSON arguments are: one delta, then done.
      const input = customInputOf(item.text);
      out += event('response.custom_tool_call_input.delta', { ...at, delta: input });
      out += event('response.custom_tool_call_input.done', { ...at, input });
    } else if (item.kind === 'call') {
      out += event('response.function_call_arguments.done', { ...at, arguments: item.text });
    } else {
      out += event('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: item.text });
      out += event('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { type: 'summary_text', text: item.text } });
    }
    return out + event('response.output_item.done', { output_index: item.index, item: whole });
  };
  const openItem = (item: Omit<OpenItem, 'index' | 'text' | 'thinking'>): string => {
    let out = close();
    open = { ...item, index: done.length, text: '', thinking: [] };
    const at = { item_id: open.id, output_index: open.index };
    if (item.kind === 'message') {
      out += event('response.output_item.added', { output_index: open.index, item: { ...messageItem(open.id, '', 'in_progress'), content: [] } });
      out += event('response.content_part.added', { ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    } else if (item.kind === 'call') {
      out += event('response.output_item.added', { output_index: open.index, item: functionCallItem(open.id, item.callId ?? '', item.tool ?? { name: '' }, '', 'in_progress') });
    } else {
      out += event('response.output_item.added', { output_index: open.index, item: { type: 'reasoning', id: open.id, summary: [] } });
      out += event('response.reasoning_summary_part.added', { ...at, summary_index: 0, part: { type: 'summary_text', text: '' } });
    }
    return out;
  };

  /** One item per call, in turn (toolCallOrder.ts): a started call's fragments go to the item open now. */
  const writeCalls = (steps: readonly CallStep[]): string => {
    let out = '';
    for (const step of steps) {
      if (step.kind === 'start') {
        // Close first: the id numbers the item by its place, and the one still open takes a place too.
        out += close();
        out += openItem({ kind: 'call', id: `fc_${request.requestId}_${done.length}`, callId: step.id || `call_${request.requestId}_${step.slot}`, tool: names.fromChat(step.name) });
        continue;
      }
      const item = open!;
      item.text += step.text;
      if (!item.tool?.custom) out += event('response.function_call_arguments.delta', { item_id: item.id, output_index: item.index, delta: step.text });
    }
    return out;
  };

  return {
    event({ json }: UpstreamEvent): string {
      let out = start();
      const choice = ((json['choices'] as Json[] | undefined) ?? []).find((c) => (c['index'] ?? 0) === 0);
      if (!choice) return out;
      const d = (choice['delta'] ?? {}) as Json;
      const { text, reasoning } = chatTextOf(d);
      const thinking = signedThinkingOf(d['thinking_blocks']);
      if (reasoning || text || thinking.length > 0) out += writeCalls(calls.flush());
      if ((reasoning || thinking.length > 0) && open?.kind !== 'reasoning') out += openItem({ kind: 'reasoning', id: `rs_${request.requestId}_${done.length}` });
      if (reasoning) {
        open!.text += reasoning;
        out += event('response.reasoning_summary_text.delta', { item_id: open!.id, output_index: open!.index, summary_index: 0, delta: reasoning });
      }
      // A thinking block's signature comes after its text: it goes out with the item's done event.
      open?.thinking.push(...thinking);
      if (text) {
        if (open?.kind !== 'message') out += openItem({ kind: 'message', id: `msg_${request.requestId}_${done.length}` });
        open!.text += text;
        out += event('response.output_text.delta', { item_id: open!.id, output_index: open!.index, content_index: 0, delta: text });
      }
      for (const call of toolCallsOf(d)) out += writeCalls(calls.add(call));
      finish = asText(choice['finish_reason']) || finish;
      return out;
    },
    finish(usage: RelayUsage): string {
      const status = statusOfFinish(finish);
      const out = start() + writeCalls(calls.flush()) + close(status);
      const response = responseEnvelope(request, id, createdAt, status, done, usage, finish);
      return out + event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
    },
  };
}
