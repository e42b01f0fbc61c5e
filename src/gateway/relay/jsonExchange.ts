/**
 * A non-streamed upstream request, through undici's `dispatch()` with a small handler that keeps
 * the answer's bytes, instead of `request()`. `request()` wraps every answer in a Readable (with its
 * state, listeners and next-tick callbacks) and a promise, which the relay then read back into one
 * Buffer: what the floor proxy (undici's `stream()`) never pays. The body is what the relay needs
 * anyway: a JSON answer is read whole before anything goes to the client.
 *
 * Never rejects: a failure is in the result, with the status when it came after the answer's headers.
 */
import type { Dispatcher } from 'undici';

export interface JsonExchange {
  /** The answer's status; 0 when none came (the error is then about the connection or the first byte). */
  readonly status: number;
  readonly rawHeaders: readonly Buffer[];
  /** The body (of a non-2xx answer, its first KEEP_FAILURE_BYTES), or what came of it before `error`. */
  readonly body: Buffer;
  /** Why the exchange did not complete; null when it did. */
  readonly error: unknown;
}

/** Of a non-2xx answer only this much is kept (its message is a courtesy); the rest is read and dropped. */
const KEEP_FAILURE_BYTES = 64 * 1024;

/** A 2xx answer past the relay's limit: refused rather than held in memory. */
export class AnswerTooLargeError extends Error {
  constructor(limit: number) {
    super(`the upstream answer is larger than ${limit} bytes`);
    this.name = 'AnswerTooLargeError';
  }
}

/** undici's legacy handler interface, which its Request calls directly (no adapter in between). */
class JsonHandler implements Dispatcher.DispatchHandler {
  readonly #maxBytes: number;
  readonly #signal: AbortSignal;
  readonly #resolve: (result: JsonExchange) => void;
  #abort: ((reason?: Error) => void) | null = null;
  #status = 0;
  #rawHeaders: readonly Buffer[] = [];
  #chunks: Buffer[] = [];
  #size = 0;
  #done = false;
  readonly #onClientAbort = (): void => {
    if (this.#abort) this.#abort(this.#signal.reason as Error);
  };

  constructor(signal: AbortSignal, resolve: (result: JsonExchange) => void, maxBytes: number) {
    this.#maxBytes = maxBytes;
    this.#signal = signal;
    this.#resolve = resolve;
    signal.addEventListener('abort', this.#onClientAbort, { once: true });
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.#signal.aborted) abort(this.#signal.reason as Error);
    else this.#abort = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    this.#status = status;
    this.#rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#status >= 200 && this.#status < 300) {
      this.#chunks.push(chunk);
      this.#size += chunk.length;
      if (this.#size > this.#maxBytes) {
        const error = new AnswerTooLargeError(this.#maxBytes);
        this.#chunks = [];
        this.#size = 0;
        this.#abort?.(error);
        this.#finish(error);
        return false;
      }
    } else if (this.#size < KEEP_FAILURE_BYTES) {
      const kept = chunk.subarray(0, KEEP_FAILURE_BYTES - this.#size);
      this.#chunks.push(kept);
      this.#size += kept.length;
    }
    return true;
  }

  onComplete(): void {
    this.#finish(null);
  }

  onError(error: Error): void {
    this.#finish(error);
  }

  #finish(error: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#abort = null;
    this.#signal.removeEventListener('abort', this.#onClientAbort);
    const body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#size);
    this.#chunks = [];
    this.#resolve({ status: this.#status, rawHeaders: this.#rawHeaders, body, error });
  }
}

/**
 * Sends `options` (headersTimeout and bodyTimeout included: they are the first-byte and idle clocks)
 * and collects the answer. `signal` (the client's) aborts it.
 */
export function exchangeJson(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, signal: AbortSignal, maxBytes: number): Promise<JsonExchange> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ status: 0, rawHeaders: [], body: Buffer.alloc(0), error: signal.reason });
      return;
    }
    dispatcher.dispatch(options, new JsonHandler(signal, resolve, maxBytes));
  });
}

/** The headers of an answer as a plain object (lower-case names), for the rare answers that need them. */
export function headersOf(rawHeaders: readonly Buffer[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toString('latin1').toLowerCase();
    if (!(name in headers)) headers[name] = rawHeaders[i + 1]!.toString('latin1');
  }
  return headers;
}
