/**
 * The one server-sent-events decoder: the gateway's relay reads upstreams with it, the client reads the
 * gateway with it (the item shapes are the contract's, src/contract/sse.ts). In layers (openai-node's habit):
 *   bytes -> text    UTF-8; a character may be split across chunks
 *   text  -> lines   `\n`, `\r\n` or a lone `\r`; a line (or a `\r\n`) may be split anywhere
 *   lines -> events  a blank line ends an event; `data` lines join with `\n`; `event`, `id`, `retry`;
 *                    `:` lines are comments
 * `SseDecoder` does all three in one pass; `LineDecoder` and `SseLineParser` expose the first two and
 * the last layer on their own. Where the two sides differ, the decoder reports and each side decides:
 * an event still open when the body ends (no blank line after it) comes out of `end()` flagged
 * `unterminated`. Depends only on the contract: it runs wherever the contract does.
 */
import type { SseEventItem, SseItem } from '../contract/sse.ts';

/**
 * One stateless decoder for every stream: a streaming TextDecoder per stream went through ICU's
 * converter on every chunk and stayed allocated with the stream; whole chunks take the fast path.
 * ignoreBOM: a BOM is only dropped at the very start of a stream (below), never at the start of a chunk.
 */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** How many bytes at the end of `bytes` start a UTF-8 character that the next chunk completes. */
function incompleteTail(bytes: Uint8Array): number {
  const n = bytes.length;
  if (n === 0 || bytes[n - 1]! < 0x80) return 0;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: the lead byte is further back
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/** bytes -> text -> lines; subclasses receive each line in `onLine`. */
/** A line or an event past the reader's limit: an endless line must not grow memory without bound. */
export class SseTooLargeError extends Error {
  constructor(limit: number) {
    super(`an event stream line or event is longer than ${limit} characters`);
    this.name = 'SseTooLargeError';
  }
}

/** The longest line (and event data) a reader takes by default: 1 MiB of characters. */
export const DEFAULT_MAX_SSE_CHARS = 1024 * 1024;

class LineReader {
  /** Longest line accepted (characters); beyond it SseTooLargeError. */
  protected readonly maxChars: number;
  constructor(maxChars = DEFAULT_MAX_SSE_CHARS) {
    this.maxChars = maxChars;
  }

  /** The first 1-3 bytes of a character that the next chunk completes. */
  #partial: Uint8Array | null = null;
  #started = false;
  /** Text of a line not ended yet. */
  #buffer = '';
  /** The previous chunk ended with `\r`: a `\n` opening the next one belongs to the same line end. */
  #skipLf = false;

  protected onLine(_line: string): void {}

  protected feed(chunk: Uint8Array): void {
    let bytes = chunk;
    if (this.#partial !== null) {
      const joined = new Uint8Array(this.#partial.length + chunk.length);
      joined.set(this.#partial);
      joined.set(chunk, this.#partial.length);
      bytes = joined;
      this.#partial = null;
    }
    const tail = incompleteTail(bytes);
    if (tail > 0) {
      this.#partial = bytes.slice(bytes.length - tail);
      bytes = bytes.subarray(0, bytes.length - tail);
    }
    if (bytes.length > 0) this.#split(utf8.decode(bytes));
  }

  /** End of the body: undecodable leftover bytes become U+FFFD, and a last line without a line break is still a line. */
  protected finish(): void {
    if (this.#partial !== null) {
      const rest = this.#partial;
      this.#partial = null;
      this.#split(utf8.decode(rest));
    }
    const last = this.#buffer;
    this.#buffer = '';
    this.#skipLf = false;
    if (last !== '') this.onLine(last);
  }

  #split(decoded: string): void {
    let text = decoded;
    if (!this.#started) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text.length === 0) return;
    let pos = 0;
    if (this.#skipLf) {
      // Set only when a \r ended the previous text, so no line is pending in #buffer.
      this.#skipLf = false;
      if (text.charCodeAt(0) === 10) pos = 1;
    }
    const buffer = this.#buffer === '' ? text : this.#buffer + text;
    this.#buffer = '';
    const length = buffer.length;
    // Next \n and \r at or after pos; -1 when there is none left, so each is searched for once per line at most.
    let lf = -2;
    let cr = -2;
    while (pos < length) {
      if (lf !== -1 && lf < pos) lf = buffer.indexOf('\n', pos);
      if (cr !== -1 && cr < pos) cr = buffer.indexOf('\r', pos);
      if (lf === -1 && cr === -1) break;
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      this.onLine(buffer.slice(pos, end));
      if (end === lf) pos = end + 1;
      else if (end + 1 < length) pos = buffer.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      else {
        pos = end + 1;
        this.#skipLf = true;
      }
    }
    if (pos < length) this.#buffer = pos === 0 ? buffer : buffer.slice(pos);
    if (this.#buffer.length > this.maxChars) throw new SseTooLargeError(this.maxChars);
  }
}

/** bytes -> lines, for callers that want the lines themselves. */
export class LineDecoder extends LineReader {
  #lines: string[] = [];

  decode(chunk: Uint8Array): string[] {
    this.feed(chunk);
    return this.#take();
  }

  /** Lines left at the end of the stream (a last line without a line break). */
  flush(): string[] {
    this.finish();
    return this.#take();
  }

  protected override onLine(line: string): void {
    this.#lines.push(line);
  }

  #take(): string[] {
    const lines = this.#lines;
    this.#lines = [];
    return lines;
  }
}

/** lines -> events: the field rules of the SSE format. */
class EventFields {
  readonly #maxChars: number;
  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  /** `data` lines so far, joined with `\n`; null when the event has none. */
  #data: string | null = null;
  #event: string | null = null;
  #id: string | null = null;
  #retry: number | null = null;

  /** One line; returns the item it completes (a comment, or an event on its blank line). */
  line(line: string): SseItem | null {
    if (line.length === 0) {
      const data = this.#data;
      const event = this.#event;
      this.#data = null;
      this.#event = null;
      return data === null ? null : { type: 'event', event, data, id: this.#id, retry: this.#retry };
    }
    if (line.charCodeAt(0) === 58 /* : */) return { type: 'comment', text: line.slice(1) };
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') {
      this.#data = this.#data === null ? value : `${this.#data}\n${value}`;
      if (this.#data.length > this.#maxChars) throw new SseTooLargeError(this.#maxChars);
    }
    else if (field === 'event') this.#event = value;
    else if (field === 'id') {
      if (!value.includes('\0')) this.#id = value;
    } else if (field === 'retry') {
      if (/^\d+$/.test(value)) this.#retry = Number(value);
    }
    return null;
  }

  /** The body ended: the event still open (it has data but no closing blank line), flagged; null when none. */
  end(): SseEventItem | null {
    const data = this.#data;
    const event = this.#event;
    this.#data = null;
    this.#event = null;
    return data === null ? null : { type: 'event', event, data, id: this.#id, retry: this.#retry, unterminated: true };
  }
}

/** lines -> events, for callers that split lines themselves. */
export class SseLineParser {
  readonly #fields = new EventFields(DEFAULT_MAX_SSE_CHARS);

  /** One line; returns the item it completes, or null. */
  line(line: string): SseItem | null {
    return this.#fields.line(line);
  }

  /** End of stream: the event whose blank line never came, flagged `unterminated`; null when none. */
  end(): SseEventItem | null {
    return this.#fields.end();
  }
}

/** bytes -> lines -> events in one pass: what both the relay and the client read streams with. */
export class SseDecoder extends LineReader {
  readonly #fields = new EventFields(this.maxChars);
  #out: SseItem[] = [];

  /** Feeds one chunk of bytes; returns the items it completed, in order. */
  push(chunk: Uint8Array): readonly SseItem[] {
    this.feed(chunk);
    return this.#take();
  }

  /**
   * The body ended: the items its last bytes complete, then, when an event was still open (the
   * body ended before its blank line), that event flagged `unterminated`. The SSE spec discards
   * such an event; the caller decides.
   */
  end(): readonly SseItem[] {
    this.finish();
    const open = this.#fields.end();
    if (open !== null) this.#out.push(open);
    return this.#take();
  }

  protected override onLine(line: string): void {
    const item = this.#fields.line(line);
    if (item !== null) this.#out.push(item);
  }

  #take(): readonly SseItem[] {
    const out = this.#out;
    if (out.length === 0) return NONE;
    this.#out = [];
    return out;
  }
}

/** What a chunk that completes nothing returns (most chunks of a slow stream complete one item). */
const NONE: readonly SseItem[] = Object.freeze([]);
