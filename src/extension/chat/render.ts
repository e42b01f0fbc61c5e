/**
 * Streamed chat chunks -> what the @gateway response shows. Pure: returns
 * display operations that participant.ts hands to the ChatResponseStream.
 *
 * The answer streams as markdown. Reasoning (`reasoning_content`, `reasoning`,
 * or a leading `<think>` block in the content) is shown apart, before the
 * answer, as a blockquote headed "Thinking", with a progress line while the
 * model thinks; a blank line closes the quote when the answer begins. The
 * answer alone is kept (`answer`) so the next turn sends the model its own
 * answer without the reasoning.
 */
import { reasoningTextOf, type ChatCompletionChunk } from '../../contract/index.ts';
import { ThinkTagSplitter } from './thinkTags.ts';

export type DisplayOp = { readonly kind: 'markdown'; readonly value: string } | { readonly kind: 'progress'; readonly value: string };

export interface RenderLabels {
  /** Heading of the reasoning block, e.g. "Thinking". */
  readonly thinking: string;
  /** Progress line while the model reasons, e.g. "Thinking…". */
  readonly thinkingProgress: string;
}

export class AnswerRenderer {
  readonly #labels: RenderLabels;
  readonly #splitter = new ThinkTagSplitter();
  #mode: 'idle' | 'reasoning' | 'answer' = 'idle';
  #answer = '';
  #reasoning = '';
  #atLineStart = false;
  finishReason: string | null = null;

  constructor(labels: RenderLabels) {
    this.#labels = labels;
  }

  /** The answer text so far (no reasoning). */
  get answer(): string {
    return this.#answer;
  }

  /** The reasoning text so far. */
  get reasoning(): string {
    return this.#reasoning;
  }

  push(chunk: ChatCompletionChunk): DisplayOp[] {
    const ops: DisplayOp[] = [];
    for (const choice of chunk.choices) {
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta;
      if (delta) {
        const fieldReasoning = reasoningTextOf(delta);
        if (fieldReasoning) this.#addReasoning(fieldReasoning, ops);
        if (delta.content) {
          const split = this.#splitter.push(delta.content);
          if (split.reasoning) this.#addReasoning(split.reasoning, ops);
          if (split.content) this.#addAnswer(split.content, ops);
        }
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return ops;
  }

  finish(): DisplayOp[] {
    const ops: DisplayOp[] = [];
    const split = this.#splitter.finish();
    if (split.reasoning) this.#addReasoning(split.reasoning, ops);
    if (split.content) this.#addAnswer(split.content, ops);
    return ops;
  }

  #addReasoning(text: string, ops: DisplayOp[]): void {
    this.#reasoning += text;
    if (this.#mode !== 'reasoning') {
      if (this.#mode === 'answer') ops.push({ kind: 'markdown', value: '\n\n' });
      ops.push({ kind: 'progress', value: this.#labels.thinkingProgress });
      ops.push({ kind: 'markdown', value: `> **${this.#labels.thinking}**\n>\n` });
      this.#mode = 'reasoning';
      this.#atLineStart = true;
    }
    ops.push({ kind: 'markdown', value: this.#quote(text) });
  }

  #addAnswer(text: string, ops: DisplayOp[]): void {
    if (this.#mode === 'reasoning') ops.push({ kind: 'markdown', value: '\n\n' });
    this.#mode = 'answer';
    this.#answer += text;
    ops.push({ kind: 'markdown', value: text });
  }

  /** Reasoning text with every line inside the blockquote, across chunk boundaries. */
  #quote(text: string): string {
    let out = '';
    for (const char of text.replace(/\r/g, '')) {
      if (this.#atLineStart) out += '> ';
      out += char;
      this.#atLineStart = char === '\n';
    }
    return out;
  }
}
