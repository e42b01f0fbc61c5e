/**
 * Some upstreams (DeepSeek R1 and Qwen behind some providers) put the reasoning
 * inside the answer text as `<think> ... </think>` at its start, instead of in a
 * `reasoning_content` field. This splits a streamed content into reasoning and
 * answer, with tags that may be cut anywhere between chunks. Pure.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

export interface Split {
  reasoning: string;
  content: string;
}

export class ThinkTagSplitter {
  #state: 'start' | 'thinking' | 'afterThinking' | 'answer' = 'start';
  #held = '';

  push(text: string): Split {
    const out: Split = { reasoning: '', content: '' };
    this.#held += text;
    if (this.#state === 'start') {
      const lead = this.#held.trimStart();
      if (lead.length < OPEN.length && OPEN.startsWith(lead)) return out; // not decided yet
      if (lead.startsWith(OPEN)) {
        this.#state = 'thinking';
        this.#held = lead.slice(OPEN.length);
      } else {
        this.#state = 'answer';
      }
    }
    if (this.#state === 'thinking') {
      const end = this.#held.indexOf(CLOSE);
      if (end === -1) {
        // Keep back what could be the start of a closing tag cut by the chunk boundary.
        const keep = partialSuffix(this.#held, CLOSE);
        out.reasoning = this.#held.slice(0, this.#held.length - keep);
        this.#held = this.#held.slice(this.#held.length - keep);
        return out;
      }
      out.reasoning = this.#held.slice(0, end);
      this.#held = this.#held.slice(end + CLOSE.length);
      this.#state = 'afterThinking';
    }
    if (this.#state === 'afterThinking') {
      // The blank lines between the closing tag and the answer may come in later chunks.
      this.#held = this.#held.replace(/^\s+/, '');
      if (this.#held === '') return out;
      this.#state = 'answer';
    }
    out.content = this.#held;
    this.#held = '';
    return out;
  }

  /** Whatever is still held at the end of the stream. */
  finish(): Split {
    const held = this.#held;
    this.#held = '';
    if (this.#state === 'thinking') return { reasoning: held, content: '' };
    return { reasoning: '', content: held };
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
