/**
 * Server-sent events, decoded in layers: bytes -> text (UTF-8, a character may be split
 * across chunks) -> lines (`\n`, `\r\n` or a lone `\r`, a line may be split anywhere) ->
 * events (blank line ends an event; `data` lines join with `\n`; `:` lines are comments).
 * Only what the relay needs: `event` and `data` fields; `id` and `retry` are ignored.
 */

export type SseItem =
  | { readonly type: 'event'; readonly event: string | null; readonly data: string }
  | { readonly type: 'comment'; readonly text: string };

export class SseDecoder {
  readonly #text = new TextDecoder('utf-8');
  #buffer = '';
  /** The previous chunk ended with `\r`: a `\n` opening the next one belongs to the same line end. */
  #skipLf = false;
  #data: string[] = [];
  #event: string | null = null;

  /** Feeds one chunk of bytes; returns the items it completed, in order. */
  push(chunk: Uint8Array): SseItem[] {
    return this.#lines(this.#text.decode(chunk, { stream: true }));
  }

  /**
   * The body ended. An event not closed by a blank line is discarded, as the SSE spec says:
   * an upstream that dies mid-event did not send that event (the one tolerated exception
   * is a bare final `[DONE]`).
   */
  end(): SseItem[] {
    const out = this.#lines(this.#text.decode());
    if (this.#buffer) this.#line(this.#buffer, out);
    // Tolerance: a final `data: [DONE]` without its blank line still ends the stream.
    if (this.#data.length === 1 && this.#data[0] === '[DONE]') out.push({ type: 'event', event: this.#event, data: '[DONE]' });
    this.#buffer = '';
    this.#data = [];
    this.#event = null;
    return out;
  }

  #lines(text: string): SseItem[] {
    const out: SseItem[] = [];
    if (text.length === 0) return out;
    let start = 0;
    if (this.#skipLf) {
      this.#skipLf = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    let buffer = this.#buffer + (start === 0 ? text : text.slice(start));
    this.#buffer = '';
    let pos = 0;
    const length = buffer.length;
    while (pos < length) {
      const lf = buffer.indexOf('\n', pos);
      const cr = buffer.indexOf('\r', pos);
      let end: number;
      if (lf === -1 && cr === -1) break;
      if (cr === -1 || (lf !== -1 && lf < cr)) end = lf;
      else end = cr;
      this.#line(buffer.slice(pos, end), out);
      if (end === cr) {
        if (end + 1 < length) pos = buffer.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
        else {
          pos = end + 1;
          this.#skipLf = true;
        }
      } else pos = end + 1;
    }
    this.#buffer = pos < length ? buffer.slice(pos) : '';
    buffer = '';
    return out;
  }

  #line(line: string, out: SseItem[]): void {
    if (line.length === 0) {
      if (this.#data.length > 0) {
        out.push({ type: 'event', event: this.#event, data: this.#data.length === 1 ? this.#data[0]! : this.#data.join('\n') });
      }
      this.#data = [];
      this.#event = null;
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) {
      out.push({ type: 'comment', text: line.slice(1) });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
  }
}
