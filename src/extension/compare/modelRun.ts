/**
 * One model's answer in a /compare turn. All the models run at once; the turn shows them one after the other, so
 * each run keeps its chunks as they arrive for whoever reads them later, and when its first token and its end
 * came. No vscode import.
 */
import { reasoningTextOf, type ChatCompletionChunk, type Usage } from '../../contract/index.ts';

export interface RunResult {
  /** Milliseconds from the request to the first text or reasoning; null when none came. */
  readonly firstTokenMs: number | null;
  readonly totalMs: number;
  readonly usage?: Usage;
  /** Why the answer failed (its request, or the stream midway); absent when it did not. */
  readonly error?: unknown;
}

export class ModelRun {
  readonly model: string;
  readonly result: Promise<RunResult>;
  readonly #chunks: ChatCompletionChunk[] = [];
  #ended = false;
  #wake: (() => void) | null = null;

  /** `send`: the model's streamed answer. `now`: a clock in milliseconds. */
  constructor(model: string, send: () => AsyncIterable<ChatCompletionChunk>, now: () => number = () => performance.now()) {
    this.model = model;
    this.result = this.#run(send, now);
  }

  async #run(send: () => AsyncIterable<ChatCompletionChunk>, now: () => number): Promise<RunResult> {
    const started = now();
    let firstTokenMs: number | null = null;
    let usage: Usage | undefined;
    try {
      for await (const chunk of send()) {
        const delta = chunk.choices[0]?.delta;
        if (firstTokenMs === null && delta && ((delta.content ?? '') !== '' || reasoningTextOf(delta) !== '')) firstTokenMs = now() - started;
        if (chunk.usage) usage = chunk.usage;
        this.#push(chunk);
      }
      return { firstTokenMs, totalMs: now() - started, ...(usage ? { usage } : {}) };
    } catch (error) {
      return { firstTokenMs, totalMs: now() - started, ...(usage ? { usage } : {}), error };
    } finally {
      this.#ended = true;
      this.#wake?.();
    }
  }

  #push(chunk: ChatCompletionChunk): void {
    this.#chunks.push(chunk);
    this.#wake?.();
  }

  /** Every chunk, those already arrived first, then the rest as they come, until the answer ends. */
  async *chunks(): AsyncGenerator<ChatCompletionChunk> {
    for (let read = 0; ; ) {
      while (read < this.#chunks.length) yield this.#chunks[read++]!;
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = null;
    }
  }
}
