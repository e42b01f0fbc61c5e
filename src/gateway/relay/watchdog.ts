/** The relay's own clock on an upstream: the first byte, then the silence between chunks. */

/** Reason given to an attempt's AbortController when one of our own timers fires. */
export const TIMEOUT_REASON = Object.assign(new Error('upstream timeout'), { code: 'RELAY_UPSTREAM_TIMEOUT' });

/** Aborts an attempt when the upstream is silent too long: the first byte, then between chunks. */
export class Watchdog {
  readonly #controller: AbortController;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #ms = -1;

  constructor(controller: AbortController) {
    this.#controller = controller;
  }

  /** (Re)starts the countdown; cheap to call on every chunk. */
  arm(ms: number): void {
    if (this.#timer !== null && ms === this.#ms) {
      this.#timer.refresh();
      return;
    }
    this.clear();
    this.#ms = ms;
    this.#timer = setTimeout(() => this.#controller.abort(TIMEOUT_REASON), ms);
  }

  clear(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
