/**
 * A streamed upstream request, through undici's `dispatch()` with a small handler that hands the
 * answer's chunks to one reader, instead of `request()`. `request()` wraps every answer in a
 * Readable, and `for await` over a Readable adds an async generator and seven end-of-stream
 * listeners: about 2.5 KB more per open stream, held as long as the stream lasts, and a promise
 * chain per chunk. Here a stream is one object: chunks wait in it (at most one or two: the upstream
 * is paused while one waits) until the reader asks, so a slow client slows the upstream, as it did.
 */
import type { Dispatcher } from 'undici';
import { headersOf } from './jsonExchange.ts';

/** Undici's own limit for a body that is read only to be dropped (its `dump()`): beyond it the connection is closed. */
const DUMP_LIMIT_BYTES = 128 * 1024;

/** An upstream's answer: status, then the body's chunks, read once. */
export interface UpstreamStream extends AsyncIterable<Buffer> {
  readonly status: number;
  /** The answer's headers (lower-case names); only a non-2xx answer keeps them (a stream never needs its own). */
  headers(): Record<string, string>;
  /** Reads the rest and drops it (the connection stays reusable), or closes it past DUMP_LIMIT_BYTES. */
  dump(): void;
  /** Aborts the request unless its body has already ended. A loop left early (break, return, throw) does this too. */
  destroy(): void;
}

/** undici's legacy handler interface, which its Request calls directly (no adapter in between). */
class StreamHandler implements Dispatcher.DispatchHandler, UpstreamStream, AsyncIterator<Buffer> {
  readonly #signal: AbortSignal;
  #opened: { resolve: (stream: UpstreamStream) => void; reject: (error: unknown) => void } | null;
  status = 0;
  #rawHeaders: readonly Buffer[] = [];
  #abort: ((reason?: Error) => void) | null = null;
  #resume: (() => void) | null = null;
  #paused = false;
  readonly #queue: Buffer[] = [];
  /** The reader waiting for the next chunk, when it asked before one came. */
  #waiting: { resolve: (result: IteratorResult<Buffer>) => void; reject: (error: unknown) => void } | null = null;
  #ended = false;
  #error: unknown = null;
  #dumped = -1;
  readonly #onAbort = (): void => {
    this.#abort?.(this.#signal.reason as Error);
  };

  constructor(signal: AbortSignal, resolve: (stream: UpstreamStream) => void, reject: (error: unknown) => void) {
    this.#signal = signal;
    this.#opened = { resolve, reject };
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.#signal.aborted) abort(this.#signal.reason as Error);
    else if (!this.#ended) this.#abort = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void): boolean {
    this.status = status;
    if (status < 200 || status >= 300) this.#rawHeaders = rawHeaders;
    this.#resume = resume;
    const opened = this.#opened;
    this.#opened = null;
    opened?.resolve(this);
    return true;
  }

  headers(): Record<string, string> {
    return headersOf(this.#rawHeaders);
  }

  onData(chunk: Buffer): boolean {
    // undici's parser, resumed, flushes with an empty buffer: pausing on it again would never move on.
    if (chunk.length === 0) return true;
    if (this.#dumped >= 0) {
      this.#dumped += chunk.length;
      if (this.#dumped > DUMP_LIMIT_BYTES) this.destroy();
      return true;
    }
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = null;
      waiting.resolve({ value: chunk, done: false });
      return true;
    }
    this.#queue.push(chunk);
    this.#paused = true;
    return false;
  }

  onComplete(): void {
    this.#settle(null);
  }

  onError(error: Error): void {
    this.#settle(error);
  }

  #settle(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#abort = null;
    this.#signal.removeEventListener('abort', this.#onAbort);
    const opened = this.#opened;
    this.#opened = null;
    if (opened) opened.reject(error ?? new Error('upstream answer ended before its headers'));
    const waiting = this.#waiting;
    this.#waiting = null;
    if (!waiting) return;
    if (error === null) waiting.resolve({ value: undefined, done: true });
    else waiting.reject(error);
  }

  next(): Promise<IteratorResult<Buffer>> {
    const chunk = this.#queue.shift();
    if (chunk !== undefined) {
      if (this.#queue.length === 0 && this.#paused) {
        this.#paused = false;
        this.#resume?.();
      }
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.#ended) return this.#error === null ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(this.#error);
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<Buffer>> {
    this.destroy();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return this;
  }

  dump(): void {
    if (this.#ended) return;
    this.#dumped = 0;
    this.#queue.length = 0;
    if (this.#paused) {
      this.#paused = false;
      this.#resume?.();
    }
  }

  destroy(): void {
    this.#queue.length = 0;
    if (this.#ended) return;
    const abort = this.#abort;
    // What undici's own body streams give as the reason when they are destroyed unread.
    const reason = Object.assign(new Error('upstream body dropped'), { name: 'AbortError', code: 'UND_ERR_ABORTED' });
    if (abort) abort(reason);
    else this.#settle(reason);
  }
}

/**
 * Sends `options` (headersTimeout and bodyTimeout included) and resolves with the answer once its
 * status and headers come, its body to be read; rejects when the request fails before them.
 * `signal` aborts it at any point.
 */
export function openStream(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, signal: AbortSignal): Promise<UpstreamStream> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    dispatcher.dispatch(options, new StreamHandler(signal, resolve, reject));
  });
}
