/**
 * Server-sent events, decoded in layers (openai-node's habit):
 *   bytes -> lines -> events  (src/wire/sse.ts, the decoder the gateway's relay uses too:
 *                              `\n`, `\r`, `\r\n` and UTF-8 split anywhere; `data` over several lines,
 *                              `event`, `id`, `retry`, `:` comments)
 *   events -> chunks          (chatChunks: `[DONE]` ends, an `error` event or `{"error": ...}` throws,
 *                              malformed JSON throws, a stream without `[DONE]` throws)
 * The client's reading of the end of a body: an event whose blank line never came is still
 * delivered (so a final `data: [DONE]` counts).
 */
import { ChatCompletionChunk, headerValue } from '../contract/index.ts';
import type { ChatCompletion } from '../contract/index.ts';
import type { SseEventItem } from '../contract/index.ts';
import { SseDecoder } from '../wire/sse.ts';
import { CLIENT_ERROR_CODES, InvalidResponseError, ServerError, errorFromResponse, isErrorBody } from './errors.ts';
import { requestIdFromHeaders } from '../contract/index.ts';
import type { HeaderBag } from '../contract/index.ts';

export interface SseEvent {
  /** The `event:` field, or null for the default ("message"). */
  readonly event: string | null;
  /** `data:` lines joined with `\n`. */
  readonly data: string;
  /** The last event id seen on the stream. */
  readonly id: string | null;
  readonly retry: number | null;
}

function toEvent(item: SseEventItem): SseEvent {
  return { event: item.event, data: item.data, id: item.id, retry: item.retry };
}

/** Bytes to events. */
export async function* sseEvents(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new SseDecoder();
  for await (const chunk of bytes) {
    for (const item of decoder.push(chunk)) if (item.type === 'event') yield toEvent(item);
  }
  for (const item of decoder.end()) if (item.type === 'event') yield toEvent(item);
}

export const DONE = Symbol('done');

/** One event as a chunk, DONE, or null for an event that carries nothing (an empty `data:`). Throws for errors. */
export function chunkFromEvent(event: SseEvent, headers?: HeaderBag): ChatCompletionChunk | typeof DONE | null {
  const data = event.data.trim();
  if (event.event !== 'error') {
    if (data === '[DONE]') return DONE;
    if (data === '') return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    if (event.event === 'error') throw errorFromResponse(200, data || null, headers);
    throw new InvalidResponseError({
      status: 200,
      requestId: requestIdFromHeaders(headers),
      code: CLIENT_ERROR_CODES.malformed_json,
      detail: `A stream event is not valid JSON: ${data.slice(0, 120)}`,
    });
  }
  if (event.event === 'error' || isErrorBody(json)) throw errorFromResponse(200, json, headers);
  const parsed = ChatCompletionChunk.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidResponseError({
      status: 200,
      requestId: requestIdFromHeaders(headers),
      code: CLIENT_ERROR_CODES.unexpected_shape,
      detail: `A stream event is not a chat completion chunk (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'wrong shape'}).`,
    });
  }
  return parsed.data;
}

/** Bytes to typed chunks; ends at `[DONE]` and throws when the stream ends without it. */
export async function* chatChunks(bytes: AsyncIterable<Uint8Array>, headers?: HeaderBag): AsyncGenerator<ChatCompletionChunk> {
  for await (const event of sseEvents(bytes)) {
    const chunk = chunkFromEvent(event, headers);
    if (chunk === DONE) return;
    if (chunk !== null) yield chunk;
  }
  throw new ServerError({
    status: 200,
    requestId: requestIdFromHeaders(headers),
    code: CLIENT_ERROR_CODES.stream_truncated,
    detail: 'The stream ended before [DONE]: the answer is incomplete (the gateway or its upstream broke off).',
  });
}

/** Whether an answer is an event stream (else an error, a web page, or a whole completion). */
export function isEventStream(headers: HeaderBag): boolean {
  return /text\/event-stream/i.test(headerValue(headers, 'content-type') ?? '');
}

/** A whole completion (from a gateway that ignored `stream: true`) as one chunk. */
export function completionAsChunk(completion: ChatCompletion): ChatCompletionChunk {
  return ChatCompletionChunk.parse({
    ...completion,
    object: 'chat.completion.chunk',
    choices: completion.choices.map((choice, i) => ({
      index: choice.index ?? i,
      delta: { ...choice.message, tool_calls: choice.message.tool_calls?.map((call, index) => ({ ...call, index })) ?? null },
      finish_reason: choice.finish_reason ?? null,
    })),
  });
}
