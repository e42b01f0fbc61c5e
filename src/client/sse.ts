/**
 * Server-sent events, decoded in layers (openai-node's habit):
 *   bytes -> lines   (LineDecoder: `\n`, `\r`, `\r\n` even when split across chunks; UTF-8 split anywhere)
 *   lines -> events  (EventDecoder: `data` over several lines, `event`, `id`, `retry`, `:` comments)
 *   events -> chunks (chatChunks: `[DONE]` ends, an `error` event or `{"error": ...}` throws,
 *                     malformed JSON throws, a stream without `[DONE]` throws)
 */
import { ChatCompletionChunk } from '../contract/index.ts';
import { CLIENT_ERROR_CODES, InvalidResponseError, ServerError, errorFromResponse, isErrorBody } from './errors.ts';
import { requestIdFromHeaders } from './headers.ts';
import type { HeaderBag } from './headers.ts';

export class LineDecoder {
  readonly #decoder = new TextDecoder('utf-8');
  #buffer = '';
  /** The last chunk ended in `\r`: a `\n` opening the next one belongs to the same line break. */
  #pendingCR = false;

  decode(chunk: Uint8Array): string[] {
    return this.#split(this.#decoder.decode(chunk, { stream: true }));
  }

  /** Lines left at the end of the stream (a last line without a line break). */
  flush(): string[] {
    const lines = this.#split(this.#decoder.decode());
    if (this.#buffer !== '') lines.push(this.#buffer);
    this.#buffer = '';
    this.#pendingCR = false;
    return lines;
  }

  #split(text: string): string[] {
    const lines: string[] = [];
    if (text.length === 0) return lines;
    let i = 0;
    if (this.#pendingCR) {
      this.#pendingCR = false;
      if (text.charCodeAt(0) === 10) i = 1;
    }
    let start = i;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      lines.push(this.#buffer + text.slice(start, i));
      this.#buffer = '';
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          this.#pendingCR = true;
        }
      }
      start = i + 1;
    }
    this.#buffer += text.slice(start);
    return lines;
  }
}

export interface SseEvent {
  /** The `event:` field, or null for the default ("message"). */
  readonly event: string | null;
  /** `data:` lines joined with `\n`. */
  readonly data: string;
  /** The last event id seen on the stream. */
  readonly id: string | null;
  readonly retry: number | null;
}

export class EventDecoder {
  #data: string[] = [];
  #event: string | null = null;
  #id: string | null = null;
  #retry: number | null = null;

  /** Feed one line; returns the event a blank line completes. */
  line(line: string): SseEvent | null {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data.push(value);
        break;
      case 'event':
        this.#event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        break;
    }
    return null;
  }

  /** End of stream: an event whose blank line never came is still delivered (so a final `data: [DONE]` counts). */
  flush(): SseEvent | null {
    return this.#dispatch();
  }

  #dispatch(): SseEvent | null {
    const event = this.#data.length === 0 ? null : { event: this.#event, data: this.#data.join('\n'), id: this.#id, retry: this.#retry };
    this.#data = [];
    this.#event = null;
    return event;
  }
}

/** Bytes to events. */
export async function* sseEvents(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const lines = new LineDecoder();
  const events = new EventDecoder();
  for await (const chunk of bytes) {
    for (const line of lines.decode(chunk)) {
      const event = events.line(line);
      if (event) yield event;
    }
  }
  for (const line of lines.flush()) {
    const event = events.line(line);
    if (event) yield event;
  }
  const last = events.flush();
  if (last) yield last;
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
