/**
 * Only the newest completion request lives (no vscode import): starting one aborts the one before it,
 * so a keystroke cancels the HTTP request in flight, and the debounce wait before sending is cut short
 * the same way. VS Code's own CancellationToken is joined to the same signal by the provider.
 */

export class LatestOnly {
  #current: AbortController | undefined;

  /** A signal for a new request; the previous request's signal is aborted. */
  start(): AbortSignal {
    this.#current?.abort();
    this.#current = new AbortController();
    return this.#current.signal;
  }

  /** Abort whatever is in flight (the provider is switched off or disposed). */
  abort(): void {
    this.#current?.abort();
    this.#current = undefined;
  }
}

/** Wait `ms`, or reject as soon as `signal` aborts: the debounce before a request is sent. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => Object.assign(new Error('The completion request was superseded.'), { name: 'AbortError' });
    if (signal.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
