/**
 * Anthropic Messages event streams: named events (message_start, content_block_start / delta /
 * stop, message_delta, message_stop, ping, error). Usage comes in message_start (input) and
 * message_delta (output, and in newer versions the input again). The passthrough shaper sends
 * every event on byte for byte (thinking signatures must survive untouched), with only the
 * platform's model name put into message_start.
 */
import { estimateTokensOfChars } from '../estimate.ts';
import { spliceModel } from '../modelName.ts';
import type { RelayRequest, RelayUsage } from '../types.ts';
import { NamedEventReader } from './namedEvent.ts';
import { syntheticEvent, type StreamRead, type StreamShaper, type UpstreamEvent } from './types.ts';
import { messagesUsage } from './usage.ts';

export class MessagesStreamReader extends NamedEventReader {
  #usage: RelayUsage | null = null;
  /** message_delta brought the output count; until then message_start's is a placeholder. */
  #final = false;
  /** The content block started and not yet stopped, for cutEvents. */
  #openBlock: number | null = null;

  protected onEvent(type: string | null, event: UpstreamEvent): StreamRead {
    const { json, data } = event;
    switch (type) {
      case 'error': {
        const error = json['error'] as { message?: unknown } | undefined;
        return { kind: 'problem', detail: `upstream error: ${typeof error?.message === 'string' ? error.message : data.slice(0, 500)}` };
      }
      case 'message_start':
        this.#usage = messagesUsage((json['message'] as { usage?: unknown } | undefined)?.usage) ?? this.#usage;
        break;
      case 'message_delta': {
        const reported = messagesUsage(json['usage'], this.#usage);
        if (reported) {
          this.#usage = reported;
          this.#final = true;
        }
        break;
      }
      case 'content_block_start':
        this.#openBlock = typeof json['index'] === 'number' ? json['index'] : 0;
        break;
      case 'content_block_stop':
        this.#openBlock = null;
        break;
      case 'content_block_delta': {
        const delta = json['delta'] as { text?: unknown; thinking?: unknown; partial_json?: unknown } | undefined;
        for (const part of [delta?.text, delta?.thinking, delta?.partial_json]) if (typeof part === 'string') this.generatedChars += part.length;
        break;
      }
      case 'message_stop':
        return { kind: 'end', event };
    }
    return { kind: 'event', event };
  }

  cutEvents(usage: RelayUsage): UpstreamEvent[] {
    const events: UpstreamEvent[] = [];
    if (this.#openBlock !== null) events.push(syntheticEvent('content_block_stop', { type: 'content_block_stop', index: this.#openBlock }));
    events.push(syntheticEvent('message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: usage.completionTokens } }));
    events.push(syntheticEvent('message_stop', { type: 'message_stop' }));
    return events;
  }

  /** message_delta carries the stop reason and the final usage: only message_stop is missing. */
  complete(): boolean {
    return this.#final;
  }

  /** A stream cut before message_delta is charged at least what it visibly generated (estimated, and marked so). */
  usage(): RelayUsage | null {
    const usage = this.#usage;
    if (!usage || this.#final) return usage;
    return { ...usage, completionTokens: Math.max(usage.completionTokens, estimateTokensOfChars(this.generatedChars)), estimated: true };
  }
}

/** The SSE text of one Messages event. */
export function messagesEvent(type: string, body: object): string {
  return `event: ${type}\ndata: ${JSON.stringify(body)}\n\n`;
}

/**
 * Same format on both sides: every event as it came; message_start carries the platform's model name.
 * An answer whose upstream stopped after message_delta gets its message_stop here (clients wait for it).
 */
export function messagesPassthrough(request: RelayRequest): StreamShaper {
  let stopped = false;
  return {
    event({ event, data, json }: UpstreamEvent): string {
      if (json['type'] === 'message_stop') stopped = true;
      let text = data;
      if (json['type'] === 'message_start') {
        const message = json['message'] as Record<string, unknown> | undefined;
        const current = message?.['model'];
        if (message && current !== request.model) {
          text = (typeof current === 'string' ? spliceModel(data, current, request.model) : null) ?? JSON.stringify({ ...json, message: { ...message, model: request.model } });
        }
      }
      return `event: ${event ?? String(json['type'])}\ndata: ${text}\n\n`;
    },
    finish: () => (stopped ? '' : messagesEvent('message_stop', { type: 'message_stop' })),
  };
}
