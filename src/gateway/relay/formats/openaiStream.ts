/**
 * OpenAI event streams (chat completions and completions): `data:` chunks ending with `[DONE]`,
 * usage in a last chunk (asked for with stream_options.include_usage). The reader learns what the
 * relay needs from each chunk; the passthrough shaper sends each chunk on as it came, with only
 * the platform's model name put in and the usage chunk dropped when the client did not ask for it.
 */
import { errorMessageOf } from '../../../contract/index.ts';
import { nestsDeeperThan } from '../../../wire/jsonDepth.ts';
import { generatedChars } from '../estimate.ts';
import { withPlatformModel } from '../modelName.ts';
import type { RelayRequest, RelayUsage } from '../types.ts';
import type { StreamRead, StreamReader, StreamShaper, UpstreamEvent } from './types.ts';
import { syntheticEvent } from './types.ts';
import { usdOf } from './cost.ts';
import { openaiUsage, toOpenaiUsage } from './usage.ts';

export const SSE_DONE = 'data: [DONE]\n\n';

/** A JSON object, or null. */
export function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    // Nested past what the relay reads (wire/jsonDepth.ts): not an answer it can use.
    return value !== null && typeof value === 'object' && !Array.isArray(value) && !nestsDeeperThan(text) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export class OpenaiStreamReader implements StreamReader {
  #usage: RelayUsage | null = null;
  #finished = false;
  /** The last chunk's identity (id, object, created, model), for the chunks cutEvents writes. */
  #last: Record<string, unknown> = {};
  generatedChars = 0;

  read(event: string | null, data: string): StreamRead {
    if (data === '[DONE]') return { kind: 'end' };
    // An empty `data:` carries nothing (some servers use it as a keep-alive).
    if (data.trim() === '') return { kind: 'skip' };
    const json = parseObject(data);
    if (!json) return { kind: 'problem', detail: 'upstream sent a malformed event' };
    if (event === 'error' || (json['error'] !== undefined && json['error'] !== null)) {
      return { kind: 'problem', detail: `upstream error: ${errorMessageOf(json) ?? JSON.stringify(json['error'] ?? json)}` };
    }
    const reported = openaiUsage(json['usage']);
    if (reported) this.#usage = reported;
    this.#last = json;
    const choices = json['choices'];
    if (Array.isArray(choices)) {
      for (const choice of choices) {
        this.generatedChars += generatedChars((choice as { delta?: unknown } | null)?.delta ?? choice);
        if (typeof (choice as { finish_reason?: unknown } | null)?.finish_reason === 'string') this.#finished = true;
      }
    }
    return { kind: 'event', event: { event, data, json } };
  }

  usage(): RelayUsage | null {
    return this.#usage;
  }

  complete(): boolean {
    return this.#finished && this.#usage !== null;
  }

  cutEvents(usage: RelayUsage): UpstreamEvent[] {
    const { id, object, created, model } = this.#last;
    const text = object === 'text_completion';
    const base = { id, object: text ? 'text_completion' : 'chat.completion.chunk', created, model };
    const choice = text ? { index: 0, text: '', logprobs: null, finish_reason: 'length' } : { index: 0, delta: {}, finish_reason: 'length' };
    return [syntheticEvent(null, { ...base, choices: [choice] }), syntheticEvent(null, { ...base, choices: [], usage: toOpenaiUsage(usage) })];
  }
}

/**
 * Same format on both sides: each chunk as it came, with the platform's model name. A client that asked for usage
 * (contract 4.3) gets one usage chunk with its cost: the upstream's, or, when the upstream said none or an
 * implausible one, the usage charged (estimated) in one at the end, before [DONE].
 */
export function openaiPassthrough(request: RelayRequest): StreamShaper {
  /** A usage chunk whose counts cannot be true (negative, absurd): the usage charged instead (estimated) goes out in it at the end. */
  let implausible: Record<string, unknown> | null = null;
  let usageSent = false;
  /** The last chunk, whose identity a usage chunk the gateway writes itself takes (kept, not copied: per chunk is the hot path). */
  let last: Record<string, unknown> | null = null;
  return {
    event({ data, json }: UpstreamEvent): string {
      last = json;
      const usage = json['usage'];
      if (!request.clientWantsUsage && usage !== undefined && usage !== null) {
        const choices = json['choices'];
        if (!Array.isArray(choices) || choices.length === 0) return '';
        delete json['usage'];
        return `data: ${withPlatformModel(JSON.stringify(json), json, request.model)}\n\n`;
      }
      // The usage chunk says what the answer cost (one per stream: rebuilt, the rest goes on as it came).
      const read = usage !== undefined && usage !== null && request.costOf ? openaiUsage(usage) : null;
      const usd = read ? usdOf(request, read) : undefined;
      if (usd !== undefined) {
        // A usable usage after an implausible one: it is the one said, once.
        implausible = null;
        usageSent = true;
        json['usage'] = { ...(usage as Record<string, unknown>), cost: usd };
        return `data: ${withPlatformModel(JSON.stringify(json), json, request.model)}\n\n`;
      }
      if (usage !== undefined && usage !== null && request.costOf) {
        implausible = { ...json, choices: [] };
        const choices = json['choices'];
        if (!Array.isArray(choices) || choices.length === 0) return '';
        delete json['usage'];
        return `data: ${withPlatformModel(JSON.stringify(json), json, request.model)}\n\n`;
      }
      if (usage !== undefined && usage !== null) usageSent = true;
      return `data: ${withPlatformModel(data, json, request.model)}\n\n`;
    },
    finish(charged: RelayUsage): string {
      if (!request.clientWantsUsage || usageSent) return SSE_DONE;
      const usd = usdOf(request, charged);
      const identity = last === null ? {} : { id: last['id'], object: last['object'], created: last['created'], model: last['model'] };
      const chunk = { ...(implausible ?? { ...identity, choices: [] }), usage: usd === undefined ? toOpenaiUsage(charged) : { ...toOpenaiUsage(charged), cost: usd } };
      return `data: ${withPlatformModel(JSON.stringify(chunk), chunk, request.model)}\n\n${SSE_DONE}`;
    },
  };
}
