/**
 * OpenAI Responses event streams, for an upstream that has the Responses API itself: named events
 * (response.created, response.output_item.added, response.output_text.delta, ...) that end with
 * response.completed or response.incomplete, which carry the usage; no [DONE]. The passthrough
 * shaper sends every event on as it came (reasoning items' encrypted content must survive
 * untouched), with only the platform's model name put into the events that carry the response.
 */
import { spliceModel } from '../modelName.ts';
import type { RelayRequest, RelayUsage } from '../types.ts';
import { NamedEventReader } from './namedEvent.ts';
import { syntheticEvent, type StreamRead, type StreamShaper, type UpstreamEvent } from './types.ts';
import { toResponsesUsage } from './chatResponses/answer.ts';
import { responsesUsage } from './usage.ts';
import { sawSequence, takeSequence } from './responsesSequence.ts';

type Json = Record<string, unknown>;

/** The events whose text is generated output (counted for an estimate when the stream is cut). */
const DELTAS = new Set(['response.output_text.delta', 'response.function_call_arguments.delta', 'response.reasoning_summary_text.delta', 'response.reasoning_text.delta', 'response.refusal.delta']);

export class ResponsesStreamReader extends NamedEventReader {
  #usage: RelayUsage | null = null;
  /** The response as response.created described it, for cutEvents. */
  #response: Json = {};

  protected onEvent(type: string | null, event: UpstreamEvent): StreamRead {
    const { json, data } = event;
    if (type !== null && DELTAS.has(type)) {
      const delta = json['delta'];
      if (typeof delta === 'string') this.generatedChars += delta.length;
      return { kind: 'event', event };
    }
    switch (type) {
      case 'error':
        return { kind: 'problem', detail: `upstream error: ${messageOf(json['message'] ?? (json['error'] as Json | undefined)?.['message'], data)}` };
      case 'response.failed': {
        const error = (json['response'] as Json | undefined)?.['error'] as Json | undefined;
        return { kind: 'problem', detail: `upstream failed the response: ${messageOf(error?.['message'], data)}` };
      }
      case 'response.created':
        this.#response = (json['response'] as Json | undefined) ?? {};
        break;
      case 'response.completed':
      case 'response.incomplete':
        this.#usage = responsesUsage((json['response'] as Json | undefined)?.['usage']);
        return { kind: 'end', event };
    }
    return { kind: 'event', event };
  }

  usage(): RelayUsage | null {
    return this.#usage;
  }

  cutEvents(usage: RelayUsage): UpstreamEvent[] {
    const response = { ...this.#response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, usage: toResponsesUsage(usage) };
    return [syntheticEvent('response.incomplete', { type: 'response.incomplete', response })];
  }

  /** response.completed is itself the end: there is no marker after it to miss. */
  complete(): boolean {
    return false;
  }
}

/** Characters of generated text in a Responses answer's output items (message text, call arguments, reasoning summaries). */
export function outputChars(output: readonly unknown[]): number {
  let chars = 0;
  for (const item of output) {
    if (item === null || typeof item !== 'object') continue;
    const { content, summary, arguments: args, name } = item as { content?: unknown; summary?: unknown; arguments?: unknown; name?: unknown };
    for (const part of [...(Array.isArray(content) ? content : []), ...(Array.isArray(summary) ? summary : [])]) {
      const text = (part as { text?: unknown } | null)?.text;
      if (typeof text === 'string') chars += text.length;
    }
    if (typeof args === 'string') chars += args.length;
    if (typeof name === 'string') chars += name.length;
  }
  return chars;
}

function messageOf(message: unknown, data: string): string {
  return typeof message === 'string' ? message : data.slice(0, 500);
}

/** Same format on both sides: every event as it came; the response objects carry the platform's model name. */
export function responsesPassthrough(request: RelayRequest): StreamShaper {
  return {
    event({ event, data, json }: UpstreamEvent): string {
      const response = json['response'] as Json | undefined;
      const current = response?.['model'];
      const sequence = json['sequence_number'];
      // The gateway's own events (the cut's response.incomplete) continue the upstream's numbering.
      if (typeof sequence !== 'number') {
        const own = { ...json, sequence_number: takeSequence(request.res), ...(response ? { response: { ...response, model: request.model } } : {}) };
        return `event: ${event ?? String(json['type'])}\ndata: ${JSON.stringify(own)}\n\n`;
      }
      sawSequence(request.res, sequence);
      let text = data;
      if (response && typeof current === 'string' && current !== request.model) {
        text = spliceModel(data, current, request.model) ?? JSON.stringify({ ...json, response: { ...response, model: request.model } });
      }
      return `event: ${event ?? String(json['type'])}\ndata: ${text}\n\n`;
    },
    finish: () => '',
  };
}
